package io.weir.internal.dsl;

import io.weir.dsl.Aggregator;
import io.weir.dsl.Emit;
import io.weir.dsl.Merger;
import io.weir.dsl.RecordStream;
import io.weir.dsl.SessionWindowedStream;
import io.weir.dsl.SessionWindows;
import io.weir.internal.operator.window.SessionWindowProcessor;
import io.weir.serde.Serde;
import io.weir.state.Windowed;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@code windowedBy(SessionWindows)}: adds, as a plain aggregation does, the repartition when the
 * key may have changed, then a session store {@code <store>}, a key-value store
 * {@code <store>-last-closed} (the latest closed session of each key, so that no record touches a
 * session that closed) and the processor {@code <store>-aggregate} ({@link SessionWindowProcessor}),
 * all logged. The result is a stream of
 * {@code Windowed<K>} keys (session start and inclusive end) with serde
 * {@code Serdes.windowed(keySerde)} and the aggregate serde. Immutable: {@link #emit} returns a copy.
 *
 * <p>How sessions combine: see {@link WindowedStreamBase}.
 */
final class SessionWindowedStreamImpl<K, V> extends WindowedStreamBase<K, V> implements SessionWindowedStream<K, V> {

    private final SessionWindows windows;
    private final Emit emit;

    SessionWindowedStreamImpl(GroupedStreamImpl<K, V> grouped, SessionWindows windows, Emit emit) {
        super(grouped);
        this.windows = windows;
        this.emit = emit;
    }

    @Override
    public SessionWindowedStream<K, V> emit(Emit emit) {
        return new SessionWindowedStreamImpl<>(grouped, windows, Objects.requireNonNull(emit, "emit"));
    }

    @Override
    public <VA> RecordStream<Windowed<K>, VA> aggregate(
            Supplier<VA> initializer,
            Aggregator<? super K, ? super V, VA> aggregator,
            Merger<? super K, VA> merger,
            Serde<VA> aggregateSerde,
            String storeName) {
        return aggregateMerging(initializer, aggregator, merger, aggregateSerde, storeName);
    }

    @Override
    <VA> RecordStream<Windowed<K>, VA> add(
            String storeName, Serde<VA> aggregateSerde, SessionWindowProcessor.Aggregation<K, V, VA> aggregation) {
        return addWindowed(
                SessionWindowProcessor.stores(storeName, grouped.keySerde(), aggregateSerde, windows),
                SessionWindowProcessor.supplier(storeName, windows, emit, aggregation),
                aggregateSerde);
    }
}
