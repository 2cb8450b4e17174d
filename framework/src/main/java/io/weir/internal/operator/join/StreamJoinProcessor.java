package io.weir.internal.operator.join;

import io.weir.common.KeyValue;
import io.weir.internal.operator.window.WindowProcessor;
import io.weir.internal.task.CommitAwareProcessor;
import io.weir.internal.task.InternalContext;
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
import java.util.function.BiFunction;

/**
 * One side of a stream-stream join (one instance per side and task; both sides' instances share
 * the two buffer stores). With {@code before}/{@code after} seen from this side, a record of this
 * side at {@code t} joins the other side's buffered records of its key at {@code [t - before,
 * t + after]}, each result stamped with the later of the two timestamps; then it is buffered for
 * the other side's records to come.
 *
 * <p>Time, with watermark {@code W} and allowed lateness {@code L}:
 * <ul>
 *   <li>a record at {@code t < W - L} is late: reported to the late-records topic, neither joined
 *       nor buffered;</li>
 *   <li>a record of the other side that is not late has {@code t' >= W - L}, so it can still join a
 *       record of this side at {@code t} only while {@code t + after >= W - L}: the buffer keeps a
 *       record that long (the store's retention, {@code after + L}, past a window of 1 ms), and an
 *       outer side emits its records that never matched, with a {@code null} other value, as the
 *       watermark passes that bound: only then, so a left join never emits a spurious unmatched
 *       result that a match follows (Kafka Streams' KIP-633);</li>
 *   <li>the unmatched results due at a watermark are emitted when the watermark reaches it, inside
 *       the transaction that commits it: {@code emittedThrough} derives from the committed
 *       watermark after a restart or an abort, so none is emitted twice or skipped.</li>
 * </ul>
 * A record with a {@code null} key or value never joins: an outer side emits it unmatched at once,
 * an inner side drops it.
 */
