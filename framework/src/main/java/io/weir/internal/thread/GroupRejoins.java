package io.weir.internal.thread;

import java.util.function.Consumer;

/**
 * Rebalances that another instance of the group has just started, so that this instance's stream
 * threads join them at once. A member learns of a rebalance it did not start from its next
 * consumer heartbeat, up to {@code heartbeat.interval.ms} later, and the rebalance waits for the
 * last member to join: each rebalance holds every task of the group for that long. Weir's
 * instances already talk through the liveness topic (failure detection), so the instance that
 * starts a rebalance (warm-ups caught up, a silent instance removed) says so there
 * ({@link #announce}) and the others' threads join within a fetch rather than a heartbeat.
 *
 * <p>Joining a rebalance that is under way is harmless; joining after one ended would start
 * another, so a thread ignores a request older than its own last join ({@link #pending}).
 *
 * <p>Threads: any thread requests and announces; each stream thread asks for its own.
 */
public final class GroupRejoins {

    /** One request: its sequence number and why. */
    record Request(long seq, String reason) {}

    /** A stream thread's view: the last request it acted on, and the latest one when its last join started. */
    final class Seen {
        private long acted;
        private long joinedAfter = -1;

        /** The thread's consumer starts a join: it takes part in any rebalance requested so far. */
        void joining() {
            joinedAfter = latest.seq();
        }
    }

    /** Requests nobody makes: the test driver's. */
    public static GroupRejoins none() {
        return new GroupRejoins();
    }

    private volatile Request latest = new Request(0, "");
    private volatile Consumer<String> announcer = reason -> {};

    /** Where {@link #announce} tells the other instances (the liveness topic); set once it exists. */
    public void announceThrough(Consumer<String> announcer) {
        this.announcer = announcer;
    }

    /** Another instance started a rebalance: every stream thread here joins it now. */
    public synchronized void requested(String reason) {
        latest = new Request(latest.seq() + 1, reason);
    }

    /** A thread of this instance starts a rebalance: the other instances' threads join it at once. */
    public void announce(String reason) {
        announcer.accept(reason);
    }

    /** What one stream thread has seen of the requests. */
    Seen newThread() {
        return new Seen();
    }

    /** Why the thread that has {@code seen} should join a rebalance now, or null. */
    String pending(Seen seen) {
        Request r = latest;
        if (r.seq() <= seen.acted) {
            return null;
        }
        seen.acted = r.seq();
        // A join that started after the request was heard took part in that rebalance already; a
        // thread that never joined is joining anyway.
        return seen.joinedAfter < 0 || seen.joinedAfter >= r.seq() ? null : r.reason();
    }
}
