package io.weir.benchmarks.input;

import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * A fully written input topic: its name, the end offset of each partition, which is where a
 * consumer group's committed offsets stand once the group has processed every record, and how
 * many distinct keys occur in it (a count writes at least one output record per key).
 */
public record InputTopic(String name, Map<TopicPartition, Long> endOffsets, long distinctKeys) {

    public InputTopic {
        endOffsets = Map.copyOf(endOffsets);
    }

    /** The number of records: written without transactions, so end offsets count records only. */
    public long records() {
        return endOffsets.values().stream().mapToLong(Long::longValue).sum();
    }
}
