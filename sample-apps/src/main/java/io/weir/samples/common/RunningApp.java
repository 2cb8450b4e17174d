package io.weir.samples.common;

import io.weir.Topology;
import io.weir.WeirApp;
import io.weir.common.internal.Deadline;
import io.weir.config.WeirConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Weir application a sample runs in its own JVM, with its state directory: {@link #start}s it,
 * {@link #await}s the expected output while the caller polls its tails, {@link #stop}s it
 * gracefully, and on {@link #close()} stops it if that did not happen yet and deletes the state
 * directory when it was a temporary one.
 *
 * <p>Not thread-safe: the sample's main thread owns it.
 */
public final class RunningApp implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RunningApp.class);
    public static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

    /** Why {@link #await} returned. */
    public enum Wait {
        DONE,
        FAILED,
        TIMED_OUT,
        SIGNALLED
    }

    private final WeirApp app;
    private final Path stateDir;
    private final boolean temporary;
    private boolean stopped;

    private RunningApp(WeirApp app, Path stateDir, boolean temporary) {
        this.app = app;
        this.stateDir = stateDir;
        this.temporary = temporary;
    }

    /**
     * Starts {@code topology} with the configuration {@code config} gives for the state directory:
     * {@code keptStateDir}, or a new temporary one named {@code <tempPrefix>...} when it is null.
     *
     * @throws IllegalStateException if the cluster cannot be reached or a topic is missing
     */
    public static RunningApp start(
            Topology topology, Function<Path, WeirConfig> config, Path keptStateDir, String tempPrefix) {
        boolean temporary = keptStateDir == null;
        Path dir = temporary ? StateDirs.createTemp(tempPrefix) : keptStateDir;
        try {
            WeirApp app = WeirApp.create(topology, config.apply(dir)).start();
            app.httpPort()
                    .ifPresent(port -> log.info(
                            "Health, metrics and topology on http://localhost:{}"
                                    + " (/health/ready, /metrics, /topology, /info)",
                            port));
            return new RunningApp(app, dir, temporary);
        } catch (RuntimeException e) {
            if (temporary) {
                StateDirs.deleteRecursively(dir);
            }
            throw e;
        }
    }

    public WeirApp app() {
        return app;
    }

    /**
     * Calls {@code pollOnce} (which should block briefly, reading a tail) until {@code done} holds,
     * the application failed, {@code timeout} passed or a signal asked to stop; logs why it
     * returned unless it is {@link Wait#DONE}.
     *
     * @param missing what is still expected, for the log line of a time-out
     */
    public Wait await(
            BooleanSupplier done,
            Runnable pollOnce,
            Duration timeout,
            ShutdownSignal signal,
            Supplier<String> missing) {
        Deadline deadline = Deadline.after(timeout);
        while (!done.getAsBoolean()) {
            if (signal != null && signal.requested()) {
                log.info("Stopping on signal");
                return Wait.SIGNALLED;
            }
            if (app.state() == WeirApp.State.FAILED) {
                log.error("The application failed", app.failure().orElse(null));
                return Wait.FAILED;
            }
            if (deadline.expired()) {
                log.warn("Not everything arrived within {} s: {}", timeout.toSeconds(), missing.get());
                return Wait.TIMED_OUT;
            }
            pollOnce.run();
        }
        return Wait.DONE;
    }

    /**
     * Closes the application gracefully (it commits what it has processed) and says why it failed,
     * if it did. Read the output to its end after this, so that nothing it committed is missed.
     */
    public Optional<Throwable> stop() {
        if (stopped) {
            return app.failure();
        }
        boolean failed = app.state() == WeirApp.State.FAILED;
        stopped = true;
        app.close(SHUTDOWN_TIMEOUT);
        return failed
                ? Optional.of(app.failure().orElseGet(() -> new IllegalStateException("unknown error")))
                : Optional.empty();
    }

    @Override
    public void close() {
        try {
            if (!stopped) {
                stopped = true;
                app.close(SHUTDOWN_TIMEOUT);
            }
        } finally {
            if (temporary) {
                StateDirs.deleteRecursively(stateDir);
            }
        }
    }
}
