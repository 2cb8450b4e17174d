package io.weir.common.internal;

import io.weir.errors.ClusterException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.RetriableException;

/**
 * Waits until the partitions of topics just created have leaders that serve them. A topic's
 * creation returns once the controller committed it, before the brokers took their partitions
 * over: a producer that sends at once is answered {@code NOT_LEADER_OR_FOLLOWER} and logs a WARN
 * for each retry, noise on an application's first start that reads like a broker problem. Worse,
 * an idempotent producer whose first batch to a partition fails so while its next one succeeds
 * retries the first for ever with {@code OUT_OF_ORDER_SEQUENCE_NUMBER} (KAFKA-14359): the batch
 * is lost.
 */
public final class TopicLeaders {

    private static final Duration POLL = Duration.ofMillis(50);

    private TopicLeaders() {}

    /**
     * Returns once every partition of {@code topics} has a leader that serves it. Each request to
     * the cluster may take {@code timeout} too. A retriable error (a topic not yet known to the
     * broker asked, a leader not yet elected) means "not yet".
     *
     * @throws ClusterException if a partition has none after {@code timeout}, a request fails for
     *     another reason or gets no answer, or the wait is interrupted
     */
    public static void await(Admin admin, Collection<String> topics, Duration timeout) {
        boolean led;
        try {
            // The admin client has nothing to wait on for a leader election: ask again.
            led = Poll.until(() -> led(admin, topics, timeout), timeout, POLL);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted while waiting for the leaders of topics " + topics, e);
        }
        if (!led) {
            throw new ClusterException(
                    "topics " + topics + " have partitions without a leader after " + Deadline.format(timeout));
        }
    }

    /**
     * Whether every partition's leader serves it: a leader in the metadata is not enough, as a
     * broker publishes its metadata before its replica manager took the new partitions over. A
     * listing of the partitions' end offsets is answered by that replica manager.
     */
    private static boolean led(Admin admin, Collection<String> topics, Duration timeout) {
        try {
            Map<String, TopicDescription> described =
                    KafkaCalls.get(admin.describeTopics(topics).allTopicNames(), timeout, "describe topics " + topics);
            Map<TopicPartition, OffsetSpec> partitions = new HashMap<>();
            for (TopicDescription t : described.values()) {
                for (TopicPartitionInfo p : t.partitions()) {
                    if (p.leader() == null || p.leader().isEmpty()) {
                        return false;
                    }
                    partitions.put(new TopicPartition(t.name(), p.partition()), OffsetSpec.latest());
                }
            }
            KafkaCalls.get(admin.listOffsets(partitions).all(), timeout, "list the end offsets of topics " + topics);
            return true;
        } catch (ClusterException e) {
            if (e.getCause() instanceof RetriableException) {
                return false; // created, but not yet known to the broker asked, or not yet led
            }
            throw e;
        }
    }
}
