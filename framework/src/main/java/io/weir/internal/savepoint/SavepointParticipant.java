package io.weir.internal.savepoint;

import io.weir.common.KeyValue;
import io.weir.internal.state.TaskStore;
import io.weir.internal.task.ActiveTask;
import io.weir.internal.topology.NodeSpec;
import io.weir.processor.TaskId;
import io.weir.state.KeyValueIterator;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

/**
 * A stream thread's part in a savepoint, run by its {@code TaskManager} at every step: it pauses
 * each of its tasks at the cut as {@link io.weir.internal.savepoint.SavepointCut} allows (a task
 * reading a repartition topic once the tasks writing it paused and it has processed the topic to
 * its end), commits so the cut is a commit, and, once every task of the application paused,
 * opens its tasks' stores at that point, hands them to the writer and lets the tasks go on
 * (or keeps them paused when the application stops after the savepoint). The processing pause of
 * a task is from its commit at the cut until the whole cut is complete, not the copy.
 *
 * <p>Threading: the stream thread's only.
 */
public final class SavepointParticipant {

    private final SavepointControl control;
    private final Consumer<byte[], byte[]> consumer;
    private final Set<String> repartitionTopics = new HashSet<>();
    private final Set<TaskId> held = new HashSet<>();
    private final Map<TaskId, Map<TopicPartition, Long>> drainTargets = new HashMap<>();
    private String activeId;
    private boolean submitted;
    private boolean holdUntilClose;

    public SavepointParticipant(
            SavepointControl control,
            Consumer<byte[], byte[]> consumer,
            io.weir.internal.topology.TopologyModel model) {
        this.control = control;
        this.consumer = consumer;
        for (NodeSpec.Source s : model.internalSources()) {
            repartitionTopics.addAll(s.topics());
        }
    }

    /**
     * Before the tasks process: pauses the tasks that may pause, hands the cut over once it is
     * complete, and releases the tasks of a savepoint that ended or was aborted.
     *
     * @param commitAll commits every task of the thread (the cut is a commit)
     */
    public void step(Collection<ActiveTask> tasks, Runnable commitAll) {
        SavepointControl.Progress p = control.current();
        if (p == null || !p.id().equals(activeId)) {
            if (!holdUntilClose) {
                release(tasks);
            }
            if (p == null || holdUntilClose) {
                return;
            }
            activeId = p.id();
            drainTargets.clear();
            submitted = false;
        }
        if (submitted) {
            return;
        }
        List<ActiveTask> toPause = new ArrayList<>();
        for (ActiveTask t : tasks) {
            if (held.contains(t.id()) || t.isRestoring()) {
                continue;
            }
            if (!p.cut.drains(t.id()) || (p.cut.upstreamPaused(t.id()) && drained(t))) {
                toPause.add(t);
            }
        }
        if (!toPause.isEmpty()) {
            commitAll.run();
            for (ActiveTask t : toPause) {
                t.hold(true);
                held.add(t.id());
                control.paused(p, t.id(), t.committedOffsets());
            }
        }
        if (p.cut.complete() && allHeld(tasks)) {
            List<SavepointWriter.TaskCopy> copies = new ArrayList<>();
            for (ActiveTask t : tasks) {
                copies.add(copyOf(t));
            }
            control.submit(p, copies);
            submitted = true;
            if (p.request.stop()) {
                holdUntilClose = true; // nothing is processed after the final savepoint
            } else {
                release(tasks);
            }
        }
    }

    /** Tasks are revoked or lost: a savepoint whose cut is not handed over yet cannot complete. */
    public void tasksMoving(Collection<TopicPartition> partitions) {
        SavepointControl.Progress p = control.current();
        if (p != null && !submitted && !partitions.isEmpty() && p.id().equals(activeId)) {
            control.abort(p, "tasks moved during the savepoint (a rebalance): " + partitions);
        }
    }

    private boolean allHeld(Collection<ActiveTask> tasks) {
        for (ActiveTask t : tasks) {
            if (!held.contains(t.id())) {
                return false;
            }
        }
        return true;
    }

    /**
     * True once the task has processed its repartition inputs up to the ends they had when every
     * task writing them had paused (those ends are final for the cut).
     */
    private boolean drained(ActiveTask t) {
        Map<TopicPartition, Long> targets = drainTargets.get(t.id());
        if (targets == null) {
            List<TopicPartition> inputs = new ArrayList<>();
            for (TopicPartition tp : t.partitions()) {
                if (repartitionTopics.contains(tp.topic())) {
                    inputs.add(tp);
                }
            }
            targets = new HashMap<>(consumer.endOffsets(inputs));
            drainTargets.put(t.id(), targets);
        }
        for (Map.Entry<TopicPartition, Long> e : targets.entrySet()) {
            if (!t.drained(e.getKey()) || consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private void release(Collection<ActiveTask> tasks) {
        for (ActiveTask t : tasks) {
            if (held.contains(t.id())) {
                t.hold(false);
            }
        }
        held.clear();
    }

    /** The task's logged stores as of now (the cut), and its committed offsets. */
    private static SavepointWriter.TaskCopy copyOf(ActiveTask t) {
        List<SavepointWriter.StoreSource> stores = new ArrayList<>();
        for (TaskStore s : t.stores().all()) {
            if (!s.spec().logged()) {
                continue; // no changelog to restore it into; an unlogged store starts empty anyway
            }
            // RocksDB iterators read a snapshot of the moment they are opened; an in-memory store's
            // iterator sees later writes, so it is copied now.
            KeyValueIterator<byte[], byte[]> entries = s.committed().all(false);
            stores.add(new SavepointWriter.StoreSource(s.spec(), s.spec().persistent() ? entries : copied(entries)));
        }
        return new SavepointWriter.TaskCopy(t.id(), t.committedOffsets(), stores);
    }

    private static KeyValueIterator<byte[], byte[]> copied(KeyValueIterator<byte[], byte[]> entries) {
        List<KeyValue<byte[], byte[]>> list = new ArrayList<>();
        try (entries) {
            entries.forEachRemaining(list::add);
        }
        Iterator<KeyValue<byte[], byte[]>> it = list.iterator();
        return new KeyValueIterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public KeyValue<byte[], byte[]> next() {
                return it.next();
            }

            @Override
            public byte[] peekNextKey() {
                throw new UnsupportedOperationException("a savepoint copy is read in order only");
            }

            @Override
            public void close() {}
        };
    }
}