public final class StreamJoinProcessor<K, VT, VO, VR>
        implements Processor<K, VT, K, VR>, EventTimeProcessor, CommitAwareProcessor {

    private final String name;
    private final String thisStore;
    private final String otherStore;
    private final long before;
    private final long after;
    private final long lateness;
    /** True if this side's unmatched records are emitted (the left of a left join, both of an outer). */
    private final boolean thisOuter;
    /** True if the other side's records need their matched flag (it is outer). */
    private final boolean otherOuter;

    private final BiFunction<? super VT, ? super VO, ? extends VR> joiner;
    private ProcessorContext<K, VR> context;
    private WindowStore<K, JoinBuffer<VT>> mine;
    private WindowStore<K, JoinBuffer<VO>> theirs;
    private long watermark;
    /** Every unmatched record of this side at or below this time has been emitted (outer sides). */
    private long emittedThrough;

    /**
     * One side of the join, as seen from it: the join's name (for late records), this side's
     * buffer store and the other's, the window ({@code before}, {@code after}) and allowed
     * lateness in milliseconds, and which sides are outer ({@code thisOuter}: this side's
     * unmatched records are emitted; {@code otherOuter}: the other side's need their matched flag).
     */
    public record Side(
            String name,
            String thisStore,
            String otherStore,
            long before,
            long after,
            long lateness,
            boolean thisOuter,
            boolean otherOuter) {

        /** The other side, seeing this one: stores, window bounds and outer flags swapped. */
        public Side mirrored() {
            return new Side(name, otherStore, thisStore, after, before, lateness, otherOuter, thisOuter);
        }

        /** The retention of this side's buffer store, whose records the other side joins up to {@code after} later. */
        public long bufferRetentionMs() {
            return WindowProcessor.plus(after, lateness);
        }
    }

    private StreamJoinProcessor(Side side, BiFunction<? super VT, ? super VO, ? extends VR> joiner) {
        this.name = side.name();
        this.thisStore = side.thisStore();
        this.otherStore = side.otherStore();
        this.before = side.before();
        this.after = side.after();
        this.lateness = side.lateness();
        this.thisOuter = side.thisOuter();
        this.otherOuter = side.otherOuter();
        this.joiner = joiner;
    }

    /** One side's processor; {@code joiner} takes this side's value first. */
    public static <K, VT, VO, VR> ProcessorSupplier<K, VT, K, VR> supplier(
            Side side, BiFunction<? super VT, ? super VO, ? extends VR> joiner) {
        return () -> new StreamJoinProcessor<>(side, joiner);
    }

    @Override
    public void init(ProcessorContext<K, VR> context) {
        this.context = context;
        mine = context.getStateStore(thisStore);
        theirs = context.getStateStore(otherStore);
        watermark = context.currentWatermark();
        emittedThrough = unmatchableThrough(watermark);
    }

    @Override
    public void process(Record<K, VT> record) {
        long current = context.currentWatermark();
        if (current > watermark) {
            onWatermark(current);
        }
        K key = record.key();
        if (key == null || record.value() == null) {
            if (thisOuter) {
                context.forward(record.withValue(joiner.apply(record.value(), null)));
            }
            return;
        }
        long ts = record.timestamp();
        if (ts < WindowProcessor.minus(watermark, lateness)) {
            if (!(context instanceof InternalContext internal)) {
                throw new IllegalStateException("the context of '" + name + "' cannot report late records");
            }
            internal.reportLate(name, WindowProcessor.minus(ts, before), WindowProcessor.plus(ts, after));
            return;
        }
        boolean matched = false;
        List<KeyValue<Long, JoinBuffer<VO>>> flagged = new ArrayList<>();
        try (KeyValueIterator<Windowed<K>, JoinBuffer<VO>> found =
                theirs.fetch(key, WindowProcessor.minus(ts, before), WindowProcessor.plus(ts, after))) {
            while (found.hasNext()) {
                KeyValue<Windowed<K>, JoinBuffer<VO>> e = found.next();
                long otherTs = e.key().start();
                JoinBuffer<VO> buffer = e.value();
                for (VO other : buffer.values()) {
                    context.forward(record.withValue(joiner.apply(record.value(), other))
                            .withTimestamp(Math.max(ts, otherTs)));
                }
                matched = true;
                if (otherOuter && !buffer.allMatched()) {
                    flagged.add(KeyValue.of(otherTs, buffer.allMarkedMatched()));
                }
            }
        }
        for (KeyValue<Long, JoinBuffer<VO>> f : flagged) {
            theirs.put(key, f.key(), f.value());
        }
        JoinBuffer<VT> buffered = mine.fetch(key, ts);
        mine.put(
                key,
                ts,
                buffered == null ? JoinBuffer.of(record.value(), matched) : buffered.plus(record.value(), matched));
    }

    @Override
    public void onWatermark(long newWatermark) {
        if (newWatermark <= watermark) {
            return;
        }
        watermark = newWatermark;
        long through = unmatchableThrough(newWatermark);
        if (!thisOuter || through <= emittedThrough) {
            emittedThrough = Math.max(emittedThrough, through);
            return;
        }
        try (KeyValueIterator<Windowed<K>, JoinBuffer<VT>> due = mine.fetchAll(emittedThrough + 1, through)) {
            while (due.hasNext()) {
                KeyValue<Windowed<K>, JoinBuffer<VT>> e = due.next();
                JoinBuffer<VT> buffer = e.value();
                for (int i = 0; i < buffer.values().size(); i++) {
                    if (!buffer.matched().get(i)) {
                        context.forward(new Record<>(
                                e.key().key(),
                                joiner.apply(buffer.values().get(i), null),
                                e.key().start()));
                    }
                }
            }
        }
        emittedThrough = through;
    }

    /** The latest time of this side whose records no record of the other side can join at {@code w}. */
    private long unmatchableThrough(long w) {
        return WindowProcessor.minus(WindowProcessor.minus(WindowProcessor.minus(w, lateness), after), 1);
    }

    @Override
    public void beforeCommit() {}

    /** The stores and the watermark are back at the commit: so is what was emitted. */
    @Override
    public void afterAbort() {
        watermark = context.currentWatermark();
        emittedThrough = unmatchableThrough(watermark);
    }
}
