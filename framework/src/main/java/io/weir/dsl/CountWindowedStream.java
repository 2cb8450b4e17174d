package io.weir.dsl;

import io.weir.serde.Serde;
import io.weir.state.Windowed;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * A grouped stream cut into {@link CountWindows}, ready to aggregate per key and window. A window
 * is emitted once: when it holds its number of records ({@code weir.pane=final}), or when its
 * time-out passes ({@code weir.pane=timeout}); there is no other trigger. Results are a stream of
 * {@code Windowed<K>} keys (key, times of the window's earliest and latest record, both inclusive)
 * whose serde is {@code Serdes.windowed(keySerde)}; the store name names the store and its
 * changelog.
 */
public interface CountWindowedStream<K, V> {

    RecordStream<Windowed<K>, Long> count(String storeName);

    RecordStream<Windowed<K>, V> reduce(BinaryOperator<V> reducer, String storeName);

    <VA> RecordStream<Windowed<K>, VA> aggregate(
            Supplier<VA> initializer,
            Aggregator<? super K, ? super V, VA> aggregator,
            Serde<VA> aggregateSerde,
            String storeName);
}
