package io.weir.internal.task;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/** A record failed and {@code error.mode=fail}: the application stops. */
public final class RecordFailedException extends RuntimeException {

    public RecordFailedException(ConsumerRecord<byte[], byte[]> record, Stage stage, Throwable cause) {
        super("record " + record.topic() + "-" + record.partition() + "@" + record.offset() + " failed to "
                + stage.label + " and error.mode=fail: " + cause, cause);
    }
}
