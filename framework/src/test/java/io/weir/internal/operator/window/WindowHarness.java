package io.weir.internal.operator.window;

import io.weir.internal.operator.FakeContext;
import io.weir.internal.state.TaskStores;
import io.weir.internal.task.InternalContext;
import io.weir.internal.topology.StoreSpec;
import io.weir.processor.Cancellable;
import io.weir.processor.ProcessorSupplier;
import io.weir.processor.PunctuationType;
import io.weir.processor.Punctuator;
import io.weir.processor.Record;
import io.weir.processor.TaskId;
import io.weir.state.Windowed;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A task in miniature for the window processors, driven as the runtime drives them with
 * {@code max.out.of.orderness} 0: real stores (in memory, with pending writes, commit, abort and
 * expiry after commit); a watermark that is the largest timestamp piped, told to the processor
 * before the record that advanced it; the committed watermark that an abort or a restart goes
 * back to; emitted and late records split into committed and uncommitted; the wall-clock
 * punctuator, fired on demand.
 */
final class WindowHarness<VA> extends FakeContext<Windowed<String>, VA> implements InternalContext, AutoCloseable {

    /** One emitted record. */
    record Out(String key, long start, long end, Object value, long timestamp, String pane) {
        static Out of(Record<? extends Windowed<String>, ?> r) {
            return new Out(
                    r.key().key(),
                    r.key().start(),
                    r.key().end(),
                    r.value(),
                    r.timestamp(),
                    r.headers().lastString(Pane.HEADER));
        }
    }

    /** One record reported late, with the window it missed. */
    record Late(String operator, long start, long end, Object value, long timestamp) {}

    private final TaskStores stores;
    private final ProcessorSupplier<String, Integer, Windowed<String>, VA> supplier;
    private final List<Out> committed = new ArrayList<>();
    private final List<Out> uncommitted = new ArrayList<>();
    private final List<Late> committedLate = new ArrayList<>();
    private final List<Late> uncommittedLate = new ArrayList<>();
    private final List<Punctuator> wallClock = new ArrayList<>();
    private WindowProcessor<String, Integer, VA> processor;
    private Record<String, Integer> current;
    private long watermark = Long.MIN_VALUE;
    private long committedWatermark = Long.MIN_VALUE;
    /** The store processors get for every name, when a test wraps it (to count reads); null: the real ones. */
    Object storeOverride;

    WindowHarness(StoreSpec store, ProcessorSupplier<String, Integer, Windowed<String>, VA> supplier) {
        this(List.of(store), supplier);
    }

    WindowHarness(List<StoreSpec> specs, ProcessorSupplier<String, Integer, Windowed<String>, VA> supplier) {
        this.stores = TaskStores.open(
                specs.stream()
                        .map(s -> s.withPersistent(false).withLogged(false))
                        .toList(),
                new TaskId(0, 0),
                Path.of("unused"),
                new TaskStores.Options("app", null, Duration.ofHours(1), 0, System::currentTimeMillis));
        this.supplier = supplier;
        start();
    }

    /** A new processor instance over the committed stores and watermark, as after a restart. */
    WindowHarness<VA> restart() {
        stores.abort();
        uncommitted.clear();
        uncommittedLate.clear();
        watermark = committedWatermark;
        start();
        return this;
    }

    private void start() {
        wallClock.clear();
        processor = (WindowProcessor<String, Integer, VA>) supplier.get();
        processor.init(this);
    }

    /** A record arrives: the watermark moves to its time if later, then the record is processed. */
    WindowHarness<VA> pipe(String key, Integer value, long time) {
        if (time > watermark) {
            watermark(time);
        }
        current = new Record<>(key, value, time);
        try {
            processor.process(current);
        } finally {
            current = null;
        }
        return this;
    }

    /** The watermark moves without a record (an idle partition released it). */
    WindowHarness<VA> watermark(long w) {
        watermark = w;
        processor.onWatermark(w);
        return this;
    }

    /** The runtime's commit: held-back results, store writes and the watermark become durable, then expiry. */
    WindowHarness<VA> commit() {
        processor.beforeCommit();
        stores.commit();
        committedWatermark = watermark;
        committed.addAll(uncommitted);
        uncommitted.clear();
        committedLate.addAll(uncommittedLate);
        uncommittedLate.clear();
        stores.dropExpired(watermark);
        return this;
    }

    /** The transaction aborts: its outputs, writes and watermark advance are gone. */
    WindowHarness<VA> abort() {
        stores.abort();
        uncommitted.clear();
        uncommittedLate.clear();
        watermark = committedWatermark;
        processor.afterAbort();
        return this;
    }

    /** Fires the wall-clock schedules. */
    WindowHarness<VA> punctuate() {
        wallClock.forEach(p -> p.punctuate(0));
        return this;
    }

    /** Everything emitted, committed or not. */
    List<Out> emitted() {
        List<Out> all = new ArrayList<>(committed);
        all.addAll(uncommitted);
        return all;
    }

    List<Out> committed() {
        return committed;
    }

    /** Takes what was emitted since the last call, committed or not. */
    List<Out> takeUncommitted() {
        List<Out> taken = new ArrayList<>(uncommitted);
        committed.addAll(uncommitted);
        uncommitted.clear();
        return taken;
    }

    List<Late> late() {
        List<Late> all = new ArrayList<>(committedLate);
        all.addAll(uncommittedLate);
        return all;
    }

    <S> S store(String name) {
        @SuppressWarnings("unchecked")
        S s = (S) stores.typedByName().get(name);
        return s;
    }

    int wallClockSchedules() {
        return wallClock.size();
    }

    @Override
    public void forward(Record<? extends Windowed<String>, ? extends VA> record) {
        uncommitted.add(Out.of(record));
    }

    @Override
    public Cancellable schedule(Duration interval, PunctuationType type, Punctuator punctuator) {
        if (type != PunctuationType.WALL_CLOCK) {
            throw new AssertionError("the window processors schedule on the wall clock only");
        }
        wallClock.add(punctuator);
        return () -> wallClock.remove(punctuator);
    }

    @Override
    public long currentWatermark() {
        return watermark;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <S> S getStateStore(String name) {
        return (S) (storeOverride != null ? storeOverride : stores.typedByName().get(name));
    }

    @Override
    public void reportLate(String operator, long windowStart, long windowEnd) {
        uncommittedLate.add(new Late(operator, windowStart, windowEnd, current.value(), current.timestamp()));
    }

    @Override
    public void close() {
        stores.close();
    }

    @Override
    public java.util.List<String> childNames() {
        return java.util.List.of();
    }

    /** What {@link #behind()} answers: a test sets it to model a task far behind its input. */
    boolean behind;

    @Override
    public boolean behind() {
        return behind;
    }
}
