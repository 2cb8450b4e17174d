package io.weir.internal.dsl;

import io.weir.dsl.Aggregator;
import io.weir.dsl.Merger;
import io.weir.dsl.RecordStream;
import io.weir.internal.operator.aggregate.AggregateProcessor;
import io.weir.internal.operator.window.SessionWindowProcessor;
import io.weir.internal.topology.StoreSpec;
import io.weir.processor.ProcessorSupplier;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import java.util.List;
import java.util.Objects;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * What time, count and session windowed streams share: {@code count}, {@code reduce} and
 * {@code aggregate} checked and turned into one {@link SessionWindowProcessor.Aggregation}, and
 * the store and processor added, as a plain aggregation's are, by
 * {@link GroupedStreamImpl#addAggregation}. Each kind of window says in {@link #add} which store and
 * processor it needs; time and count windows use only the aggregation's step (their windows never
 * merge).
 *
 * <p>How aggregates of merged sessions combine, as in Kafka Streams: {@code count} adds them;
 * {@code reduce} reduces them in end order; {@code aggregate} uses the given merger.
 */
abstract class WindowedStreamBase<K, V> {

    final GroupedStreamImpl<K, V> grouped;

    WindowedStreamBase(GroupedStreamImpl<K, V> grouped) {
        this.grouped = grouped;
    }

    public final RecordStream<Windowed<K>, Long> count(String storeName) {
        return add(
                storeName,
                Serdes.longs(),
                new SessionWindowProcessor.Aggregation<K, V, Long>(
                        () -> 0L, AggregateProcessor.countStep(), (k, a, b) -> a + b));
    }

    public final RecordStream<Windowed<K>, V> reduce(BinaryOperator<V> reducer, String storeName) {
        Objects.requireNonNull(reducer, "reducer");
        return add(
                storeName,
                grouped.requireValueSerde("reduce", storeName),
                new SessionWindowProcessor.Aggregation<K, V, V>(
                        () -> null,
                        AggregateProcessor.reduceStep(reducer),
                        (k, a, b) -> a == null ? b : reducer.apply(a, b)));
    }

    /** {@code aggregate}: {@code merger} combines the aggregates of windows that merge (sessions). */
    final <VA> RecordStream<Windowed<K>, VA> aggregateMerging(
            Supplier<VA> initializer,
            Aggregator<? super K, ? super V, VA> aggregator,
            Merger<? super K, VA> merger,
            Serde<VA> aggregateSerde,
            String storeName) {
        Objects.requireNonNull(initializer, "initializer");
        Objects.requireNonNull(aggregator, "aggregator");
        Objects.requireNonNull(merger, "merger");
        Objects.requireNonNull(aggregateSerde, "aggregateSerde");
        return add(
                storeName,
                aggregateSerde,
                new SessionWindowProcessor.Aggregation<>(
                        initializer, AggregateProcessor.aggregateStep(initializer, aggregator), merger));
    }

    /** Adds the stores and the aggregating processor of this kind of window; see {@link #addWindowed}. */
    abstract <VA> RecordStream<Windowed<K>, VA> add(
            String storeName, Serde<VA> aggregateSerde, SessionWindowProcessor.Aggregation<K, V, VA> aggregation);

    /**
     * Adds {@code stores} (the first names the aggregation) and {@code processor} as an aggregation
     * of the grouped stream and returns its results: keys with serde
     * {@code Serdes.windowed(keySerde)}, values with the aggregate serde. Fails, naming the store,
     * if an earlier step lost the key serde.
     */
    final <VA> RecordStream<Windowed<K>, VA> addWindowed(
            List<StoreSpec> stores, ProcessorSupplier<K, V, Windowed<K>, VA> processor, Serde<VA> aggregateSerde) {
        String node = grouped.addAggregation(stores, processor);
        return grouped.resultStream(node, Serdes.windowed(grouped.keySerde()), aggregateSerde);
    }
}
