package io.weir.samples.common;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Turns SIGINT/SIGTERM into a flag the main thread polls, and holds the JVM's exit until the
 * main thread has stopped the application, printed its summary and removed its temporary files.
 *
 * <p>Contract: {@link #requested()} may be called from any thread; {@link #close()} must be
 * called by the main thread when it is done (in a {@code finally}), or the hook waits out its
 * grace period before the JVM exits.
 */
public final class ShutdownSignal implements AutoCloseable {

    private final CountDownLatch requested = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook;

    private ShutdownSignal(Duration grace) {
        this.hook = new Thread(
                () -> {
                    requested.countDown();
                    try {
                        finished.await(grace.toMillis(), TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "weir-sample-shutdown");
    }

    /** Installs the hook; the JVM exits at most {@code grace} after a signal. */
    public static ShutdownSignal install(Duration grace) {
        ShutdownSignal signal = new ShutdownSignal(grace);
        Runtime.getRuntime().addShutdownHook(signal.hook);
        return signal;
    }

    /** True once SIGINT/SIGTERM (or {@code System.exit}) started the JVM's shutdown. */
    public boolean requested() {
        return requested.getCount() == 0;
    }

    /** Releases a pending JVM exit, and removes the hook if the JVM is not shutting down. */
    @Override
    public void close() {
        finished.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running: it returns now that finished is counted down.
        }
    }
}
