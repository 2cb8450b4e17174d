package io.weir.internal.task;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

/** Records as a poll returns them, for the tests of a task's inputs. */
final class PolledRecords {

    private PolledRecords() {}

    /**
     * Records of {@code tp} from offset {@code firstOffset} on, one per timestamp, with no key and
     * the value {@code <topic><offset>} (so a test can tell where a record came from).
     */
    static List<ConsumerRecord<byte[], byte[]>> records(TopicPartition tp, long firstOffset, long... timestamps) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (int i = 0; i < timestamps.length; i++) {
            long offset = firstOffset + i;
            out.add(new ConsumerRecord<>(
                    tp.topic(),
                    tp.partition(),
                    offset,
                    timestamps[i],
                    TimestampType.CREATE_TIME,
                    0,
                    0,
                    null,
                    (tp.topic() + offset).getBytes(StandardCharsets.UTF_8),
                    new RecordHeaders(),
                    Optional.empty()));
        }
        return out;
    }
}
