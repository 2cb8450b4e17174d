package io.weir.internal.operator.window;

import io.weir.dsl.Emit;
import io.weir.dsl.TimeWindows;
import io.weir.internal.operator.aggregate.AggregateProcessor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.ProcessorSupplier;
import io.weir.processor.Record;
import io.weir.state.KeyValueIterator;
import io.weir.state.WindowStore;
import io.weir.state.Windowed;

/**
 * Aggregates each record into the time windows (tumbling or hopping) that contain it, as Kafka
 * Streams' {@code KStreamWindowAggregate}: the windows of a record at {@code ts} start at the
 * multiples of the advance in {@code (ts - size, ts]}, none before 0. A window is closed once the
 * watermark reaches its end plus the allowed lateness; a record for a closed window is reported
 * late for that window (and still aggregated into the record's other, open windows). The trigger
 * is {@link WindowProcessor}'s: a window fires at its end, or at its end plus the allowed lateness
 * for {@link Emit#onWindowClose()}.
 *
 * <p>Results have the window as key, the aggregate as value and {@code end - 1} (the window's last
 * instant) as timestamp. The store keeps a window until the watermark reaches its end plus the
 * allowed lateness, so every closed window is dropped and no open one is; or longer, for queries,
 * with {@code TimeWindows.retainFor}: a closed window still in the store is late all the same
 * (closing is decided by the watermark, not by the store).
 */
public final class TimeWindowProcessor<K, V, VA> extends WindowProcessor<K, V, VA> {

    private final long size;
    private final long advance;
    private final long lateness;
    private final AggregateProcessor.Step<K, V, VA> step;
    private WindowStore<K, VA> store;

    private TimeWindowProcessor(
            String storeName, TimeWindows windows, Emit emit, AggregateProcessor.Step<K, V, VA> step) {
        // no deferral: the record that moves the watermark to W is in no window that ends by W
        super(
                storeName,
                emit,
                emit.kind() == Emit.Kind.ON_WINDOW_CLOSE
                        ? windows.allowedLateness().toMillis()
                        : 0,
                1,
                false);
        this.size = windows.size().toMillis();
        this.advance = windows.advance().toMillis();
        this.lateness = windows.allowedLateness().toMillis();
        this.step = step;
    }

    public static <K, V, VA> ProcessorSupplier<K, V, Windowed<K>, VA> supplier(
            String storeName, TimeWindows windows, Emit emit, AggregateProcessor.Step<K, V, VA> step) {
        return () -> new TimeWindowProcessor<>(storeName, windows, emit, step);
    }

    @Override
    void openStore(ProcessorContext<?, ?> context) {
        store = context.getStateStore(storeName);
    }

    @Override
    void aggregate(Record<K, V> record, long watermarkBefore) {
        long ts = record.timestamp();
        if (ts < 0) {
            throw new IllegalArgumentException("a record with a negative timestamp (" + ts + ") has no time window in '"
                    + storeName + "': windows start at 0");
        }
        long closedThrough = minus(watermark, lateness); // a window ending at or before this is closed
        K key = record.key();
        // Kafka Streams' TimeWindows.windowsFor, ascending by start; no overflow near Long.MAX_VALUE
        long start = Math.max(0, ts - size + advance) / advance * advance;
        while (true) {
            long end = plus(start, size);
            if (end <= closedThrough) {
                late(start, end);
            } else {
                VA updated = step.apply(key, record.value(), store.fetch(key, start));
                store.put(key, start, updated);
                updated(new Windowed<>(key, start, end), updated, 1);
            }
            if (start > ts - advance) {
                break;
            }
            start += advance;
        }
    }

    @Override
    KeyValueIterator<Windowed<K>, VA> endingBetween(long fromEnd, long toEnd) {
        return store.fetchAll(minus(fromEnd, size), toEnd == Long.MAX_VALUE ? Long.MAX_VALUE : minus(toEnd, size));
    }

    @Override
    VA current(Windowed<K> window) {
        return store.fetch(window.key(), window.start());
    }

    @Override
    long resultTime(Windowed<K> window) {
        return window.end() - 1;
    }
}
