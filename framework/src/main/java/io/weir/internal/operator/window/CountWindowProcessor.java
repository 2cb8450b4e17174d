package io.weir.internal.operator.window;

import io.weir.dsl.CountWindows;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.operator.aggregate.AggregateProcessor;
import io.weir.internal.task.CommitAwareProcessor;
import io.weir.internal.time.EventTimeProcessor;
import io.weir.processor.Headers;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.ProcessorSupplier;
import io.weir.processor.Record;
import io.weir.serde.Serde;
import io.weir.state.KeyValueIterator;
import io.weir.state.KeyValueStore;
import io.weir.state.Windowed;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ListIterator;

/**
 * Count windows per key ({@link CountWindows}): counts each key's records in arrival order, opens
 * a window at every {@code slide}-th record, and emits a window once when it holds {@code size}
 * records ({@code weir.pane=final}) or, with a time-out, when the watermark reaches its first
 * record's time plus the time-out ({@code weir.pane=timeout}, partially filled).
 *
 * <p>Output: key {@code Windowed(key, earliest record time, latest record time)}, both inclusive
 * (the first and last record's times when the key's records are in time order), value the
 * aggregate, timestamp the latest record time. A full window is emitted from the record that
 * filled it (its headers and origin, plus the pane header); a timed-out one is a new record.
 *
 * <p>Time-outs: a window is due when {@code first + timeout <= watermark} and is emitted by the
 * first {@link #onWatermark} or {@link #process} of its key that sees such a watermark; so a window
 * opened by a record already older than {@code watermark - timeout} is emitted at once, holding that
 * record alone. When a key's windows all close, its slide phase restarts with its next record;
 * when one of several sliding windows times out, the others keep counting. A longer time-out after
 * a restart applies to windows already open; a shorter one to them only from their old deadline
 * or the key's next record.
 *
 * <p>State: everything lives in one key-value store of raw bytes ({@link CountWindowKeys}): the
 * open windows and slide phase of each key, and a time index by earliest deadline, of which each
 * watermark reads only the due prefix. A key whose windows all closed has no entries, so its next
 * record starts counting again. Emissions happen while processing a record or a watermark, in the
 * transaction that writes the store; the only thing in memory is a lower bound of the index's
 * deadlines, which is forgotten on an abort or restart (the next watermark re-reads the index).
 */
