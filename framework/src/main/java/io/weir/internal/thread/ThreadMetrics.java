package io.weir.internal.thread;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.weir.internal.commit.CommitObserver;
import java.util.concurrent.TimeUnit;

/**
 * The meters of one stream thread, tagged with {@code application}, {@code instance} and
 * {@code thread}, and the commit outcomes its {@link ThreadHealth} publishes. Counts are added per
 * batch, not per record, to keep the hot loop cheap.
 *
 * <ul>
 *   <li>{@code weir.records.in}, {@code weir.records.out}: records consumed and produced</li>
 *   <li>{@code weir.process.latency}: mean processing time per record of each polled batch</li>
 *   <li>{@code weir.commit.latency}: duration of each commit (its count is the commit count)</li>
 *   <li>{@code weir.commit.aborts}: aborted transactions and abandoned commits</li>
 *   <li>{@code weir.records.dead.lettered}: records written to the dead-letter topic</li>
 *   <li>{@code weir.rebalances}: partition assignments this thread received</li>
 *   <li>{@code weir.records.late}: records too late for a window, written to the late-records
 *       topic or dropped ({@code late.records.mode})</li>
 *   <li>{@code weir.watermark.lag}: wall-clock time minus the smallest watermark of the thread's
 *       tasks, in milliseconds (how far event time trails); NaN before any task has a watermark</li>
 *   <li>{@code weir.watermark.awaiting.writers}: the thread's repartition partitions whose time
 *       waits to hear from a task writing to them (a task that has not started, or has not read
 *       anything yet); a partition counted for long holds its reader's watermark back</li>
 *   <li>{@code weir.time.since.last.commit}: seconds since the thread's last successful commit (a
 *       commit that found nothing to commit counts: the thread owes Kafka nothing older)</li>
 * </ul>
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
    private final MeterRegistry registry;
    private final Tags tags;
    private final ThreadHealth health;

    /** @param instanceTags {@code application} and {@code instance} */
    public ThreadMetrics(MeterRegistry registry, Tags instanceTags, String threadName, ThreadHealth health) {
        this.registry = registry;
        this.tags = instanceTags.and("thread", threadName);
        this.health = health;
        recordsIn = Counter.builder("weir.records.in")
                .description("records consumed")
                .tags(tags)
                .register(registry);
        recordsOut = Counter.builder("weir.records.out")
                .description("records produced to output topics")
                .tags(tags)
                .register(registry);
        processLatency = Timer.builder("weir.process.latency")
                .description("mean processing time per record of each polled batch")
                .tags(tags)
                .register(registry);
        commitLatency = Timer.builder("weir.commit.latency")
                .description("duration of a commit")
                .tags(tags)
                .register(registry);
        aborts = Counter.builder("weir.commit.aborts")
                .description("aborted transactions or abandoned commits")
                .tags(tags)
                .register(registry);
        deadLettered = Counter.builder("weir.records.dead.lettered")
                .description("records written to the dead-letter topic")
                .tags(tags)
                .register(registry);
        rebalances = Counter.builder("weir.rebalances")
                .description("assignments received")
                .tags(tags)
                .register(registry);
        late = Counter.builder("weir.records.late")
                .description("records too late for their window")
                .tags(tags)
                .register(registry);
        io.micrometer.core.instrument.Gauge.builder(
                        "weir.time.since.last.commit", () -> (System.nanoTime() - health.lastCommitNanos()) / 1e9)
                .description("time since the thread's last successful commit")
                .baseUnit("seconds")
                .tags(tags)
                .register(registry);
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
        io.micrometer.core.instrument.Gauge.builder("weir.watermark.lag", () -> {
                    long wm = lowestWatermark.getAsLong();
                    return wm == Long.MIN_VALUE ? Double.NaN : (double) (wallClock.getAsLong() - wm);
                })
                .description("wall-clock time minus the smallest watermark of the thread's tasks")
                .baseUnit("milliseconds")
                .tags(tags)
                .register(registry);
    }

    /** Registers the gauge of repartition partitions waiting for a writer; the supplier is read from any thread. */
    void awaitingWriters(java.util.function.IntSupplier partitions) {
        io.micrometer.core.instrument.Gauge.builder("weir.watermark.awaiting.writers", partitions::getAsInt)
                .description("repartition partitions whose time waits to hear from a task writing to them")
                .tags(tags)
                .register(registry);
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
