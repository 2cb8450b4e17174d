package io.weir.internal.cluster;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Waits until the partitions of topics just created have leaders that serve them. A topic's
 * creation returns once the controller committed it, before the brokers took their partitions
 * over: a producer that sends at once is answered {@code NOT_LEADER_OR_FOLLOWER} and logs a WARN
 * for each retry, noise on an application's first start that reads like a broker problem. Worse,
 * an idempotent producer whose first batch to a partition fails so while its next one succeeds
 * retries the first for ever with {@code OUT_OF_ORDER_SEQUENCE_NUMBER} (KAFKA-14359).
 */
public final class TopicLeaders {

    private static final long POLL_MS = 50;

    private TopicLeaders() {
    }

    /**
     * Returns once every partition of {@code topics} has a leader that serves it.
     *
     * @throws TimeoutException if one has none after {@code timeout}
     * @throws ExecutionException if describing the topics fails for another reason than their
     *     being unknown yet
     */
    public static void await(Admin admin, Collection<String> topics, Duration timeout)
            throws InterruptedException, TimeoutException, ExecutionException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!led(admin, topics, timeout)) {
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException("topics " + topics + " have partitions without a leader after "
                        + timeout.toSeconds() + " s");
            }
            Thread.sleep(POLL_MS); // the admin client has nothing to wait on for a leader election
        }
    }

    /**
     * Whether every partition's leader serves it: a leader in the metadata is not enough, as a
     * broker publishes its metadata before its replica manager took the new partitions over. A
     * listing of the partitions' end offsets is answered by that replica manager.
     */
    private static boolean led(Admin admin, Collection<String> topics, Duration timeout)
            throws InterruptedException, TimeoutException, ExecutionException {
        Map<String, TopicDescription> d;
        try {
            d = admin.describeTopics(topics).allTopicNames().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return false; // created, but not yet in the metadata of the broker asked
            }
            throw e;
        }
        Map<TopicPartition, OffsetSpec> partitions = new HashMap<>();
        for (TopicDescription t : d.values()) {
            for (TopicPartitionInfo p : t.partitions()) {
                if (p.leader() == null || p.leader().isEmpty()) {
                    return false;
                }
                partitions.put(new TopicPartition(t.name(), p.partition()), OffsetSpec.latest());
            }
        }
        try {
            admin.listOffsets(partitions).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RetriableException) {
                return false;
            }
            throw e;
        }
    }
}