public final class CountWindowProcessor<K, V, VA>
        implements Processor<K, V, Windowed<K>, VA>, EventTimeProcessor, CommitAwareProcessor {

    static final String PANE = Pane.HEADER;
    static final String FINAL = Pane.FINAL.label();
    /** The pane of a window closed by its time-out, partially filled. */
    static final String TIMEOUT = "timeout";

    private static final int DUE_BATCH = 1_000;
    private static final byte[] PRESENT = new byte[0];
    private static final Headers TIMEOUT_HEADERS = Headers.empty().with(PANE, TIMEOUT);

    private final String storeName;
    private final long size;
    private final long slide;
    /** Negative for no time-out. */
    private final long timeoutMs;

    private final Serde<K> keySerde;
    private final CountWindowCodec<VA> codec;
    private final AggregateProcessor.Step<K, V, VA> step;
    private ProcessorContext<Windowed<K>, VA> context;
    private KeyValueStore<byte[], byte[]> store;
    /** The changelog topic, which the serdes are told. */
    private String topic;
    /** No index deadline is below this; {@link Long#MIN_VALUE} when unknown. Memory only. */
    private long earliestDeadline = Long.MIN_VALUE;

    private CountWindowProcessor(
            String storeName,
            CountWindows windows,
            Serde<K> keySerde,
            Serde<VA> aggregateSerde,
            AggregateProcessor.Step<K, V, VA> step) {
        this.storeName = storeName;
        this.size = windows.size();
        this.slide = windows.slide();
        this.timeoutMs = windows.timeout().map(CountWindowProcessor::millis).orElse(-1L);
        this.keySerde = keySerde;
        this.codec = new CountWindowCodec<>(aggregateSerde);
        this.step = step;
    }

    public static <K, V, VA> ProcessorSupplier<K, V, Windowed<K>, VA> supplier(
            String storeName,
            CountWindows windows,
            Serde<K> keySerde,
            Serde<VA> aggregateSerde,
            AggregateProcessor.Step<K, V, VA> step) {
        return () -> new CountWindowProcessor<>(storeName, windows, keySerde, aggregateSerde, step);
    }

    @Override
    public void init(ProcessorContext<Windowed<K>, VA> context) {
        this.context = context;
        this.store = context.getStateStore(storeName);
        this.topic = InternalTopic.CHANGELOG.of(context.applicationId(), storeName);
        this.earliestDeadline = Long.MIN_VALUE;
    }

    @Override
    public void process(Record<K, V> record) {
        K key = record.key();
        if (key == null) {
            throw new IllegalArgumentException(
                    "a record with a null key cannot be counted into the count windows" + " of '" + storeName + "'");
        }
        byte[] keyBytes = keySerde.serialize(topic, key);
        if (keyBytes == null) {
            throw new IllegalArgumentException("the key serde of '" + storeName + "' turned " + key + " into null");
        }
        CountWindowState<VA> before = load(keyBytes);
        List<CountWindowState.Window<VA>> open = new ArrayList<>(before.windows());
        long phase = open.isEmpty() ? 0 : before.phase();
        long time = record.timestamp();
        if (phase == 0) {
            open.add(new CountWindowState.Window<>(time, time, time, 0, null));
        }
        // User code (aggregator, serdes) runs first: a record that fails leaves no trace.
        List<CountWindowState.Window<VA>> full = new ArrayList<>(1);
        for (ListIterator<CountWindowState.Window<VA>> it = open.listIterator(); it.hasNext(); ) {
            CountWindowState.Window<VA> w = it.next();
            CountWindowState.Window<VA> updated = w.plus(time, step.apply(key, record.value(), w.aggregate()));
            if (updated.count() < size) {
                it.set(updated);
            } else {
                it.remove();
                full.add(updated);
            }
        }
        List<CountWindowState.Window<VA>> timedOut = removeDue(open, context.currentWatermark());
        save(keyBytes, before, new CountWindowState<>((phase + 1) % slide, open));
        if (!full.isEmpty()) {
            Headers headers = record.headers().without(PANE).with(PANE, FINAL);
            for (CountWindowState.Window<VA> w : full) {
                context.forward(record.<Windowed<K>, VA>with(windowed(key, w), w.aggregate())
                        .withTimestamp(w.max())
                        .withHeaders(headers));
            }
        }
        emitTimedOut(key, timedOut);
    }

    /** Emits the windows whose time-out the watermark reached, in deadline order of their keys. */
    @Override
    public void onWatermark(long watermark) {
        if (timeoutMs < 0 || watermark < earliestDeadline) {
            return;
        }
        boolean more = true;
        while (more) {
            List<byte[]> due = new ArrayList<>();
            long next = Long.MAX_VALUE;
            try (KeyValueIterator<byte[], byte[]> it = store.prefixScan(CountWindowKeys.INDEX_PREFIX)) {
                while (it.hasNext()) {
                    byte[] indexKey = it.next().key();
                    long deadline = CountWindowKeys.deadline(indexKey);
                    if (deadline > watermark || due.size() == DUE_BATCH) {
                        next = deadline;
                        break;
                    }
                    due.add(indexKey);
                }
            }
            earliestDeadline = next;
            more = due.size() == DUE_BATCH;
            for (byte[] indexKey : due) {
                store.put(indexKey, null);
                closeDue(CountWindowKeys.keyOfIndex(indexKey), watermark);
            }
        }
    }

    private void closeDue(byte[] keyBytes, long watermark) {
        CountWindowState<VA> before = load(keyBytes);
        List<CountWindowState.Window<VA>> open = new ArrayList<>(before.windows());
        List<CountWindowState.Window<VA>> timedOut = removeDue(open, watermark);
        if (timedOut.isEmpty()) {
            // A stale index entry (left by a run with another time-out): index the key where it is due now.
            if (!before.isEmpty()) {
                index(keyBytes, before.earliestDeadline(timeoutMs));
            }
            return;
        }
        K key = keySerde.deserialize(topic, keyBytes);
        save(keyBytes, before, new CountWindowState<>(before.phase(), open));
        emitTimedOut(key, timedOut);
    }

    /** Removes from {@code open} the windows due at {@code watermark} and returns them. */
    private List<CountWindowState.Window<VA>> removeDue(List<CountWindowState.Window<VA>> open, long watermark) {
        if (timeoutMs < 0) {
            return List.of();
        }
        List<CountWindowState.Window<VA>> due = new ArrayList<>(0);
        for (Iterator<CountWindowState.Window<VA>> it = open.iterator(); it.hasNext(); ) {
            CountWindowState.Window<VA> w = it.next();
            if (w.deadline(timeoutMs) <= watermark) {
                it.remove();
                due.add(w);
            }
        }
        return due;
    }

    private void emitTimedOut(K key, List<CountWindowState.Window<VA>> timedOut) {
        for (CountWindowState.Window<VA> w : timedOut) {
            context.forward(new Record<>(windowed(key, w), w.aggregate(), w.max(), TIMEOUT_HEADERS, null, -1, -1L));
        }
    }

    /** Writes a key's state (none once its windows are all closed) and moves its index entry. */
    private void save(byte[] keyBytes, CountWindowState<VA> before, CountWindowState<VA> after) {
        byte[] stateKey = CountWindowKeys.state(keyBytes);
        store.put(stateKey, after.isEmpty() ? null : codec.encode(topic, after));
        if (timeoutMs < 0) {
            return;
        }
        long was = before.earliestDeadline(timeoutMs);
        long is = after.earliestDeadline(timeoutMs);
        if (was == is) {
            return;
        }
        if (!before.isEmpty()) {
            store.put(CountWindowKeys.index(was, keyBytes), null);
        }
        if (!after.isEmpty()) {
            index(keyBytes, is);
        }
    }

    private void index(byte[] keyBytes, long deadline) {
        store.put(CountWindowKeys.index(deadline, keyBytes), PRESENT);
        earliestDeadline = Math.min(earliestDeadline, deadline);
    }

    private CountWindowState<VA> load(byte[] keyBytes) {
        byte[] bytes = store.get(CountWindowKeys.state(keyBytes));
        return bytes == null ? CountWindowState.empty() : codec.decode(topic, bytes);
    }

    private static <K> Windowed<K> windowed(K key, CountWindowState.Window<?> w) {
        return new Windowed<>(key, w.min(), w.max());
    }

    private static long millis(java.time.Duration d) {
        try {
            return d.toMillis();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    @Override
    public void beforeCommit() {
        // nothing held back: windows are emitted as they close
    }

    @Override
    public void afterAbort() {
        earliestDeadline = Long.MIN_VALUE; // the aborted writes may have moved the index
    }
}
