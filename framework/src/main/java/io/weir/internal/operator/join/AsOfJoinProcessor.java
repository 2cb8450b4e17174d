package io.weir.internal.operator.join;

import io.weir.common.KeyValue;
import io.weir.dsl.ValueJoiner;
import io.weir.internal.operator.table.TableProcessors;
import io.weir.internal.operator.table.VersionedLookup;
import io.weir.internal.operator.window.WindowProcessor;
import io.weir.internal.task.CommitAwareProcessor;
import io.weir.internal.time.EventTimeProcessor;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.ProcessorSupplier;
import io.weir.processor.Record;
import io.weir.state.KeyValueIterator;
import io.weir.state.WindowStore;
import io.weir.state.Windowed;
import java.util.ArrayList;
import java.util.List;

/**
 * Joins each stream record with a versioned table's value valid at the record's timestamp
 * ({@link VersionedLookup}), as Kafka Streams does with a versioned table and Flink's event-time
 * temporal join. Inner: a record without a value valid then (none yet, deleted, or older than the
 * table's history retention) gives nothing; left: every record gives a result, {@code null} for no
 * value. A record with a {@code null} key or value joins as in {@link TableProcessors#streamTableJoin}.
 *
 * <p>With a grace period {@code G} ({@code buffer} names its store), a record at {@code t} waits
 * in the window store {@code buffer} until the task's watermark {@code W} reaches {@code t + G}:
 * the records with {@code t <= W - G} are joined when the watermark gets there, ascending by time
 * (then key bytes, then arrival), and deleted from the buffer in the same transaction, so a restart
 * neither repeats nor skips one (what is buffered after a restart is exactly what was not due at the
 * committed watermark). A record that arrives with {@code t <= W - G} already is joined at once,
 * as Kafka Streams does. Records without a key or value do not wait.
 */
public final class AsOfJoinProcessor<K, V, VT, VR>
        implements Processor<K, V, K, VR>, EventTimeProcessor, CommitAwareProcessor {

    private final VersionedLookup<K, VT> table;
    private final ValueJoiner<? super V, ? super VT, ? extends VR> joiner;
    private final boolean left;
    /** The buffer store, or {@code null} without a grace period. */
    private final String buffer;

    private final long graceMs;
    private ProcessorContext<K, VR> context;
    private VersionedLookup.AsOf<K, VT> reader;
    private WindowStore<K, GraceBuffer<V>> waiting;
    private long watermark;

    private AsOfJoinProcessor(
            VersionedLookup<K, VT> table,
            ValueJoiner<? super V, ? super VT, ? extends VR> joiner,
            boolean left,
            String buffer,
            long graceMs) {
        this.table = table;
        this.joiner = joiner;
        this.left = left;
        this.buffer = buffer;
        this.graceMs = graceMs;
    }

    /** Joins at once, without a grace period. */
    public static <K, V, VT, VR> ProcessorSupplier<K, V, K, VR> immediate(
            VersionedLookup<K, VT> table, ValueJoiner<? super V, ? super VT, ? extends VR> joiner, boolean left) {
        return () -> new AsOfJoinProcessor<>(table, joiner, left, null, 0);
    }

    /** Joins each record once the watermark passes its time plus {@code graceMs}, buffering it in {@code buffer}. */
    public static <K, V, VT, VR> ProcessorSupplier<K, V, K, VR> withGrace(
            VersionedLookup<K, VT> table,
            ValueJoiner<? super V, ? super VT, ? extends VR> joiner,
            boolean left,
            String buffer,
            long graceMs) {
        return () -> new AsOfJoinProcessor<>(table, joiner, left, buffer, graceMs);
    }

    @Override
    public void init(ProcessorContext<K, VR> context) {
        this.context = context;
        reader = table.open(context);
        if (buffer != null) {
            waiting = context.getStateStore(buffer);
        }
        watermark = context.currentWatermark();
    }

    @Override
    public void process(Record<K, V> record) {
        if (buffer == null || record.key() == null || record.value() == null) {
            join(record);
            return;
        }
        long current = context.currentWatermark();
        if (current > watermark) {
            onWatermark(current);
        }
        long ts = record.timestamp();
        if (ts <= dueThrough(watermark)) {
            join(record); // its grace is over already
            return;
        }
        GraceBuffer<V> buffered = waiting.fetch(record.key(), ts);
        waiting.put(
                record.key(),
                ts,
                buffered == null
                        ? GraceBuffer.of(record.value(), record.headers())
                        : buffered.plus(record.value(), record.headers()));
    }

    private void join(Record<K, V> record) {
        VT tableValue = record.key() == null ? null : reader.get(record.key(), record.timestamp());
        if (left || tableValue != null && record.value() != null) {
            context.forward(record.withValue(joiner.apply(record.value(), tableValue)));
        }
    }

    @Override
    public void onWatermark(long newWatermark) {
        if (buffer == null || newWatermark <= watermark) {
            return;
        }
        watermark = newWatermark;
        long through = dueThrough(newWatermark);
        List<KeyValue<Windowed<K>, GraceBuffer<V>>> due = new ArrayList<>();
        try (KeyValueIterator<Windowed<K>, GraceBuffer<V>> it = waiting.fetchAll(Long.MIN_VALUE, through)) {
            it.forEachRemaining(due::add);
        }
        for (KeyValue<Windowed<K>, GraceBuffer<V>> e : due) {
            K key = e.key().key();
            long ts = e.key().start();
            for (GraceBuffer.Entry<V> entry : e.value().entries()) {
                join(new Record<>(key, entry.value(), ts, entry.headers(), null, -1, -1L));
            }
            waiting.put(key, ts, null);
        }
    }

    /** The latest record time whose grace is over at watermark {@code w}. */
    private long dueThrough(long w) {
        return WindowProcessor.minus(w, graceMs);
    }

    @Override
    public void beforeCommit() {}

    /** The buffer and the watermark are back at the commit. */
    @Override
    public void afterAbort() {
        watermark = context.currentWatermark();
    }
}
