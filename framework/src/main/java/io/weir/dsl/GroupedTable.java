package io.weir.dsl;

import io.weir.serde.Serde;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * A table re-keyed by {@link RecordTable#groupBy}, ready to aggregate. Unlike a grouped stream,
 * a table's rows change: when a row's value changes (or the row is deleted), its old value is
 * <em>subtracted</em> from the aggregate of the key it grouped to, and the new value is added to
 * the aggregate of its (possibly different) new key. So the aggregate of a key is always the
 * aggregate of the rows that currently group to it, as a {@code GROUP BY} over the table would
 * give.
 *
 * <p>The re-keyed changes travel through the internal topic
 * {@code <application.id>-<store name>-repartition}; a change whose old and new values group to
 * the same key travels as one record, so its subtraction and addition are applied together.
 * The aggregate is kept in the store named {@code storeName} (changelog
 * {@code <application.id>-<store name>-changelog}). A row whose new key is {@code null} goes to
 * the dead-letter topic.
 */
public interface GroupedTable<K, V> {

    /** Counts the rows per key. */
    RecordTable<K, Long> count(String storeName);

    /**
     * Combines the values of the rows of a key with {@code adder}; {@code subtractor} takes a
     * row's old value out of the aggregate. The first row of a key is its initial aggregate.
     */
    RecordTable<K, V> reduce(BinaryOperator<V> adder, BinaryOperator<V> subtractor, String storeName);

    /**
     * Folds the rows of a key into an aggregate that starts from {@code initializer}:
     * {@code adder} adds a row's value, {@code subtractor} takes a row's old value out.
     */
    <VA> RecordTable<K, VA> aggregate(
            Supplier<VA> initializer,
            Aggregator<? super K, ? super V, VA> adder,
            Aggregator<? super K, ? super V, VA> subtractor,
            Serde<VA> aggregateSerde,
            String storeName);
}
