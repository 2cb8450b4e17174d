package io.weir.internal.task;

import io.weir.common.internal.Deadline;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * How asynchronous steps wake their stream thread: a call that finishes on another thread raises
 * the signal; the thread, before it polls, asks whether to wait at all ({@link #pollWaitMs}).
 * Without it a finished call would wait for the next poll to time out ({@code poll.ms}).
 *
 * <p>Threading: {@link #raise()} from any thread; the rest from the owning stream thread.
 */
public final class AsyncSignal {

    /**
     * The longest poll while calls are in flight and none has finished: short enough that a
     * finished call waits about a millisecond, long enough that an idle wait costs little CPU.
     */
    static final long IN_FLIGHT_POLL_MS = 1;

    private final AtomicBoolean raised = new AtomicBoolean();
    private int inFlight;
    /** The thread parked in {@link #await}, if any. */
    private volatile Thread waiter;

    /** A call finished or a retry fell due (any thread). */
    public void raise() {
        raised.set(true);
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    /**
     * Waits (the test driver, which has no poll to wait in) until the signal is raised or {@code
     * timeoutMs} passed, and clears it.
     */
    public void await(long timeoutMs) {
        Deadline deadline = Deadline.after(java.time.Duration.ofMillis(timeoutMs));
        waiter = Thread.currentThread();
        try {
            while (!raised.getAndSet(false) && !deadline.expired()) {
                LockSupport.parkNanos(this, deadline.remaining().toNanos());
            }
        } finally {
            waiter = null;
        }
    }

    /** {@code delta} calls started (positive) or ended (negative) on this thread. */
    public void inFlight(int delta) {
        inFlight += delta;
    }

    /** Calls in flight on this thread. */
    public int inFlight() {
        return inFlight;
    }

    /**
     * How long the next poll may wait, at most {@code pollMs}: none if a call finished, about a
     * millisecond while calls are in flight. Clears the signal: the step after the poll applies
     * what finished.
     */
    public long pollWaitMs(long pollMs) {
        if (raised.getAndSet(false)) {
            return 0;
        }
        return inFlight > 0 ? Math.min(pollMs, IN_FLIGHT_POLL_MS) : pollMs;
    }
}
