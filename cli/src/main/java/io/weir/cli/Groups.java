package io.weir.cli;

import io.weir.common.internal.KafkaCalls;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/** An application's consumer group, which does not exist before its first start (or after it expired). */
final class Groups {

    private Groups() {}

    /** The group's description; empty if the cluster has no such group. */
    static Optional<ConsumerGroupDescription> describe(Admin admin, String group) {
        return KafkaCalls.getIfExists(
                        admin.describeConsumerGroups(List.of(group)).all(),
                        ClusterOptions.TIMEOUT,
                        "describe the consumer group " + group,
                        GroupIdNotFoundException.class)
                .map(m -> m.get(group));
    }

    /** The group's committed offsets; empty if the cluster has no such group. */
    static Map<TopicPartition, OffsetAndMetadata> committed(Admin admin, String group) {
        return KafkaCalls.getIfExists(
                        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata(),
                        ClusterOptions.TIMEOUT,
                        "read the committed offsets of " + group,
                        GroupIdNotFoundException.class)
                .orElse(Map.of());
    }
}
