package io.weir.state;

import java.util.Objects;

/**
 * A key with the time span it belongs to: the key type of {@link WindowStore} and
 * {@link SessionStore} entries, as Kafka Streams' class of the same name (with plain longs for the
 * bounds instead of a {@code Window} object).
 *
 * <p>What the bounds mean depends on the store:
 * <ul>
 *   <li>a <b>window</b> covers {@code [start, end)}: {@code start} inclusive, {@code end} exclusive,
 *       {@code end = start + windowSize};</li>
 *   <li>a <b>session</b> covers {@code [start, end]}: the timestamps of its first and last record,
 *       both inclusive (a session of one record has {@code start == end}), as in Kafka Streams.</li>
 * </ul>
 * Times are event-time epoch milliseconds and may be negative.
 *
 * @param key   the key; never null
 * @param start the first instant of the window or session, inclusive
 * @param end   the window's exclusive end, or the session's inclusive end; not before {@code start}
 */
public record Windowed<K>(K key, long start, long end) {

    public Windowed {
        Objects.requireNonNull(key, "key");
        if (end < start) {
            throw new IllegalArgumentException("a window cannot end (" + end + ") before it starts (" + start + ")");
        }
    }
}
