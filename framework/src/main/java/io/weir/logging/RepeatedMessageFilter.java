package io.weir.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Marker;

/**
 * A logback turbo filter that stops one repeated message from flooding a log: per logger and
 * message shape, the first occurrence is written, then at most one per interval. The shape is the
 * message format (the pattern with its {@code {}} placeholders) with each run of digits taken as
 * one: Kafka's clients format their messages before logback sees them, and a correlation id, a
 * retry count or a partition number must not make every line a new message. The occurrence that is written after others were dropped is
 * preceded by a line on the same logger and level, such as
 * {@code Suppressed 1234 repeats of the next message in the last 30 s (...)}.
 *
 * <p>Weir's default logging installs it; in your own {@code logback.xml}, add it with
 * <pre>{@code
 * <turboFilter class="io.weir.logging.RepeatedMessageFilter">
 *   <loggers>org.apache.kafka,kafka</loggers>  <!-- prefixes; "*" for every logger -->
 *   <level>WARN</level>                        <!-- this level and above are limited -->
 *   <interval>30 seconds</interval>            <!-- logback duration: ms, seconds, minutes -->
 *   <maxKeys>1000</maxKeys>                    <!-- distinct messages remembered -->
 * </turboFilter>
 * }</pre>
 * The values shown are the defaults. Unlike logback's {@code DuplicateMessageFilter}, which drops
 * every repeat after a fixed count for as long as the message stays in its cache, a message that
 * keeps happening here keeps appearing once per interval, with the count of what was dropped.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>Messages below the level, from other loggers, or that their logger would not write anyway
 *       are never touched, and {@code isWarnEnabled()}-style checks always see the logger's level.</li>
 *   <li>A limited message is written at least once per interval while it repeats; the count of
 *       dropped repeats is reported with the next one written (there is no background thread, so
 *       the count of a burst that stops is not reported on its own).</li>
 *   <li>Memory is bounded: at most {@code maxKeys} messages are remembered, least recently seen
 *       forgotten first (a forgotten message counts as new).</li>
 *   <li>Cheap on the hot path: a call below the level costs one comparison; a limited call takes
 *       a short lock. Thread-safe; configure it before {@link #start()}.</li>
 * </ul>
 */
public final class RepeatedMessageFilter extends TurboFilter {

    /** The format of the line that reports dropped repeats; compared by identity to let it pass. */
    private static final String SUPPRESSED = "Suppressed {} repeats of the next message in the last {} s"
            + " (RepeatedMessageFilter lets one through every {} s)";

    private static final String FQCN = RepeatedMessageFilter.class.getName();
    /** Longer messages are told apart by their beginning, so that a key's size is bounded. */
    static final int SHAPE_LENGTH = 200;

    private final LongSupplier nanoClock;
    private List<String> prefixes = List.of("org.apache.kafka", "kafka");
    private Level level = Level.WARN;
    private long intervalNanos = TimeUnit.SECONDS.toNanos(30);
    private int maxKeys = 1000;
    private volatile int minLevel = Integer.MAX_VALUE; // nothing is limited until start()
    private Map<Key, Window> windows;

    /** A filter with the defaults described above, on the JVM's monotonic clock. */
    public RepeatedMessageFilter() {
        this(System::nanoTime);
    }

