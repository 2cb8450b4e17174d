package io.weir.dsl;

import io.weir.serde.Serde;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * A stream grouped by key, ready to aggregate. Each aggregation keeps its result per key in a
 * state store with the name you give; the name also names the store's changelog topic
 * ({@code <application.id>-<name>-changelog}) and, after {@link RecordStream#groupBy}, the
 * repartition topic ({@code <application.id>-<name>-repartition}), so state survives code
 * changes as long as the name stays.
 *
 * <p>A record with a {@code null} key cannot be grouped: it goes to the dead-letter topic.
 */
public interface GroupedStream<K, V> {

    /** Counts records per key. */
    RecordTable<K, Long> count(String storeName);

    /** Combines the values of a key; the first value of a key is its initial result. */
    RecordTable<K, V> reduce(BinaryOperator<V> reducer, String storeName);

    /** Folds the values of a key into an aggregate that starts from {@code initializer}. */
    <VA> RecordTable<K, VA> aggregate(
            Supplier<VA> initializer,
            Aggregator<? super K, ? super V, VA> aggregator,
            Serde<VA> aggregateSerde,
            String storeName);

    /** Cuts the stream into time windows (tumbling or hopping) to aggregate per key and window. */
    WindowedStream<K, V> windowedBy(TimeWindows windows);

    /** Cuts the stream into count windows to aggregate per key and window. */
    CountWindowedStream<K, V> windowedBy(CountWindows windows);

    /** Cuts the stream into sessions to aggregate per key and session. */
    SessionWindowedStream<K, V> windowedBy(SessionWindows windows);
}
