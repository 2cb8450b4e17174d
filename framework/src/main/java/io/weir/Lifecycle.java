package io.weir;

import io.weir.internal.supervision.InstanceMonitor;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An instance's {@link WeirApp.State}, the listeners that hear it change, its fatal error and its
 * end. A change happens only from the state the caller saw ({@link #transition}), so two threads
 * never both make the same move; listeners hear each change once, on the thread that made it. The
 * first fatal error recorded is the instance's failure; later ones are ignored.
 *
 * <p>Threading: thread-safe.
 */
final class Lifecycle {

    private static final Logger log = LoggerFactory.getLogger(WeirApp.class);

    private final String applicationId;
    private final AtomicReference<WeirApp.State> state = new AtomicReference<>(WeirApp.State.CREATED);
    private final List<WeirApp.StateListener> listeners = new CopyOnWriteArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final CountDownLatch stopped = new CountDownLatch(1);

    Lifecycle(String applicationId) {
        this.applicationId = applicationId;
    }

    WeirApp.State get() {
        return state.get();
    }

    void addListener(WeirApp.StateListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Moves from {@code from} to {@code to} if the state is still {@code from}; tells the listeners. */
    boolean transition(WeirApp.State from, WeirApp.State to) {
        if (from == to || !state.compareAndSet(from, to)) {
            return false;
        }
        for (WeirApp.StateListener l : listeners) {
            try {
                l.onChange(from, to);
            } catch (RuntimeException e) {
                log.warn("{}: a state listener failed", applicationId, e);
            }
        }
        return true;
    }

    /**
     * Records {@code error} as the instance's failure and moves to {@link WeirApp.State#FAILED} from
     * whatever state it is in; false, and nothing changes, if a failure was recorded before.
     */
    boolean fail(Throwable error) {
        if (!failure.compareAndSet(null, error)) {
            return false;
        }
        WeirApp.State s = state.get();
        while (s != WeirApp.State.FAILED && !transition(s, WeirApp.State.FAILED)) {
            s = state.get();
        }
        return true;
    }

    Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    /** The instance has stopped, normally or by failure: whoever waits for it goes on. */
    void stopped() {
        stopped.countDown();
    }

    boolean isStopped() {
        return stopped.getCount() == 0;
    }

    boolean awaitStopped(Duration timeout) throws InterruptedException {
        return stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    void awaitStopped() throws InterruptedException {
        stopped.await();
    }

    /** As {@link #awaitStopped(Duration)}; an interrupt ends the wait and stays set. */
    void awaitStoppedQuietly(Duration timeout) {
        try {
            awaitStopped(timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The monitor's tick: while the instance runs, its state is as far as its least advanced
     * stream thread (a stopped thread counts as running).
     */
    void follow(InstanceMonitor monitor) {
        WeirApp.State current = state.get();
        if (!current.isActive()) {
            return;
        }
        WeirApp.State next = switch (monitor.leastAdvancedPhase()) {
            case STARTING -> WeirApp.State.STARTING;
            case REBALANCING -> WeirApp.State.REBALANCING;
            case RESTORING -> WeirApp.State.RESTORING;
            case RUNNING, STOPPED -> WeirApp.State.RUNNING;
        };
        if (transition(current, next) && next == WeirApp.State.RUNNING) {
            log.info("{} is running: {}", applicationId, monitor.tasksByThread());
        }
    }
}
