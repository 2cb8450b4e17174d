package io.weir.internal.dsl;

import io.weir.dsl.Emit;
import io.weir.dsl.RecordStream;
import io.weir.dsl.TimeWindows;
import io.weir.dsl.WindowedStream;
import io.weir.internal.operator.window.SessionWindowProcessor;
import io.weir.internal.operator.window.TimeWindowProcessor;
import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serde;
import io.weir.state.Windowed;
import java.util.List;
import java.util.Objects;

/**
 * {@code windowedBy(TimeWindows)}: adds, as a plain aggregation does, the repartition when the key
 * may have changed, then a window store {@code <store>} (windows of the window size, kept for the
 * allowed lateness after their end) and the processor {@code <store>-aggregate}
 * ({@link TimeWindowProcessor}). The result is a stream of {@code Windowed<K>} keys with serde
 * {@code Serdes.windowed(keySerde)} and the aggregate serde. Immutable: {@link #emit} returns a copy.
 */
final class TimeWindowedStreamImpl<K, V> extends UnmergedWindowedStreamBase<K, V> implements WindowedStream<K, V> {

    private final TimeWindows windows;
    private final Emit emit;

    TimeWindowedStreamImpl(GroupedStreamImpl<K, V> grouped, TimeWindows windows, Emit emit) {
        super(grouped);
        this.windows = windows;
        this.emit = emit;
    }

    @Override
    public WindowedStream<K, V> emit(Emit emit) {
        return new TimeWindowedStreamImpl<>(grouped, windows, Objects.requireNonNull(emit, "emit"));
    }

    @Override
    <VA> RecordStream<Windowed<K>, VA> add(
            String storeName, Serde<VA> aggregateSerde, SessionWindowProcessor.Aggregation<K, V, VA> aggregation) {
        // a window is dropped once closed (end + allowed lateness reached), whatever the trigger,
        // unless the windows ask to keep it longer for queries
        StoreSpec store = new StoreSpec(
                storeName,
                grouped.keySerde(),
                aggregateSerde,
                true,
                true,
                null,
                StoreSpec.Kind.WINDOW,
                windows.size().toMillis(),
                windows.retention());
        return addWindowed(
                List.of(store),
                TimeWindowProcessor.supplier(storeName, windows, emit, aggregation.aggregator()),
                aggregateSerde);
    }
}
