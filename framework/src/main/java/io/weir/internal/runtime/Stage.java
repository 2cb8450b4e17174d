package io.weir.internal.runtime;

/** Where a record failed; written to the dead-letter header {@code weir.error.stage}. */
enum Stage {
    DESERIALIZE("deserialize"), PROCESS("process"), PRODUCE("produce");

    final String label;

    Stage(String label) {
        this.label = label;
    }
}