    /** For tests: a filter that reads time from {@code nanoClock} (monotonic nanoseconds). */
    RepeatedMessageFilter(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /**
     * Comma-separated logger name prefixes whose messages are limited; a prefix matches the logger
     * of that name and its descendants ({@code kafka} matches {@code kafka.server.ReplicaManager}
     * but not {@code kafkaesque}); {@code *} matches every logger.
     */
    public void setLoggers(String loggers) {
        List<String> parsed = new ArrayList<>();
        for (String p : loggers.split(",")) {
            if (!p.isBlank()) {
                parsed.add(p.strip());
            }
        }
        prefixes = List.copyOf(parsed);
    }

    /** The lowest level that is limited, e.g. {@code WARN} (default) or {@code INFO}. */
    public void setLevel(String level) {
        this.level = Level.toLevel(level, null);
        if (this.level == null) {
            addError("RepeatedMessageFilter: level '" + level + "' is not one of TRACE, DEBUG, INFO, WARN, ERROR");
        }
    }

    /** How often a repeating message is let through, as a logback duration ("30 seconds", "2 minutes", "500"=ms). */
    public void setInterval(String interval) {
        intervalNanos = TimeUnit.MILLISECONDS.toNanos(
                ch.qos.logback.core.util.Duration.valueOf(interval).getMilliseconds());
    }

    /** How many distinct messages are remembered (default 1000). */
    public void setMaxKeys(int maxKeys) {
        this.maxKeys = maxKeys;
    }

    @Override
    public void start() {
        if (level == null || intervalNanos <= 0 || maxKeys < 1 || prefixes.isEmpty()) {
            addError("RepeatedMessageFilter not started: it needs a level, a positive interval, maxKeys >= 1"
                    + " and at least one logger prefix");
            return;
        }
        windows = new LruMap<>(maxKeys);
        minLevel = level.levelInt;
        super.start();
    }

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
        // In this order so that the common case (a level below the limit, or an isXxxEnabled()
        // check, which has no format) returns after one comparison.
        if (level == null
                || level.levelInt < minLevel
                || format == null
                || format == SUPPRESSED
                || !level.isGreaterOrEqual(logger.getEffectiveLevel())
                || !limits(logger.getName())) {
            return FilterReply.NEUTRAL;
        }
        long now = nanoClock.getAsLong();
        long dropped;
        long elapsed;
        synchronized (windows) {
            Key key = new Key(logger.getName(), shape(format));
            Window window = windows.get(key);
            if (window == null) {
                windows.put(key, new Window(now));
                return FilterReply.NEUTRAL;
            }
            elapsed = now - window.lastWritten;
            if (elapsed < intervalNanos) {
                window.dropped++;
                return FilterReply.DENY;
            }
            dropped = window.dropped;
            window.lastWritten = now;
            window.dropped = 0;
        }
        if (dropped > 0) {
            // Logged outside the lock: the appender may block, and this call comes back through
            // decide(), which lets the SUPPRESSED format pass.
            logger.log(
                    marker,
                    FQCN,
                    Level.toLocationAwareLoggerInteger(level),
                    SUPPRESSED,
                    new Object[] {
                        dropped, TimeUnit.NANOSECONDS.toSeconds(elapsed), TimeUnit.NANOSECONDS.toSeconds(intervalNanos)
                    },
                    null);
        }
        return FilterReply.NEUTRAL;
    }

    /** How many distinct messages are remembered now; for tests. */
    int rememberedMessages() {
        synchronized (windows) {
            return windows.size();
        }
    }

    /** {@code message} with every run of digits replaced by one {@code #}, cut to {@link #SHAPE_LENGTH}. */
    static String shape(String message) {
        int length = Math.min(message.length(), SHAPE_LENGTH);
        StringBuilder shape = null;
        for (int i = 0; i < length; i++) {
            char c = message.charAt(i);
            boolean digit = isDigit(c);
            if (digit && shape == null) {
                shape = new StringBuilder(length).append(message, 0, i);
            }
            if (shape != null && !(digit && i > 0 && isDigit(message.charAt(i - 1)))) {
                shape.append(digit ? '#' : c);
            }
        }
        return shape != null ? shape.toString() : message.length() > length ? message.substring(0, length) : message;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private boolean limits(String loggerName) {
        for (String prefix : prefixes) {
            if (prefix.equals("*")
                    || loggerName.startsWith(prefix)
                            && (loggerName.length() == prefix.length() || loggerName.charAt(prefix.length()) == '.')) {
                return true;
            }
        }
        return false;
    }

    private record Key(String logger, String format) {}

    /** When a message was last written and how many repeats were dropped since; guarded by the map. */
    private static final class Window {
        long lastWritten;
        long dropped;

        Window(long lastWritten) {
            this.lastWritten = lastWritten;
        }
    }

    /** Least recently used entries go first once {@code capacity} is exceeded. */
    private static final class LruMap<K, V> extends LinkedHashMap<K, V> {
        private final int capacity;

        LruMap(int capacity) {
            super(16, 0.75f, true);
            this.capacity = capacity;
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
            return size() > capacity;
        }
    }
}
