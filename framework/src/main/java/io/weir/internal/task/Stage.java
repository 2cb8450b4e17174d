package io.weir.internal.task;

import io.weir.errors.ProcessingException;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Where a record failed; written to the dead-letter header {@code weir.error.stage}. */
public enum Stage {
    DESERIALIZE("deserialize"),
    TIMESTAMP("timestamp"),
    PROCESS("process"),
    /** An asynchronous step's call failed for good (time-outs and retries spent). */
    CALL("call"),
    PRODUCE("produce");

    final String label;

    /** The stage as error handlers see it. */
    public io.weir.processor.ErrorStage errorStage() {
        return io.weir.processor.ErrorStage.valueOf(name());
    }

    /** {@code weir.error.stage}'s value, also the {@code stage} tag of {@code weir.records.failed}. */
    public String label() {
        return label;
    }

    Stage(String label) {
        this.label = label;
    }

    /**
     * What a record that failed at this stage under {@code error.mode=fail} stops the application
     * with: its topic, partition and offset, the stage and the cause.
     */
    public ProcessingException failed(ConsumerRecord<byte[], byte[]> record, Throwable cause) {
        return failed(record, cause, "error.mode=fail");
    }

    /** As {@link #failed(ConsumerRecord, Throwable)}, naming {@code why} failing stops the application. */
    public ProcessingException failed(ConsumerRecord<byte[], byte[]> record, Throwable cause, String why) {
        return new ProcessingException(
                "record " + record.topic() + "-" + record.partition() + "@" + record.offset() + " failed to " + label
                        + " and " + why + ": " + cause,
                cause);
    }

    /**
     * True for failures after which nothing of the record was forwarded: found before it reached
     * any processor, or an asynchronous call that failed for good (its result would have been the
     * first thing forwarded). Such a record is dead-lettered at once, without replaying the
     * uncommitted work.
     */
    public boolean nothingForwarded() {
        return this == DESERIALIZE || this == TIMESTAMP || this == CALL;
    }
}
