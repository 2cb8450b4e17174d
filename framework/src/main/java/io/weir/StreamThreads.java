package io.weir;

import io.weir.common.internal.Deadline;
import io.weir.internal.thread.StreamThread;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stream threads of a running instance, each with the {@link Thread} that runs it: created
 * at start, started together, asked to stop together and joined within one deadline.
 *
 * <p>Threading: created and started on the thread starting the instance, stopped on the thread
 * closing it (never concurrently: {@link WeirApp} serialises them).
 */
final class StreamThreads {

    /** The instance's start and stop lines come from the application's logger, as operators filter them. */
    private static final Logger log = LoggerFactory.getLogger(WeirApp.class);

    private final List<StreamThread> streamThreads = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    /** Adds a stream thread; an uncaught failure of its thread goes to {@code failed}. */
    void add(StreamThread st, Consumer<Throwable> failed) {
        Thread t = new Thread(st, st.name());
        t.setUncaughtExceptionHandler((th, e) -> failed.accept(e));
        streamThreads.add(st);
        threads.add(t);
    }

    List<StreamThread> streamThreads() {
        return streamThreads;
    }

    List<Thread> threads() {
        return threads;
    }

    void start() {
        threads.forEach(Thread::start);
    }

    /** Asks every stream thread to stop ({@code leaveGroup}: leaving the consumer group) and waits until {@code deadline}. */
    void stop(boolean leaveGroup, Deadline deadline) {
        streamThreads.forEach(t -> t.shutdown(leaveGroup));
        for (Thread t : threads) {
            if (t == Thread.currentThread()) {
                continue;
            }
            try {
                t.join(Math.max(1, deadline.remaining().toMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            if (t.isAlive()) {
                log.warn("{} did not stop within {}", t.getName(), deadline.timeout());
            }
        }
    }

    /** After a thread failed: stops the others without leaving the group, waiting up to {@code timeout} for each. */
    void stopAfterFailure(Duration timeout) {
        streamThreads.forEach(t -> t.shutdown(false));
        for (Thread t : threads) {
            try {
                t.join(timeout.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** True if a thread other than the caller did not stop (it may still write its stores). */
    boolean anyStillRunning() {
        return threads.stream().anyMatch(t -> t != Thread.currentThread() && t.isAlive());
    }
}
