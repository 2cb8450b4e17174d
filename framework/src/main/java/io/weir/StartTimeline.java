package io.weir;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where an instance's start goes: each step's milliseconds at DEBUG (logger
 * {@code io.weir.StartTimeline}), for an operator asking why a restart takes seconds. Costs a
 * clock read per step when DEBUG is off. Not thread-safe: the starting thread's.
 */
final class StartTimeline {

    private static final Logger log = LoggerFactory.getLogger(StartTimeline.class);
    private final String application;
    private final long started = System.nanoTime();
    private long last = started;

    StartTimeline(String application) {
        this.application = application;
    }

    void mark(String step) {
        long now = System.nanoTime();
        if (log.isDebugEnabled()) {
            log.debug(
                    "{} start: {} in {} ms ({} ms since the start began)",
                    application,
                    step,
                    (now - last) / 1_000_000,
                    (now - started) / 1_000_000);
        }
        last = now;
    }
}
