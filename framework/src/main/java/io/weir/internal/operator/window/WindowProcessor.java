package io.weir.internal.operator.window;

import io.weir.common.KeyValue;
import io.weir.dsl.Emit;
import io.weir.internal.task.CommitAwareProcessor;
import io.weir.internal.task.InternalContext;
import io.weir.internal.time.EventTimeProcessor;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.PunctuationType;
import io.weir.processor.Record;
import io.weir.state.KeyValueIterator;
import io.weir.state.Windowed;

/**
 * The trigger side of a windowed aggregation (time windows and sessions): when each window's
 * result is emitted, with which {@link Pane}, and what happens after an aborted transaction.
 * Subclasses aggregate records into their store and report each changed window with
 * {@link #updated} (and each session merged away with {@link #retracted}).
 *
 * <p>A window fires at its <em>fire time</em>, its end plus a fixed delay (the allowed lateness for
 * {@link Emit#onWindowClose()}, plus the gap for sessions). When the watermark moves to {@code W},
 * the windows whose fire time is in {@code (firedThrough, W]} emit their final result, read from
 * the store by end time. No window keeps an "emitted" flag: the watermark is committed atomically
 * with the outputs, and every window due at it has fired by then ({@link #beforeCommit}), so
 * {@code firedThrough} starts from the committed watermark ({@link #init}) and goes back to it
 * after an abort ({@link #afterAbort}); a restart thus neither fires a window twice nor skips one.
 * {@link FireTimes} keeps the scan off the store when nothing can fire.
 *
 * <p>With {@code deferAtWatermark}, the windows whose fire time is exactly {@code W} fire only after
 * the record that moved the watermark to {@code W} is processed (at the latest at the commit), as
 * Kafka Streams' suppression evicts only after the aggregation processed the record: sessions
 * need it, since that record may still extend a session whose fire time is {@code W}.
 *
 * <p>Owned by the task's thread.
 */
