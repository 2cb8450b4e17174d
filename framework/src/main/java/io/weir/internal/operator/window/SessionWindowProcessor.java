package io.weir.internal.operator.window;

import io.weir.common.KeyValue;
import io.weir.dsl.Emit;
import io.weir.dsl.Merger;
import io.weir.dsl.SessionWindows;
import io.weir.internal.operator.aggregate.AggregateProcessor;
import io.weir.internal.topology.StoreSpec;
import io.weir.processor.ProcessorContext;
import io.weir.processor.ProcessorSupplier;
import io.weir.processor.Record;
import io.weir.serde.Serde;
import io.weir.state.KeyValueIterator;
import io.weir.state.KeyValueStore;
import io.weir.state.SessionStore;
import io.weir.state.Windowed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Aggregates records into sessions, as Kafka Streams' {@code KStreamSessionWindowAggregate}: a
 * record at {@code ts} joins the key's open sessions that end at or after {@code ts - gap} and
 * start at or before {@code ts + gap}; the merged session spans them all and the record, and its
 * aggregate is the initializer, merged with each joined session's aggregate in end order, then the
 * record aggregated into it. The joined sessions are removed (and their emitted results retracted).
 *
 * <p>Time, with gap {@code G}, allowed lateness {@code L} and watermark {@code W}, as Kafka Streams
 * with a session store of its default retention ({@code G + L}) and
 * {@code suppress(untilWindowCloses)}, but for one rule (DESIGN.md's, Flink's): a session that has
 * closed is never extended or overlapped.
 * <ul>
 *   <li>a session ending at {@code e} is <em>closed</em> once {@code e + G + L <= W'}, where
 *       {@code W'} is the watermark before the record being processed moved it (Kafka Streams'
 *       store ignores sessions by the stream time it observed before the record). After a
 *       punctuation, not a record, moved the watermark to {@code W}, the next record at or after
 *       {@code W} counts as the one that moved it, but the sessions that fired are closed for it:
 *       those with {@code e + G + L < W};</li>
 *   <li>a record is late iff its merged session ends before {@code W - G - L}, or it falls within
 *       the gap of a closed session ({@code start - G <= ts <= end + G}). It is reported late for
 *       its merged session in the first case, else for the closed session it would touch. Kafka
 *       Streams, whose store no longer returns a closed session, accepts such a record: it starts
 *       a session beside the closed one or extends an open one over its gap, and a record at
 *       exactly {@code W - G - L} replaces a closed session {@code [ts, ts]} and emits its window a
 *       second time. Weir reports it late, so every session is emitted once ({@code onWindowClose})
 *       and sessions of a key stay more than {@code G} apart;</li>
 *   <li>a session fires at {@code e + G} ({@code e + G + L} for {@code onWindowClose}), after the
 *       record that moved the watermark there is processed (see {@link WindowProcessor}): a record
 *       at {@code e + G} still extends the session.</li>
 * </ul>
 *
 * <p>How the rule is kept: sessions of a key close in end order, so the key's <em>last closed</em>
 * session decides. A record with {@code ts - G} at or before its end either falls within its gap,
 * or lies before its gap: then it joins no open session (those start more than {@code G} after
 * that session) and its own session ends before {@code W - G - L}. Late either way, and if its
 * session does not end too early, what it touches is the last closed session. The session store
 * drops a session at the first commit at which it is closed (its retention is {@code G + L});
 * just before, at that commit ({@link #committing}), the session goes into the key-value store
 * {@code <store>-last-closed} if it ends after the key's entry there, in the same transaction. So
 * the last closed session of a key is in one of the two stores, through restarts (both are
 * logged) and aborts. A record looks into {@code <store>-last-closed} only if {@code ts - G} is at
 * or before the closed sessions' ends, that is when it is at least {@code L} behind the watermark.
 *
 * <p>Entries of {@code <store>-last-closed} are never removed, only replaced: one per key that ever
 * had a closed session, as a table of the keys. No age makes one safe to drop: an open session
 * grows backwards by every record within {@code G} before its start (none is late, the merged
 * session is open), so any open session, however late it started, can be brought within the gap
 * of the key's last closed session, however old, and only the entry then makes the record that
 * would touch it late. An application upgraded from a version without that store starts with it
 * empty: sessions that closed before the upgrade and were dropped from the session store are not
 * known to it.
 *
 * <p>Results have the session ({@code end} inclusive) as key, the aggregate as value and the
 * session's end (the time of its last record) as timestamp.
 */
public final class SessionWindowProcessor<K, V, VA> extends WindowProcessor<K, V, VA> {

    /** Fire-time buckets per gap: bounds the memory of {@link FireTimes} for sessions. */
    private static final long BUCKETS_PER_GAP = 64;

    /** How the aggregate of a session is made: the three functions of Kafka Streams' session aggregate. */
    public record Aggregation<K, V, VA>(
            Supplier<VA> initializer, AggregateProcessor.Step<K, V, VA> aggregator, Merger<? super K, VA> merger) {}

    private final long gap;
    private final long lateness;
    private final Aggregation<K, V, VA> aggregation;
    private SessionStore<K, VA> store;
    /** The latest closed session of each key that had one, once it left {@link #store}. */
    private KeyValueStore<K, ClosedSession> lastClosed;

    private SessionWindowProcessor(
            String storeName, SessionWindows windows, Emit emit, Aggregation<K, V, VA> aggregation) {
        super(
                storeName,
                emit,
                windows.inactivityGap().toMillis()
                        + (emit.kind() == Emit.Kind.ON_WINDOW_CLOSE
                                ? windows.allowedLateness().toMillis()
                                : 0),
                Math.max(1, windows.inactivityGap().toMillis() / BUCKETS_PER_GAP),
                true);
        this.gap = windows.inactivityGap().toMillis();
        this.lateness = windows.allowedLateness().toMillis();
        this.aggregation = aggregation;
    }

    public static <K, V, VA> ProcessorSupplier<K, V, Windowed<K>, VA> supplier(
            String storeName, SessionWindows windows, Emit emit, Aggregation<K, V, VA> aggregation) {
        return () -> new SessionWindowProcessor<>(storeName, windows, emit, aggregation);
    }

    /**
     * The stores of the aggregation into {@code storeName}: the session store, then
     * {@code <store>-last-closed}; both persistent and logged.
     */
    public static List<StoreSpec> stores(
            String storeName, Serde<?> keySerde, Serde<?> aggregateSerde, SessionWindows windows) {
        return List.of(
                new StoreSpec(
                        storeName,
                        keySerde,
                        aggregateSerde,
                        true,
                        true,
                        null,
                        StoreSpec.Kind.SESSION,
                        0,
                        Duration.ofMillis(retentionMs(windows))),
                new StoreSpec(lastClosedStoreName(storeName), keySerde, ClosedSession.SERDE, true, true, null));
    }

    /**
     * The session store's retention: a session is kept while it can still join a record or fire;
     * at the commit at which it closes it goes into {@code <store>-last-closed}, then expires.
     */
    static long retentionMs(SessionWindows windows) {
        return windows.inactivityGap().toMillis() + windows.allowedLateness().toMillis();
    }

    /** The name of the store of each key's latest closed session, beside session store {@code storeName}. */
    static String lastClosedStoreName(String storeName) {
        return storeName + "-last-closed";
    }

    @Override
    void openStore(ProcessorContext<?, ?> context) {
        store = context.getStateStore(storeName);
        lastClosed = context.getStateStore(lastClosedStoreName(storeName));
    }

    @Override
    void aggregate(Record<K, V> record, long watermarkBefore) {
        K key = record.key();
        long ts = record.timestamp();
        long closing = gap + lateness;
        // sessions ending at or before this are closed: Kafka Streams' store ignores them. The second
        // term only matters when a punctuation, not a record, moved the watermark: a session that
        // fired is closed
        long closedThrough = Math.max(minus(watermarkBefore, closing), minus(firedThrough(), closing));
        long start = ts;
        long end = ts;
        VA aggregate = aggregation.initializer().get();
        List<Windowed<K>> joined = new ArrayList<>();
        ClosedSession touched = null; // the latest closed session within the gap of the record
        try (KeyValueIterator<Windowed<K>, VA> found = store.findSessions(key, minus(ts, gap), plus(ts, gap))) {
            while (found.hasNext()) {
                KeyValue<Windowed<K>, VA> session = found.next();
                Windowed<K> window = session.key();
                if (window.end() <= closedThrough) {
                    touched = later(touched, new ClosedSession(window.start(), window.end()));
                    continue;
                }
                joined.add(window);
                aggregate = aggregation.merger().merge(key, aggregate, session.value());
                start = Math.min(start, window.start());
                end = Math.max(end, window.end());
            }
        }
        // ts - G at or before the end of a closed session makes the record late: it falls within its
        // gap, or lies before it and its own session ends too early (see above)
        boolean reachesClosed = touched != null;
        if (minus(ts, gap) <= closedThrough) { // else no closed session ends that late
            ClosedSession last = lastClosed.get(key);
            if (last != null && last.end() >= minus(ts, gap)) {
                reachesClosed = true;
                if (last.touches(ts, gap)) {
                    touched = later(touched, last);
                }
            }
        }
        if (end < minus(watermark, closing)) {
            late(start, end);
            return;
        }
        if (reachesClosed) {
            // not too early, so it touches the key's last closed session, unless the store holds
            // sessions less than G apart (written by a version without this rule)
            late(touched != null ? touched.start() : start, touched != null ? touched.end() : end);
            return;
        }
        long records = 1;
        for (Windowed<K> session : joined) {
            if (session.start() != start || session.end() != end) { // the same window is overwritten below
                store.remove(session);
                records += retracted(session);
            }
        }
        aggregate = aggregation.aggregator().apply(key, record.value(), aggregate);
        Windowed<K> merged = new Windowed<>(key, start, end);
        store.put(merged, aggregate);
        updated(merged, aggregate, records);
    }

    private static ClosedSession later(ClosedSession a, ClosedSession b) {
        return a == null || b.end() > a.end() ? b : a;
    }

    /**
     * Every session that is closed at the watermark (and has fired, {@link WindowProcessor} sees to
     * that first) and ends after its key's entry in {@code <store>-last-closed} replaces that entry,
     * in the transaction after which the session store drops it. In end order, so the latest wins.
     */
    @Override
    void committing() {
        try (KeyValueIterator<Windowed<K>, VA> closed =
                store.fetchAll(Long.MIN_VALUE, minus(watermark, gap + lateness))) {
            while (closed.hasNext()) {
                Windowed<K> session = closed.next().key();
                ClosedSession last = lastClosed.get(session.key());
                if (last == null || last.end() < session.end()) {
                    lastClosed.put(session.key(), new ClosedSession(session.start(), session.end()));
                }
            }
        }
    }

    @Override
    KeyValueIterator<Windowed<K>, VA> endingBetween(long fromEnd, long toEnd) {
        return store.fetchAll(fromEnd, toEnd);
    }

    @Override
    VA current(Windowed<K> window) {
        return store.fetchSession(window.key(), window.start(), window.end());
    }

    @Override
    long resultTime(Windowed<K> window) {
        return window.end();
    }
}
