package io.weir.internal.restore;

import io.weir.state.changelog.RestoreListener;
import io.weir.state.changelog.RestoreSession;
import io.weir.state.internal.BytesStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
final class ActiveRestores {

    private final Supplier<RestoreSession> newSession;
    private final List<RestoreTicket> restoring = new ArrayList<>();
    /** Created with the first restore, and again after a failure closed it. */
    private RestoreSession session;

    /** @param newSession a new session over a new restore consumer ({@link StateConsumers#restoreSession}) */
    ActiveRestores(Supplier<RestoreSession> newSession) {
        this.newSession = newSession;
    }

    /** Starts restoring {@code stores} (changelog to store) of the task of {@code ticket}. */
    void add(RestoreTicket ticket, Map<TopicPartition, BytesStore> stores,
             Function<TopicPartition, RestoreListener> listeners) {
        if (session == null) {
            session = newSession.get();
        }
        session.add(stores, listeners);
        restoring.add(ticket);
        settle();
    }

    /** Stops the restore of {@code ticket}'s task; its stores are not written once this returns. */
    void cancel(RestoreTicket ticket) {
        if (restoring.remove(ticket) && session != null) {
            session.remove(ticket.changelogs);
        }
    }

    /** True while some store is being restored. */
    boolean underWay() {
        return session != null && !session.isEmpty();
    }

    /** Restores for one slice of the state thread's time, then settles what finished. */
    void step() {
        session.step(StateThread.STEP);
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
    boolean fail(RuntimeException e) {
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
    void close() {
        for (RestoreTicket t : restoring) {
            t.failed(new IllegalStateException("the instance is shutting down"));
        }
        restoring.clear();
        StateConsumers.closeQuietly(session);
        session = null;
    }
}
