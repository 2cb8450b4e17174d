package io.weir.dsl;

import java.time.Duration;
import java.util.Objects;

/**
 * Options of a stream-table join: a <em>grace period</em> on the stream side. Each stream record
 * waits in a buffer (the window store {@code <name>-buffer}, with a changelog, exactly-once) until
 * the task's watermark reaches its time plus the grace, and is then joined with the table's value
 * valid at its time; so a table update with an earlier timestamp that arrives up to the grace later
 * is still seen. Results come in timestamp order. As Kafka Streams' {@code Joined.withGracePeriod}
 * (KIP-923), which waits for the stream side's own stream time instead of the watermark.
 *
 * <p>The table must be versioned ({@link Versioned}) with a history retention of at least the
 * grace: checked when the topology is built.
 *
 * @param grace how long past a record's time (in event time) it waits; not negative
 * @param name  names the buffer store and its changelog; keep it stable across versions
 */
public record Joined(Duration grace, String name) {

    public Joined {
        Objects.requireNonNull(grace, "grace");
        Objects.requireNonNull(name, "name");
        if (grace.isNegative()) {
            throw new IllegalArgumentException("a stream-table join's grace period cannot be negative, was " + grace);
        }
    }

    /** A join whose stream records wait {@code grace} of event time, buffered in {@code <name>-buffer}. */
    public static Joined grace(Duration grace, String name) {
        return new Joined(grace, name);
    }
}
