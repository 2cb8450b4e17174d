package io.weir.internal.dsl;

import io.weir.common.KeyValue;
import io.weir.dsl.Emit;
import io.weir.dsl.Merger;
import io.weir.dsl.SessionWindows;
import io.weir.processor.ProcessorContext;
import io.weir.processor.ProcessorSupplier;
import io.weir.processor.Record;
import io.weir.state.KeyValueIterator;
import io.weir.state.SessionStore;
import io.weir.state.Windowed;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Aggregates records into sessions, as Kafka Streams' {@code KStreamSessionWindowAggregate}: a
 * record at {@code ts} joins the key's sessions that end at or after {@code ts - gap} and start at
 * or before {@code ts + gap}; the merged session spans them all and the record, and its aggregate
 * is the initializer, merged with each joined session's aggregate in end order, then the record
 * aggregated into it. The joined sessions are removed (and their emitted results retracted).
 *
 * <p>Time, with gap {@code G}, allowed lateness {@code L} and watermark {@code W}, exactly as Kafka
 * Streams with a session store of its default retention ({@code G + L}) and
 * {@code suppress(untilWindowCloses)}:
 * <ul>
 *   <li>a session ending at {@code e} is <em>closed</em> once {@code e + G + L <= W'}, where
 *       {@code W'} is the watermark before the record being processed moved it (Kafka Streams'
 *       store ignores sessions by the stream time it observed before the record): a record does
 *       not join a closed session, it is aggregated without it;</li>
 *   <li>a record is late iff its merged session ends before {@code W - G - L}, or (see below)
 *       would replace a session that already fired; it is reported late for that session;</li>
 *   <li>a session fires at {@code e + G} ({@code e + G + L} for {@code onWindowClose}), after the
 *       record that moved the watermark there is processed (see {@link WindowProcessor}): a record
 *       at {@code e + G} still extends the session.</li>
 * </ul>
 * One deliberate difference from Kafka Streams, at that boundary: a record at exactly
 * {@code W - G - L} that does not move the watermark cannot join the session {@code [ts, ts]} that
 * closed (and fired) at {@code W}; in Kafka Streams it starts a session of the same window that
 * replaces it, so the window is emitted a second time and its final value loses the first record.
 * Weir reports such a record late instead: {@code onWindowClose} emits each session exactly once
 * and nothing is lost (the record is on the late-records topic). A record at that boundary that
 * replaces nothing forms its own session, which fires at once, as in Kafka Streams.
 *
 * <p>Results have the session ({@code end} inclusive) as key, the aggregate as value and the
 * session's end (the time of its last record) as timestamp. The store keeps a session until the
 * watermark reaches {@code e + G + L}: after that no record can join it, and it has fired.
 */
final class SessionWindowProcessor<K, V, VA> extends WindowProcessor<K, V, VA> {

    /** Fire-time buckets per gap: bounds the memory of {@link FireTimes} for sessions. */
    private static final long BUCKETS_PER_GAP = 64;

    /** How the aggregate of a session is made: the three functions of Kafka Streams' session aggregate. */
    record Aggregation<K, V, VA>(Supplier<VA> initializer, AggregateProcessor.Step<K, V, VA> aggregator,
                                 Merger<? super K, VA> merger) {
    }

    private final long gap;
    private final long lateness;
    private final Aggregation<K, V, VA> aggregation;
    private SessionStore<K, VA> store;

    private SessionWindowProcessor(String storeName, SessionWindows windows, Emit emit,
                                   Aggregation<K, V, VA> aggregation) {
        super(storeName, emit, windows.inactivityGap().toMillis()
                        + (emit.kind() == Emit.Kind.ON_WINDOW_CLOSE ? windows.allowedLateness().toMillis() : 0),
                Math.max(1, windows.inactivityGap().toMillis() / BUCKETS_PER_GAP), true);
        this.gap = windows.inactivityGap().toMillis();
        this.lateness = windows.allowedLateness().toMillis();
        this.aggregation = aggregation;
    }

    static <K, V, VA> ProcessorSupplier<K, V, Windowed<K>, VA> supplier(String storeName, SessionWindows windows,
                                                                       Emit emit, Aggregation<K, V, VA> aggregation) {
        return () -> new SessionWindowProcessor<>(storeName, windows, emit, aggregation);
    }

    /**
     * The store's retention: a session is kept while it can still join a record or fire, and one
     * millisecond more, so a record at its closing boundary still finds it (see
     * {@link #replacesFiredSession}).
     */
    static long retentionMs(SessionWindows windows) {
        return windows.inactivityGap().toMillis() + windows.allowedLateness().toMillis() + 1;
    }

    @Override
    void openStore(ProcessorContext<?, ?> context) {
        store = context.getStateStore(storeName);
    }

    @Override
    void aggregate(Record<K, V> record, long watermarkBefore) {
        K key = record.key();
        long ts = record.timestamp();
        long closing = gap + lateness;
        // sessions ending at or before this are closed: Kafka Streams' store ignores them. The second
        // term only matters when a punctuation, not a record, moved the watermark: never join a
        // session that closed and fired
        long closedThrough = Math.max(minus(watermarkBefore, closing), minus(firedThrough(), closing));
        long earliestEnd = Math.max(minus(ts, gap), plus(closedThrough, 1));
        long start = ts;
        long end = ts;
        VA aggregate = aggregation.initializer().get();
        List<Windowed<K>> joined = new ArrayList<>();
        try (KeyValueIterator<Windowed<K>, VA> found = store.findSessions(key, earliestEnd, plus(ts, gap))) {
            while (found.hasNext()) {
                KeyValue<Windowed<K>, VA> session = found.next();
                joined.add(session.key());
                aggregate = aggregation.merger().merge(key, aggregate, session.value());
                start = Math.min(start, session.key().start());
                end = Math.max(end, session.key().end());
            }
        }
        if (end < minus(watermark, closing) || replacesFiredSession(key, start, end, joined)) {
            late(start, end);
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

    /**
     * True if the record's session (not joined with the same window) would overwrite a stored
     * session of the same window that is closed: one that fired when the watermark reached its end
     * plus gap plus lateness. The store keeps such a session one millisecond of watermark longer
     * than it can be joined ({@link #retentionMs}), so this holds whether or not expiry ran.
     */
    private boolean replacesFiredSession(K key, long start, long end, List<Windowed<K>> joined) {
        for (Windowed<K> session : joined) {
            if (session.start() == start && session.end() == end) {
                return false;
            }
        }
        return store.fetchSession(key, start, end) != null;
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
