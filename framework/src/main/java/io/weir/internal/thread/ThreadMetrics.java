package io.weir.internal.thread;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.weir.internal.commit.CommitObserver;
import io.weir.internal.metrics.WeirMeter;
import io.weir.internal.task.Stage;
import io.weir.processor.ErrorResponse;
import java.util.concurrent.TimeUnit;

/**
 * The meters of one stream thread, tagged with {@code application}, {@code instance} and
 * {@code thread} (their entries in {@link WeirMeter} say what each counts), and the commit outcomes
 * its {@link ThreadHealth} publishes. Counts are added per batch, not per record, to keep the hot
 * loop cheap. The thread's restorer, whichever runtime runs it, counts into {@link #restoredRecords()}.
 */
public final class ThreadMetrics implements CommitObserver {

    final Counter recordsIn;
    final Counter recordsOut;
    final Timer processLatency;
    final Timer commitLatency;
    final Counter aborts;
    final Counter deadLettered;
    final Counter rebalances;
    final Counter late;
    private final Counter restored;
    private final MeterRegistry registry;
    private final Tags tags;
    private final ThreadHealth health;
    private final java.util.Map<String, Counter> failures = new java.util.concurrent.ConcurrentHashMap<>();

    /** @param instanceTags {@code application} and {@code instance} */
    public ThreadMetrics(MeterRegistry registry, Tags instanceTags, String threadName, ThreadHealth health) {
        this.registry = registry;
        this.tags = instanceTags.and("thread", threadName);
        this.health = health;
        recordsIn = WeirMeter.RECORDS_IN.counter().tags(tags).register(registry);
        recordsOut = WeirMeter.RECORDS_OUT.counter().tags(tags).register(registry);
        processLatency = WeirMeter.PROCESS_LATENCY.timer().tags(tags).register(registry);
        commitLatency = WeirMeter.COMMIT_LATENCY.timer().tags(tags).register(registry);
        aborts = WeirMeter.COMMIT_ABORTS.counter().tags(tags).register(registry);
        deadLettered = WeirMeter.RECORDS_DEAD_LETTERED.counter().tags(tags).register(registry);
        rebalances = WeirMeter.REBALANCES.counter().tags(tags).register(registry);
        late = WeirMeter.RECORDS_LATE.counter().tags(tags).register(registry);
        restored = WeirMeter.RESTORE_RECORDS.counter().tags(tags).register(registry);
        WeirMeter.TIME_SINCE_LAST_COMMIT
                .gauge(() -> (System.nanoTime() - health.lastCommitNanos()) / 1e9)
                .tags(tags)
                .register(registry);
    }

    /** {@code weir.restore.records}: changelog records the thread's restorer applied to its stores. */
    public Counter restoredRecords() {
        return restored;
    }

    /**
     * Counts {@code n} records that failed at {@code stage} and were handled by {@code action}:
     * {@code weir.records.failed}, and for dead letters also {@code weir.records.dead.lettered}.
     */
    void failed(Stage stage, ErrorResponse.Action action, long n) {
        failed(stage, action).increment(n);
        if (action == ErrorResponse.Action.DEAD_LETTER) {
            deadLettered.increment(n);
        }
    }

    /** The counter of {@code weir.records.failed} for {@code stage} and {@code action}. */
    Counter failed(Stage stage, ErrorResponse.Action action) {
        return failures.computeIfAbsent(
                stage.label() + "/" + action,
                k -> WeirMeter.RECORDS_FAILED
                        .counter()
                        .tags(tags.and(
                                "stage", stage.label(), "action", action.name().toLowerCase(java.util.Locale.ROOT)))
                        .register(registry));
    }

    ThreadHealth health() {
        return health;
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** {@code application}, {@code instance} and {@code thread}. */
    public Tags tags() {
        return tags;
    }

    /** A commit returned normally, whether or not it had anything to commit. */
    void commitSucceeded() {
        health.commitSucceeded();
    }

    /** Registers the event-time lag gauge; both suppliers must be safe to call from any thread. */
    void watermarkLag(java.util.function.LongSupplier lowestWatermark, java.util.function.LongSupplier wallClock) {
        WeirMeter.WATERMARK_LAG
                .gauge(() -> {
                    long wm = lowestWatermark.getAsLong();
                    return wm == Long.MIN_VALUE ? Double.NaN : (double) (wallClock.getAsLong() - wm);
                })
                .tags(tags)
                .register(registry);
    }

    /** Registers the gauge of repartition partitions waiting for a writer; the supplier is read from any thread. */
    void awaitingWriters(java.util.function.IntSupplier partitions) {
        WeirMeter.WATERMARK_AWAITING_WRITERS
                .gauge(partitions::getAsInt)
                .tags(tags)
                .register(registry);
    }

    /** Registers the gauge of partitions paused for a full buffer; the supplier is read from any thread. */
    void pausedPartitions(java.util.function.IntSupplier partitions) {
        WeirMeter.PAUSED_PARTITIONS.gauge(partitions::getAsInt).tags(tags).register(registry);
    }

    @Override
    public void committed(long nanos) {
        commitLatency.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void aborted(String reason) {
        aborts.increment();
        health.commitFailed(reason);
    }

    void processed(int records, long nanos) {
        if (records > 0) {
            recordsIn.increment(records);
            processLatency.record(nanos / records, TimeUnit.NANOSECONDS);
        }
    }
}
