package io.weir.dsl;

import io.weir.serde.Serde;
import io.weir.state.Windowed;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * A grouped stream cut into time windows ({@link TimeWindows}), ready to aggregate per key and
 * window. Results are a stream of
 * {@code Windowed<K>} keys (key, window start, window end) whose serde is
 * {@code Serdes.windowed(keySerde)}; the store name names the window store and its changelog.
 * When results are emitted is set by {@link #emit(Emit)}.
 */
public interface WindowedStream<K, V> {

    /** The trigger; default {@link Emit#atWatermark()}. */
    WindowedStream<K, V> emit(Emit emit);

    RecordStream<Windowed<K>, Long> count(String storeName);

    RecordStream<Windowed<K>, V> reduce(BinaryOperator<V> reducer, String storeName);

    <VA> RecordStream<Windowed<K>, VA> aggregate(
            Supplier<VA> initializer,
            Aggregator<? super K, ? super V, VA> aggregator,
            Serde<VA> aggregateSerde,
            String storeName);
}