public abstract class WindowProcessor<K, V, VA>
        implements Processor<K, V, Windowed<K>, VA>, EventTimeProcessor, CommitAwareProcessor {

    final String storeName;
    private final Emit emit;
    /** Fire time = end + fireDelay. */
    private final long fireDelay;

    private final FireTimes fires;
    /** Null unless the trigger is {@link Emit.Kind#EARLY}. */
    private EarlyResults<K> early;

    private ProcessorContext<Windowed<K>, VA> context;
    /** The watermark as last told. */
    long watermark;
    /** Every window whose fire time is at or below this has fired: the watermark, or one less while deferred. */
    private long firedThrough;

    private final boolean deferAtWatermark;
    /** The watermark before its last advance, while no record has been processed since. */
    private long beforeAdvance;

    private boolean advancePending;
    /**
     * Null unless records are traced and results wait for a later time than their record's
     * (every trigger but {@link Emit.Kind#EVERY_UPDATE}).
     */
    private LastInputs<K> lastInputs;

    WindowProcessor(String storeName, Emit emit, long fireDelay, long fireGranularity, boolean deferAtWatermark) {
        this.storeName = storeName;
        this.emit = emit;
        this.fireDelay = fireDelay;
        this.fires = new FireTimes(fireGranularity);
        this.deferAtWatermark = deferAtWatermark;
    }

    /** Looks up the store; called first in {@link #init}. */
    abstract void openStore(ProcessorContext<?, ?> context);

    /** The windows whose end is in {@code [fromEnd, toEnd]}, ascending by end (then by key). */
    abstract KeyValueIterator<Windowed<K>, VA> endingBetween(long fromEnd, long toEnd);

    /** The current result of {@code window}, or null. */
    abstract VA current(Windowed<K> window);

    /** The timestamp of the records emitted for {@code window}. */
    abstract long resultTime(Windowed<K> window);

    /**
     * Aggregates {@code record} (its key is not null). {@code watermarkBefore} is the watermark
     * before this record's own advance of it, if it advanced it: what Kafka Streams calls the
     * observed stream time before the record, for decisions that must not depend on it.
     */
    abstract void aggregate(Record<K, V> record, long watermarkBefore);

    @Override
    public final void init(ProcessorContext<Windowed<K>, VA> context) {
        this.context = context;
        openStore(context);
        watermark = context.currentWatermark();
        firedThrough = watermark;
        advancePending = false;
        fires.unlistAll();
        if (context instanceof InternalContext internal && internal.traced() && emit.kind() != Emit.Kind.EVERY_UPDATE) {
            lastInputs = new LastInputs<>(internal);
        }
        if (emit.kind() == Emit.Kind.EARLY) {
            early = new EarlyResults<>(emit.earlyRecords().orElse(0));
            emit.earlyInterval()
                    .ifPresent(interval ->
                            context.schedule(interval, PunctuationType.WALL_CLOCK, now -> emitChangedEarly()));
        }
    }

    @Override
    public final void process(Record<K, V> record) {
        if (record.key() == null) {
            throw new IllegalArgumentException(
                    "a record with a null key cannot be aggregated into '" + storeName + "'");
        }
        long current = context.currentWatermark();
        if (current > watermark) {
            onWatermark(current); // not told yet (a context that does not drive event time)
        }
        long before = advancePending && record.timestamp() >= watermark ? beforeAdvance : watermark;
        advancePending = false;
        if (lastInputs == null) {
            aggregate(record, before);
        } else {
            lastInputs.processing(record.headers());
            try {
                aggregate(record, before);
            } finally {
                lastInputs.processing(null);
            }
        }
        fireThrough(watermark); // what was deferred until this record was processed
    }

    @Override
    public final void onWatermark(long newWatermark) {
        if (newWatermark <= watermark) {
            return;
        }
        fireThrough(deferAtWatermark ? newWatermark - 1 : newWatermark);
        beforeAdvance = watermark;
        advancePending = true;
        watermark = newWatermark;
    }

    /** Emits the final result of every window whose fire time is in {@code (firedThrough, through]}. */
    private void fireThrough(long through) {
        if (through <= firedThrough) {
            return;
        }
        if (emit.kind() != Emit.Kind.EVERY_UPDATE && fires.mayFire(firedThrough, through)) {
            long scanned = fires.scanThrough(through);
            long fromEnd = minus(firedThrough, fireDelay) + 1; // firedThrough < through: no overflow
            long toEnd = scanned == Long.MAX_VALUE ? Long.MAX_VALUE : minus(scanned, fireDelay);
            if (fromEnd <= toEnd) {
                try (KeyValueIterator<Windowed<K>, VA> due = endingBetween(fromEnd, toEnd)) {
                    while (due.hasNext()) {
                        KeyValue<Windowed<K>, VA> e = due.next();
                        long fireTime = fireTime(e.key());
                        if (fireTime > through) {
                            fires.add(fireTime); // read by the first scan after a start: list it
                        } else if (fireTime > firedThrough) {
                            if (early != null) {
                                early.remove(e.key());
                            }
                            forward(e.key(), e.value(), Pane.FINAL);
                        }
                    }
                }
            }
            fires.fired(through, scanned);
        }
        firedThrough = through;
    }

    /**
     * {@code window} has a new result {@code value} after a record; {@code records} is how many
     * records changed it since its last early result (more than 1 when sessions merged).
     */
    final void updated(Windowed<K> window, VA value, long records) {
        if (emit.kind() == Emit.Kind.EVERY_UPDATE) {
            forward(window, value, Pane.UPDATE);
            return;
        }
        long fireTime = fireTime(window);
        if (fireTime <= firedThrough) {
            // already fired: a late record within the allowed lateness (or a session merged late)
            forward(window, value, emit.kind() == Emit.Kind.ON_WINDOW_CLOSE ? Pane.FINAL : Pane.LATE);
        } else {
            fires.add(fireTime);
            if (lastInputs != null) {
                lastInputs.updated(window);
            }
            if (early != null && early.changed(window, records)) {
                forward(window, value, Pane.EARLY);
            }
        }
    }

    /**
     * {@code session} was merged into another and removed: if a result of it was emitted, withdraw
     * it with a {@code null} value. Returns the records it had since its last early result.
     */
    final long retracted(Windowed<K> session) {
        if (lastInputs != null) {
            lastInputs.forget(session);
        }
        if (emit.kind() == Emit.Kind.EVERY_UPDATE) {
            forward(session, null, Pane.RETRACT);
            return 0;
        }
        EarlyResults.State<K> state = early == null ? null : early.remove(session);
        if (fireTime(session) <= firedThrough || state != null && state.emitted) {
            forward(session, null, Pane.RETRACT);
        }
        return state == null ? 0 : state.records;
    }

    /** A record too late for {@code [start, end]}: to the late-records topic, never silently dropped. */
    final void late(long start, long end) {
        if (!(context instanceof InternalContext internal)) {
            throw new IllegalStateException("the context of '" + storeName + "-aggregate' cannot report late records");
        }
        internal.reportLate(storeName, start, end);
    }

    /**
     * The interval trigger's early results; none while the instance is behind its inputs (see
     * {@link InternalContext#behind()}): the changed windows wait for an interval when it has
     * caught up, or for their final result. So a task offered more than it can take writes fewer
     * early results, not more (each interval would otherwise write every window that changed in
     * it, and a window stays open for more intervals the slower its records are processed).
     */
    private void emitChangedEarly() {
        if (context instanceof InternalContext internal && internal.behind()) {
            return;
        }
        for (Windowed<K> window : early.drainChanged()) {
            if (fireTime(window) > firedThrough) {
                VA value = current(window);
                if (value != null) {
                    forward(window, value, Pane.EARLY);
                }
            }
        }
    }

    private void forward(Windowed<K> window, VA value, Pane pane) {
        io.weir.processor.Headers headers = lastInputs == null
                ? pane.headers()
                : lastInputs.onto(window, pane.headers(), pane == Pane.FINAL || pane == Pane.RETRACT);
        context.forward(new Record<>(window, value, resultTime(window), headers, null, -1, -1L));
    }

    /** Every window whose fire time is at or below this has fired. */
    final long firedThrough() {
        return firedThrough;
    }

    final long fireTime(Windowed<K> window) {
        return plus(window.end(), fireDelay);
    }

    /** What was deferred fires now: the committed watermark says that every window due at it has fired. */
    @Override
    public final void beforeCommit() {
        fireThrough(watermark);
        advancePending = false; // the runtime commits between records: a punctuation moved the watermark
        committing();
    }

    /**
     * At each commit, after every window due at the watermark has fired and before the stores'
     * writes are sent: what a subclass must write in the same transaction. Nothing by default.
     */
    void committing() {}

    /** The watermark is back at its committed value: what fired since will fire again on the replay. */
    @Override
    public final void afterAbort() {
        fires.unlistThrough(firedThrough);
        watermark = context.currentWatermark();
        firedThrough = watermark;
        advancePending = false;
        if (early != null) {
            early.clear();
        }
    }

    /** {@code time - delta} for {@code delta >= 0}, saturated at {@link Long#MIN_VALUE}. */
    public static long minus(long time, long delta) {
        return time < Long.MIN_VALUE + delta ? Long.MIN_VALUE : time - delta;
    }

    /** {@code time + delta} for {@code delta >= 0}, saturated at {@link Long#MAX_VALUE}. */
    public static long plus(long time, long delta) {
        return time > Long.MAX_VALUE - delta ? Long.MAX_VALUE : time + delta;
    }
}
