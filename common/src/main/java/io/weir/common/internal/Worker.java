package io.weir.common.internal;

import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A background thread that runs one step again and again until it is stopped: the one way Weir's
 * modules write a loop with a stop and a join (a consumer's poll loop, a ticker), instead of a
 * {@code Thread}, a {@code volatile boolean running} and a {@code join} written again in each.
 *
 * <p>What it guarantees:
 * <ul>
 *   <li>The thread starts when the worker is built and runs the step until {@link #stop()} is
 *       requested; a step sees the request through {@link #stopping()} and {@link #pause}.</li>
 *   <li>{@link #stop()} sets the request, runs the worker's wake-up action (a consumer's
 *       {@code wakeup()}, a no-op command on a queue) and interrupts the thread, unless it was
 *       built with {@link Builder#interruptOnStop interruptOnStop(false)} (a thread whose store or
 *       client must not see an interrupt mid-write).</li>
 *   <li>A step that throws before the stop ends the worker: the failure is logged once at ERROR
 *       with the thread's name and given to the {@link Builder#onFailure failure handler}, if any.
 *       What a step throws once the stop was requested (the wake-up's {@code WakeupException}, an
 *       interrupt) is the stop taking effect, not a failure.</li>
 *   <li>The {@link Builder#onExit exit action} runs on the thread as its last act, however it
 *       ended.</li>
 *   <li>{@link #stopAndJoin} waits a bounded time; a thread still running then is named in one
 *       WARN with what it was doing (its stack), and the caller goes on.</li>
 * </ul>
 *
 * <p>Threads: {@link #stop()}, {@link #stopAndJoin}, {@link #close()} and the queries may be called
 * from any thread; {@link #pause} only by the worker's own step.
 */
public final class Worker implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Worker.class);
    /** The join time-out of {@link #close()} unless the builder sets another. */
    public static final Duration DEFAULT_JOIN_TIMEOUT = Duration.ofSeconds(5);
    /** How many frames of a thread that did not stop the WARN shows. */
    private static final int FRAMES_SHOWN = 8;

    /** One pass of the loop. */
    public interface Step {
        void run(Worker self) throws Exception;
    }

    private final String name;
    private final Builder options;
    private final Step step;
    private final Duration period;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final Thread thread;

    private Worker(Builder options, Duration period, Step step) {
        this.name = options.name;
        this.options = options;
        this.step = Objects.requireNonNull(step, "step");
        this.period = period;
        this.thread = new Thread(this::run, name);
        thread.setDaemon(options.daemon);
        thread.start();
    }

    /**
     * Starts a thread named {@code name} that runs {@code step} again and again until {@link #stop()}
     * is requested (a step that blocks on its own, e.g. a consumer poll).
     */
    public static Worker loop(String name, Step step) {
        return named(name).loop(step);
    }

    /** Same, with a pause of {@code period} between passes, cut short by {@link #stop()}. */
    public static Worker every(String name, Duration period, Step step) {
        return named(name).every(period, step);
    }

    /** Options for a worker named {@code name}: see {@link Builder}. */
    public static Builder named(String name) {
        return new Builder(name);
    }

    /** The thread's name. */
    public String name() {
        return name;
    }

    /** Whether {@link #stop()} was requested. */
    public boolean stopping() {
        return stopRequested.getCount() == 0;
    }

    /** Whether the thread still runs. */
    public boolean alive() {
        return thread.isAlive();
    }

    /** Whether the caller is this worker's thread. */
    public boolean isCurrentThread() {
        return Thread.currentThread() == thread;
    }

    /**
     * Pauses the calling worker thread for up to {@code d}; returns {@code false} at once when
     * {@link #stop()} is requested (the only sanctioned sleep in main code besides {@link Poll}).
     *
     * @return {@code true} if the whole pause passed without a stop
     * @throws InterruptedException if the thread is interrupted while no stop was requested
     */
    public boolean pause(Duration d) throws InterruptedException {
        try {
            return !stopRequested.await(d.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            if (stopping()) {
                Thread.currentThread().interrupt(); // the stop's interrupt: leave it for what comes next
                return false;
            }
            throw e;
        }
    }

    /** Requests the stop (and interrupts the thread unless the worker was built not to be interrupted). */
    public void stop() {
        if (stopping()) {
            return;
        }
        stopRequested.countDown();
        try {
            options.wakeUp.run();
        } catch (RuntimeException e) {
            log.debug("waking up worker thread {} failed", name, e);
        }
        if (options.interruptOnStop && !isCurrentThread()) {
            thread.interrupt();
        }
    }

    /**
     * {@link #stop()}, then waits up to {@code timeout} for the thread; {@code false} (and one WARN
     * naming the thread and what it was doing) if it did not end. Called on the worker's own thread
     * (its failure handler closing its owner), it only requests the stop: the thread ends once the
     * step returns.
     */
    public boolean stopAndJoin(Duration timeout) throws InterruptedException {
        stop();
        if (isCurrentThread()) {
            return true;
        }
        thread.join(Math.max(1, timeout.toMillis()));
        if (!thread.isAlive()) {
            return true;
        }
        log.warn(
                "worker thread {} did not stop within {}; it goes on in the background, at {}",
                name,
                Deadline.format(timeout),
                where(thread));
        return false;
    }

    /** {@link #stopAndJoin} with the worker's default join time-out; keeps the caller's interrupt. */
    @Override
    public void close() {
        try {
            stopAndJoin(options.joinTimeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        try {
            while (!stopping()) {
                step.run(this);
                if (period != null && !stopping()) {
                    pause(period);
                }
            }
        } catch (Throwable e) {
            ended(e);
        } finally {
            try {
                options.onExit.run();
            } catch (RuntimeException e) {
                log.warn("worker thread {}: its exit action failed", name, e);
            }
        }
    }

    private void ended(Throwable e) {
        if (stopping()) {
            log.debug("worker thread {} ended by its stop: {}", name, e.toString());
            return;
        }
        log.error("worker thread {} failed and stopped", name, e);
        try {
            options.onFailure.accept(e);
        } catch (RuntimeException handlerFailure) {
            log.warn("worker thread {}: its failure handler failed", name, handlerFailure);
        }
    }

    private static String where(Thread t) {
        StackTraceElement[] frames = t.getStackTrace();
        if (frames.length == 0) {
            return "(no stack)";
        }
        return Arrays.stream(frames)
                .limit(FRAMES_SHOWN)
                .map(StackTraceElement::toString)
                .collect(Collectors.joining(" <- "));
    }

    @Override
    public String toString() {
        return "Worker[" + name + (stopping() ? ", stopping" : "") + (alive() ? "" : ", ended") + "]";
    }

    /**
     * The options of a worker: set what differs from the defaults (a daemon thread, interrupted on
     * stop, nothing to wake, no failure handler, no exit action, a join time-out of
     * {@link #DEFAULT_JOIN_TIMEOUT}), then {@link #loop} or {@link #every} starts it.
     */
    public static final class Builder {
        private final String name;
        private boolean daemon = true;
        private boolean interruptOnStop = true;
        private Runnable wakeUp = () -> {};
        private Consumer<Throwable> onFailure = e -> {};
        private Runnable onExit = () -> {};
        private Duration joinTimeout = DEFAULT_JOIN_TIMEOUT;

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        /** Whether the thread is a daemon (it is by default: a worker never holds the JVM up). */
        public Builder daemon(boolean daemon) {
            this.daemon = daemon;
            return this;
        }

        /** Whether {@link Worker#stop()} interrupts the thread (it does by default). */
        public Builder interruptOnStop(boolean interrupt) {
            this.interruptOnStop = interrupt;
            return this;
        }

        /** What {@link Worker#stop()} runs, on the stopping thread, to end a blocking step (e.g. {@code consumer::wakeup}). */
        public Builder wakeUp(Runnable wakeUp) {
            this.wakeUp = Objects.requireNonNull(wakeUp, "wakeUp");
            return this;
        }

        /** Who hears of a step that failed (after it was logged), on the worker's thread. */
        public Builder onFailure(Consumer<Throwable> onFailure) {
            this.onFailure = Objects.requireNonNull(onFailure, "onFailure");
            return this;
        }

        /** What the thread runs last, however it ended (closing what only it may touch). */
        public Builder onExit(Runnable onExit) {
            this.onExit = Objects.requireNonNull(onExit, "onExit");
            return this;
        }

        /** How long {@link Worker#close()} waits for the thread. */
        public Builder joinTimeout(Duration timeout) {
            this.joinTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** Starts the worker: {@code step} again and again until the stop. */
        public Worker loop(Step step) {
            return new Worker(this, null, step);
        }

        /** Starts the worker: {@code step}, then a pause of {@code period} cut short by the stop, and again. */
        public Worker every(Duration period, Step step) {
            if (period.isNegative() || period.isZero()) {
                throw new IllegalArgumentException("a worker's period must be positive: " + period);
            }
            return new Worker(this, period, step);
        }
    }
}
