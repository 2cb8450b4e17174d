package io.weir.dsl;

import java.time.Duration;
import java.util.Objects;

/**
 * Keeps a table's history: per key, every value with the time it became valid (its record's
 * timestamp), for at least {@code historyRetention} behind the newest timestamp the table has seen,
 * so that a stream-table join reads the value valid <em>at the stream record's time</em> rather
 * than the current one. As Kafka Streams' versioned stores ({@code Stores.persistentVersionedKeyValueStore},
 * KIP-889/914) and Flink's event-time temporal joins.
 *
 * <pre>{@code
 * RecordTable<String, Price> prices = b.table(Serdes.strings(), Serdes.json(Price.class), "prices", "prices",
 *         Versioned.history(Duration.ofHours(1)));
 * orders.join(prices, (o, p) -> o.amount() * p.value());   // the price valid when the order was placed
 * }</pre>
 *
 * <p>An update older than the table's newest for its key lands in the history at its place and
 * does not change the current value; an update older than the retention behind the newest
 * timestamp the table has seen is dropped. A tombstone ends a value's validity.
 *
 * @param historyRetention how far behind the newest timestamp seen the history answers exactly;
 *                         positive
 */
public record Versioned(Duration historyRetention) {

    public Versioned {
        Objects.requireNonNull(historyRetention, "historyRetention");
        if (historyRetention.isNegative() || historyRetention.isZero()) {
            throw new IllegalArgumentException(
                    "a versioned table's history retention must be positive, was " + historyRetention);
        }
    }

    /** A table keeping {@code historyRetention} of history. */
    public static Versioned history(Duration historyRetention) {
        return new Versioned(historyRetention);
    }
}
