package io.weir.internal.state.restore;

import io.weir.state.changelog.RestoreListener;
import io.weir.state.changelog.RestoreSession;
import io.weir.state.changelog.SourceRecords;
import io.weir.state.internal.BytesStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;

/**
 * The restores of new active tasks' stores that stream threads handed over: one restore session
 * for all of them, and a {@link RestoreTicket} per task that tells its stream thread when every
 * store is restored, or what failed the restore.
 *
 * <p>Threads: the state thread only; the tickets carry the outcome to the stream threads.
 */
public final class ActiveRestores {

    private final Supplier<RestoreSession> newSession;
    /** Where the group's tasks start processing each partition: {@link StateConsumers#startOffsets}. */
    private final Function<java.util.Set<TopicPartition>, Map<TopicPartition, Long>> startOffsets;

    private final List<RestoreTicket> restoring = new ArrayList<>();
    /** Created with the first restore, and again after a failure closed it. */
    private RestoreSession session;

    /**
     * @param newSession   a new session over a new restore consumer ({@link StateConsumers#restoreSession})
     * @param startOffsets the offsets the group's tasks start processing the given partitions at
     */
    public ActiveRestores(
            Supplier<RestoreSession> newSession,
            Function<java.util.Set<TopicPartition>, Map<TopicPartition, Long>> startOffsets) {
        this.newSession = newSession;
        this.startOffsets = startOffsets;
    }

    /** Creates the session ahead of the first restore (its consumer is created with it). */
    public void prepare() {
        if (session == null) {
            session = newSession.get();
        }
    }

    /** Starts restoring {@code stores} (changelog to store) of the task of {@code ticket}. */
    public void add(
            RestoreTicket ticket,
            Map<TopicPartition, BytesStore> stores,
            Function<TopicPartition, RestoreListener> listeners) {
        add(ticket, stores, listeners, Map.of());
    }

    /**
     * As {@link #add(RestoreTicket, Map, Function)}; the partitions of {@code sources} are source
     * topics serving as the stores' changelogs, restored only up to the offset the task starts
     * processing them at (the committed offset): the task reprocesses from there, and its table
     * forwards each change with the old value the store holds, which must be the value as of that
     * offset, not a later one.
     */
    public void add(
            RestoreTicket ticket,
            Map<TopicPartition, BytesStore> stores,
            Function<TopicPartition, RestoreListener> listeners,
            Map<TopicPartition, SourceRecords> sources) {
        prepare();
        Map<TopicPartition, SourceRecords.Bound> bounds = new java.util.HashMap<>();
        if (!sources.isEmpty()) {
            startOffsets
                    .apply(sources.keySet())
                    .forEach((tp, offset) -> bounds.put(tp, new SourceRecords.Bound(offset, sources.get(tp))));
        }
        session.add(stores, listeners, bounds);
        restoring.add(ticket);
        settle();
    }

    /** Stops the restore of {@code ticket}'s task; its stores are not written once this returns. */
    public void cancel(RestoreTicket ticket) {
        if (restoring.remove(ticket) && session != null) {
            session.remove(ticket.changelogs);
        }
    }

    /** True while some store is being restored. */
    public boolean underWay() {
        return session != null && !session.isEmpty();
    }

    /**
     * Restores for one slice of the state thread's time, or less once {@code yield} says so (after
     * a poll), then settles what finished.
     */
    public void step(BooleanSupplier yield) {
        session.step(StateConsumers.STEP, yield);
        settle();
    }

    /** Marks the restores whose stores are all caught up. */
    private void settle() {
        for (RestoreTicket t : List.copyOf(restoring)) {
            if (t.changelogs.stream().noneMatch(session::isRestoring)) {
                restoring.remove(t);
                t.restored();
            }
        }
    }

    /**
     * Fails every restore under way with {@code e} (and with them their tasks, and the instance,
     * as a restore on a stream thread would) and drops the session; returns false if there was
     * none, so {@code e} came from elsewhere.
     */
    public boolean fail(RuntimeException e) {
        if (restoring.isEmpty()) {
            return false;
        }
        for (RestoreTicket t : restoring) {
            t.failed(e);
        }
        restoring.clear();
        StateConsumers.closeQuietly(session);
        session = null;
        return true;
    }

    /** The instance is shutting down: the restores under way fail, and the session is closed. */
    public void close() {
        for (RestoreTicket t : restoring) {
            t.failed(new IllegalStateException("the instance is shutting down"));
        }
        restoring.clear();
        StateConsumers.closeQuietly(session);
        session = null;
    }
}
