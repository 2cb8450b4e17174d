package io.weir.internal.dsl;

import io.weir.dsl.Aggregator;
import io.weir.dsl.CountWindows;
import io.weir.dsl.Emit;
import io.weir.dsl.RecordStream;
import io.weir.dsl.WindowedStream;
import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import java.util.Objects;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * {@code windowedBy(CountWindows)}: adds, as a plain aggregation does, the repartition when the key
 * may have changed, then a key-value store {@code <store>} of raw bytes (layout in
 * {@link CountWindowKeys}: each key's open windows and a time index for time-outs) and the
 * processor {@code <store>-aggregate} ({@link CountWindowProcessor}). The result is a stream of
 * {@code Windowed<K>} keys with serde {@code Serdes.windowed(keySerde)} and the aggregate serde.
 */
final class CountWindowedStreamImpl<K, V> implements WindowedStream<K, V> {

    private final GroupedStreamImpl<K, V> grouped;
    private final CountWindows windows;

    CountWindowedStreamImpl(GroupedStreamImpl<K, V> grouped, CountWindows windows) {
        this.grouped = grouped;
        this.windows = Objects.requireNonNull(windows, "windows");
    }

    /** Count windows have one trigger: a window is emitted once, when full or timed out. */
    @Override
    public WindowedStream<K, V> emit(Emit emit) {
        throw new IllegalArgumentException("emit(" + (emit == null ? null : emit.kind()) + ") is for time and"
                + " session windows: a count window is emitted once, when it is full (or, with"
                + " CountWindows.timeout(...), when its time-out passes)");
    }

    @Override
    public RecordStream<Windowed<K>, Long> count(String storeName) {
        return add(storeName, Serdes.longs(), AggregateProcessor.countStep());
    }

    @Override
    public RecordStream<Windowed<K>, V> reduce(BinaryOperator<V> reducer, String storeName) {
        Objects.requireNonNull(reducer, "reducer");
        return add(storeName, grouped.requireValueSerde("reduce", storeName), AggregateProcessor.reduceStep(reducer));
    }

    @Override
    public <VA> RecordStream<Windowed<K>, VA> aggregate(Supplier<VA> initializer,
                                                       Aggregator<? super K, ? super V, VA> aggregator,
                                                       Serde<VA> aggregateSerde, String storeName) {
        Objects.requireNonNull(initializer, "initializer");
        Objects.requireNonNull(aggregator, "aggregator");
        Objects.requireNonNull(aggregateSerde, "aggregateSerde");
        return add(storeName, aggregateSerde, AggregateProcessor.aggregateStep(initializer, aggregator));
    }

    private <VA> RecordStream<Windowed<K>, VA> add(String storeName, Serde<VA> aggregateSerde,
                                                  AggregateProcessor.Step<K, V, VA> step) {
        Serde<K> keySerde = grouped.keySerde();
        StoreSpec store = new StoreSpec(storeName, Serdes.bytes(), Serdes.bytes(), true, true, null);
        // addAggregation fails, naming the store, if an earlier step lost the key serde
        String node = grouped.addAggregation(store,
                CountWindowProcessor.supplier(storeName, windows, keySerde, aggregateSerde, step));
        return grouped.resultStream(node, Serdes.windowed(keySerde), aggregateSerde);
    }
}
