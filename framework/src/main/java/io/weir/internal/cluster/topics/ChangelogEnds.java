package io.weir.internal.cluster.topics;

import io.weir.common.internal.KafkaCalls;
import io.weir.errors.ClusterException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read_committed end offsets of changelog partitions, for the assignor on the group leader:
 * one admin request for all of them. The assignor runs inside the leader's poll, so the request
 * is bounded; when it fails, the assignor gets no ends and places tasks by the offsets the members
 * reported alone.
 */
public final class ChangelogEnds {

    private static final Logger log = LoggerFactory.getLogger(ChangelogEnds.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Admin admin;

    public ChangelogEnds(Admin admin) {
        this.admin = admin;
    }

    public Map<TopicPartition, Long> endOffsets(Set<TopicPartition> changelogs) {
        Map<TopicPartition, Long> ends = new HashMap<>();
        if (changelogs.isEmpty()) {
            return ends;
        }
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        changelogs.forEach(tp -> request.put(tp, OffsetSpec.latest()));
        try {
            ListOffsetsOptions options =
                    new ListOffsetsOptions(IsolationLevel.READ_COMMITTED).timeoutMs((int) TIMEOUT.toMillis());
            // A second more than the request's own time-out, so that its error is the one reported.
            KafkaCalls.get(
                            admin.listOffsets(request, options).all(),
                            TIMEOUT.plusSeconds(1),
                            "read the end offsets of " + changelogs.size() + " changelog partitions")
                    .forEach((tp, info) -> ends.put(tp, info.offset()));
        } catch (ClusterException e) {
            if (!Thread.currentThread().isInterrupted()) {
                log.warn("{}; placing tasks by the offsets the instances reported", e.getMessage());
            }
        }
        return ends;
    }
}
