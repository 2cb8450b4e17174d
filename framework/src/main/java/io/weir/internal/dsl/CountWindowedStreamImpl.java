package io.weir.internal.dsl;

import io.weir.dsl.CountWindowedStream;
import io.weir.dsl.CountWindows;
import io.weir.dsl.RecordStream;
import io.weir.internal.operator.window.CountWindowKeys;
import io.weir.internal.operator.window.CountWindowProcessor;
import io.weir.internal.operator.window.SessionWindowProcessor;
import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import java.util.List;
import java.util.Objects;

/**
 * {@code windowedBy(CountWindows)}: adds, as a plain aggregation does, the repartition when the key
 * may have changed, then a key-value store {@code <store>} of raw bytes (layout in
 * {@link CountWindowKeys}: each key's open windows and a time index for time-outs) and the
 * processor {@code <store>-aggregate} ({@link CountWindowProcessor}). The result is a stream of
 * {@code Windowed<K>} keys with serde {@code Serdes.windowed(keySerde)} and the aggregate serde.
 */
final class CountWindowedStreamImpl<K, V> extends UnmergedWindowedStreamBase<K, V>
        implements CountWindowedStream<K, V> {

    private final CountWindows windows;

    CountWindowedStreamImpl(GroupedStreamImpl<K, V> grouped, CountWindows windows) {
        super(grouped);
        this.windows = Objects.requireNonNull(windows, "windows");
    }

    @Override
    <VA> RecordStream<Windowed<K>, VA> add(
            String storeName, Serde<VA> aggregateSerde, SessionWindowProcessor.Aggregation<K, V, VA> aggregation) {
        StoreSpec store = new StoreSpec(storeName, Serdes.bytes(), Serdes.bytes(), true, true, null);
        return addWindowed(
                List.of(store),
                CountWindowProcessor.supplier(
                        storeName, windows, grouped.keySerde(), aggregateSerde, aggregation.aggregator()),
                aggregateSerde);
    }
}
