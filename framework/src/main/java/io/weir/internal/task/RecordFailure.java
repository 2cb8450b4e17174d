package io.weir.internal.task;

import io.weir.processor.FailedRecord;
import io.weir.processor.Headers;
import io.weir.processor.Record;
import io.weir.processor.TaskId;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A record that failed: the input record, the stage, the error to report, the node it failed in
 * ({@code ""} if unknown) and the typed record that node was given (null before the source read it).
 */
public record RecordFailure(
        TaskId task,
        ConsumerRecord<byte[], byte[]> record,
        Stage stage,
        Throwable error,
        String node,
        Record<Object, Object> processed) {

    /** As an error handler sees it. */
    public FailedRecord toFailedRecord() {
        return new FailedRecord(
                stage.errorStage(),
                node,
                task,
                record.topic(),
                record.partition(),
                record.offset(),
                record.timestamp(),
                record.key(),
                record.value(),
                Headers.of(record.headers()),
                Optional.ofNullable(processed),
                error);
    }
}
