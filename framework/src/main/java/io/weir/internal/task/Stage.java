package io.weir.internal.task;

/** Where a record failed; written to the dead-letter header {@code weir.error.stage}. */
public enum Stage {
    DESERIALIZE("deserialize"), TIMESTAMP("timestamp"), PROCESS("process"), PRODUCE("produce");

    final String label;

    Stage(String label) {
        this.label = label;
    }

    /** True for failures found before the record reached any processor: nothing was forwarded yet. */
    public boolean beforeProcessing() {
        return this == DESERIALIZE || this == TIMESTAMP;
    }
}
