package io.weir.internal.cluster.topics;

import io.weir.internal.topology.NodeSpec;
import io.weir.internal.topology.TopologyModel;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes from repartition topics what their readers have committed. Repartition topics keep
 * records without a time limit ({@code retention.ms=-1}, see {@link TopicSetup}): a record keeps
 * its original timestamp when it is repartitioned, so a replay of data older than the broker's
 * retention would otherwise see repartitioned records deleted by time before the downstream task
 * read them. What the readers committed is deleted instead, every
 * {@code repartition.purge.interval.ms}, with one asynchronous {@code deleteRecords} call.
 *
 * <p>Thread-safe: every stream thread of the instance reports its commits here.
 */
public final class RepartitionPurge {

    private static final Logger log = LoggerFactory.getLogger(RepartitionPurge.class);

    private final Admin admin;
    private final Set<String> topics = new HashSet<>();
    private final long intervalNanos;
    private final Map<TopicPartition, Long> committed = new HashMap<>();
    private final AtomicBoolean warned = new AtomicBoolean();
    private long lastPurgeNanos = System.nanoTime();

    public RepartitionPurge(Admin admin, TopologyModel model, Duration interval) {
        this.admin = admin;
        this.intervalNanos = interval.toNanos();
        for (NodeSpec.Source s : model.internalSources()) {
            topics.addAll(s.topics());
        }
    }

    /** True if the application has repartition topics and purging is on. */
    public boolean active() {
        return intervalNanos > 0 && !topics.isEmpty();
    }

    /** A thread committed {@code offsets}; deletes what is committed once the interval has passed. */
    public void committed(Map<TopicPartition, Long> offsets) {
        Map<TopicPartition, RecordsToDelete> toDelete;
        synchronized (this) {
            offsets.forEach((tp, offset) -> {
                if (topics.contains(tp.topic())) {
                    committed.merge(tp, offset, Math::max);
                }
            });
            long now = System.nanoTime();
            if (committed.isEmpty() || now - lastPurgeNanos < intervalNanos) {
                return;
            }
            lastPurgeNanos = now;
            toDelete = new HashMap<>();
            committed.forEach((tp, offset) -> toDelete.put(tp, RecordsToDelete.beforeOffset(offset)));
            committed.clear();
        }
        admin.deleteRecords(toDelete).all().whenComplete((v, e) -> {
            if (e != null && warned.compareAndSet(false, true)) {
                log.warn(
                        "cannot delete committed records from repartition topics ({}); they stay until deleted"
                                + " otherwise (this warning is not repeated)",
                        e.toString());
            } else if (e != null) {
                log.debug("deleting committed records from repartition topics failed", e);
            }
        });
    }
}
