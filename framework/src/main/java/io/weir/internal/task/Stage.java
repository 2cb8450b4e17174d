package io.weir.internal.task;

import io.weir.errors.ProcessingException;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Where a record failed; written to the dead-letter header {@code weir.error.stage}. */
public enum Stage {
    DESERIALIZE("deserialize"),
    TIMESTAMP("timestamp"),
    PROCESS("process"),
    PRODUCE("produce");

    final String label;

    Stage(String label) {
        this.label = label;
    }

    /**
     * What a record that failed at this stage under {@code error.mode=fail} stops the application
     * with: its topic, partition and offset, the stage and the cause.
     */
    public ProcessingException failed(ConsumerRecord<byte[], byte[]> record, Throwable cause) {
        return new ProcessingException(
                "record " + record.topic() + "-" + record.partition() + "@" + record.offset() + " failed to " + label
                        + " and error.mode=fail: " + cause,
                cause);
    }

    /** True for failures found before the record reached any processor: nothing was forwarded yet. */
    public boolean beforeProcessing() {
        return this == DESERIALIZE || this == TIMESTAMP;
    }
}
