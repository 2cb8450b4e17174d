package io.weir.internal.dsl;

import io.weir.dsl.Aggregator;
import io.weir.dsl.Emit;
import io.weir.dsl.Merger;
import io.weir.dsl.RecordStream;
import io.weir.dsl.SessionWindowedStream;
import io.weir.dsl.SessionWindows;
import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import java.time.Duration;
import java.util.Objects;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * {@code windowedBy(SessionWindows)}: adds, as a plain aggregation does, the repartition when the
 * key may have changed, then a session store {@code <store>} and the processor
 * {@code <store>-aggregate} ({@link SessionWindowProcessor}). The result is a stream of
 * {@code Windowed<K>} keys (session start and inclusive end) with serde
 * {@code Serdes.windowed(keySerde)} and the aggregate serde. Immutable: {@link #emit} returns a copy.
 *
 * <p>How sessions combine, as in Kafka Streams: {@code count} adds the counts of merged sessions;
 * {@code reduce} reduces their results in end order; {@code aggregate} uses the given merger.
 */
final class SessionWindowedStreamImpl<K, V> implements SessionWindowedStream<K, V> {

    private final GroupedStreamImpl<K, V> grouped;
    private final SessionWindows windows;
    private final Emit emit;

    SessionWindowedStreamImpl(GroupedStreamImpl<K, V> grouped, SessionWindows windows, Emit emit) {
        this.grouped = grouped;
        this.windows = windows;
        this.emit = emit;
    }

    @Override
    public SessionWindowedStream<K, V> emit(Emit emit) {
        return new SessionWindowedStreamImpl<>(grouped, windows, WindowProcessor.checked(emit));
    }

    @Override
    public RecordStream<Windowed<K>, Long> count(String storeName) {
        return add(storeName, Serdes.longs(), new SessionWindowProcessor.Aggregation<K, V, Long>(
                () -> 0L, AggregateProcessor.countStep(), (k, a, b) -> a + b));
    }

    @Override
    public RecordStream<Windowed<K>, V> reduce(BinaryOperator<V> reducer, String storeName) {
        Objects.requireNonNull(reducer, "reducer");
        return add(storeName, grouped.requireValueSerde("reduce", storeName), new SessionWindowProcessor.Aggregation<K, V, V>(
                () -> null, AggregateProcessor.reduceStep(reducer), (k, a, b) -> a == null ? b : reducer.apply(a, b)));
    }

    @Override
    public <VA> RecordStream<Windowed<K>, VA> aggregate(Supplier<VA> initializer,
                                                       Aggregator<? super K, ? super V, VA> aggregator,
                                                       Merger<? super K, VA> merger,
                                                       Serde<VA> aggregateSerde, String storeName) {
        Objects.requireNonNull(initializer, "initializer");
        Objects.requireNonNull(aggregator, "aggregator");
        Objects.requireNonNull(merger, "merger");
        Objects.requireNonNull(aggregateSerde, "aggregateSerde");
        return add(storeName, aggregateSerde, new SessionWindowProcessor.Aggregation<>(
                initializer, AggregateProcessor.aggregateStep(initializer, aggregator), merger));
    }

    private <VA> RecordStream<Windowed<K>, VA> add(String storeName, Serde<VA> aggregateSerde,
                                                  SessionWindowProcessor.Aggregation<K, V, VA> aggregation) {
        StoreSpec store = new StoreSpec(storeName, grouped.keySerde(), aggregateSerde, true, true, null,
                StoreSpec.Kind.SESSION, 0, Duration.ofMillis(SessionWindowProcessor.retentionMs(windows)));
        String node = grouped.addAggregation(store, SessionWindowProcessor.supplier(storeName, windows, emit, aggregation));
        return grouped.resultStream(node, Serdes.windowed(grouped.keySerde()), aggregateSerde);
    }
}
