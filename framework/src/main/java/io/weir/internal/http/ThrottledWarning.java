package io.weir.internal.http;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Logs a repeated failure at WARN at most once per interval and key, and says how many were left
 * out: a view that keeps failing while Prometheus scrapes every few seconds must not flood the
 * log. Thread-safe.
 */
final class ThrottledWarning {

    private final Logger log;
    private final long intervalNanos;
    private final LongSupplier nanoTime;
    private final Map<String, Window> windows = new HashMap<>();

    private static final class Window {
        long loggedAt;
        long suppressed;
    }

    ThrottledWarning(Logger log, long intervalNanos, LongSupplier nanoTime) {
        this.log = log;
        this.intervalNanos = intervalNanos;
        this.nanoTime = nanoTime;
    }

    /** Logs {@code message} with {@code cause}, unless {@code key} was logged within the interval. */
    void warn(String key, String message, Throwable cause) {
        long suppressed;
        synchronized (this) {
            long now = nanoTime.getAsLong();
            Window w = windows.get(key);
            if (w != null && now - w.loggedAt < intervalNanos) {
                w.suppressed++;
                return;
            }
            if (w == null) {
                w = new Window();
                windows.put(key, w);
            }
            suppressed = w.suppressed;
            w.loggedAt = now;
            w.suppressed = 0;
        }
        log.warn(
                suppressed == 0 ? message : message + " (" + suppressed + " more like it since the last warning)",
                cause);
    }
}
