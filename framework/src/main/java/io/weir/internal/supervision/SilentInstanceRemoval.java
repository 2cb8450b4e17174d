package io.weir.internal.supervision;

import io.micrometer.core.instrument.Counter;
import io.weir.common.internal.KafkaCalls;
import io.weir.config.WeirConfig;
import io.weir.errors.ClusterException;
import io.weir.internal.cluster.InstanceMembers;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.common.errors.InterruptException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The liveness watch's action on silent instances: removes their members from the consumer group
 * with the admin API (KIP-345), so their tasks move at once, then, under exactly-once, fences their
 * transactional ids ({@link TransactionFence}). A removal that fails is handed back to
 * {@link Peers} to be tried again.
 *
 * <p>Threads: the liveness thread only.
 */
final class SilentInstanceRemoval {

    private static final Logger log = LoggerFactory.getLogger(SilentInstanceRemoval.class);
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(5);

    private final WeirConfig config;
    private final Admin admin;
    private final Counter removals;
    /** Under exactly-once only: other guarantees leave no transaction open. */
    private final TransactionFence fence;
    /** Announces the rebalance a removal started, so every member joins it now. */
    private final Consumer<String> rebalanceStarted;

    SilentInstanceRemoval(
            WeirConfig config,
            Admin admin,
            TransactionFence fence,
            Counter removals,
            Consumer<String> rebalanceStarted) {
        this.config = config;
        this.admin = admin;
        this.fence = fence;
        this.removals = removals;
        this.rebalanceStarted = rebalanceStarted;
    }

    /** Removes the {@code suspects} from the group; those whose removal failed go back to {@code peers}. */
    void remove(Map<String, Peers.Peer> suspects, Peers peers, long now) {
        ConsumerGroupDescription group;
        try {
            group = KafkaCalls.get(
                            admin.describeConsumerGroups(List.of(config.applicationId()))
                                    .all(),
                            ADMIN_TIMEOUT,
                            "describe the consumer group " + config.applicationId())
                    .get(config.applicationId());
        } catch (ClusterException e) {
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
            log.debug("cannot describe the group to remove {}; will try again", suspects.keySet(), e);
            suspects.forEach(peers::suspectAgain);
            return;
        }
        for (Map.Entry<String, Peers.Peer> e : suspects.entrySet()) {
            if (!remove(group, e.getKey(), e.getValue(), now)) {
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
                peers.suspectAgain(e.getKey(), e.getValue());
            }
        }
    }

    /** Removes one instance's members; false if that failed and should be tried again. */
    private boolean remove(ConsumerGroupDescription group, String instance, Peers.Peer peer, long now) {
        List<MemberToRemove> members = InstanceMembers.in(group, instance);
        if (members.isEmpty()) {
            return true; // gone already (left, removed by another instance, or its session expired)
        }
        String seconds = String.format("%.1f", (now - peer.seenNanos) / 1e9);
        try {
            if (!InstanceMembers.remove(
                    admin,
                    config.applicationId(),
                    members,
                    "no heartbeat from instance " + instance + " for " + seconds + " s",
                    ADMIN_TIMEOUT)) {
                log.debug("removing {} found nothing to remove", instance);
                return true;
            }
        } catch (ClusterException ex) {
            log.debug("removing {} failed; will try again: {}", instance, ex.getMessage());
            return false;
        }
        removals.increment();
        // The removal started a rebalance that every member would otherwise learn of from
        // its next heartbeat: the tasks move sooner if they all join now.
        rebalanceStarted.accept("instance " + instance + " was removed from the group");
        String fenced = fence(instance, Math.max(peer.threads, members.size()));
        log.warn(
                "instance {} sent no heartbeat for {} s (failure.detection.ms={}); removed it from the"
                        + " group so its tasks move now{}",
                instance,
                seconds,
                config.failureDetection().toMillis(),
                fenced);
        return true;
    }

    /**
     * Aborts the transactions the removed instance left open (see {@link TransactionFence}), after
     * the removal so the rebalance runs meanwhile.
     *
     * @return the end of the removal's log line
     */
    private String fence(String instance, int threads) {
        if (fence == null) {
            return "";
        }
        long started = System.nanoTime();
        try {
            fence.fence(instance, threads);
            return String.format(
                    ", and fenced its transactional ids in %d ms so its open transactions abort now",
                    (System.nanoTime() - started) / 1_000_000);
        } catch (RuntimeException ex) {
            if (ex instanceof InterruptException) {
                Thread.currentThread().interrupt();
            }
            return "; fencing its transactional ids failed (" + ex.getMessage() + "), so read_committed readers of"
                    + " its outputs wait until its open transactions time out (transaction.timeout.ms="
                    + config.transactionTimeout().toMillis() + ")";
        }
    }
}
