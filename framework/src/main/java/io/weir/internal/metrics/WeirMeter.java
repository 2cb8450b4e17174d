package io.weir.internal.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * The catalogue of every meter Weir registers: its Micrometer name, kind, base unit, tag keys and
 * description, and the Prometheus series {@code /metrics} exports for it. Code registers a meter
 * only through its entry ({@link #counter()}, {@link #timer()}, {@link #gauge}), which fixes the
 * name, description and unit; the caller adds the tag values and the registry. So the docs' table
 * ({@link MetricsTable}), the chart's alerts and the dashboards are checked against one list,
 * and a renamed meter breaks those checks instead of an operator's alert.
 *
 * <p>Internal on purpose: operators program against the Prometheus series, which docs/operating.md
 * lists from this catalogue, not against a Java type; an application that passes its own registry
 * finds Weir's meters there by the names in that table.
 */
public enum WeirMeter {
    RECORDS_IN("weir.records.in", Kind.COUNTER, "", Tags.THREAD, "records consumed"),
    RECORDS_OUT(
            "weir.records.out",
            Kind.COUNTER,
            "",
            Tags.THREAD,
            "records written to output topics (committed ones under exactly-once)"),
    PROCESS_LATENCY(
            "weir.process.latency",
            Kind.TIMER,
            "",
            Tags.THREAD,
            "mean processing time per record of each polled batch"),
    COMMIT_LATENCY(
            "weir.commit.latency",
            Kind.TIMER,
            "",
            Tags.THREAD,
            "duration of each commit; its count is the number of commits"),
    COMMIT_ABORTS("weir.commit.aborts", Kind.COUNTER, "", Tags.THREAD, "aborted transactions and abandoned commits"),
    TIME_SINCE_LAST_COMMIT(
            "weir.time.since.last.commit",
            Kind.GAUGE,
            "seconds",
            Tags.THREAD,
            "time since the thread's last successful commit (a commit with nothing to commit counts)"),
    CONSUMER_LAG(
            "weir.consumer.lag",
            Kind.GAUGE,
            "records",
            Tags.thread("task", "topic", "partition"),
            "records between the thread's position and the end of each input partition it owns"
                    + " (sampled once a second)"),
    RECORDS_DEAD_LETTERED(
            "weir.records.dead.lettered", Kind.COUNTER, "", Tags.THREAD, "records written to the dead-letter topic"),
    RECORDS_FAILED(
            "weir.records.failed",
            Kind.COUNTER,
            "",
            Tags.thread("stage", "action"),
            "records that failed, by stage (deserialize, timestamp, process, call, produce) and by what the error"
                    + " handler decided: dead_letter, continue (skipped) or fail (committed ones under exactly-once,"
                    + " fail when decided)"),
    RECORDS_LATE(
            "weir.records.late",
            Kind.COUNTER,
            "",
            Tags.THREAD,
            "records too late for their window (written to the late-records topic or dropped)"),
    REBALANCES("weir.rebalances", Kind.COUNTER, "", Tags.THREAD, "assignments received"),
    WATERMARK_LAG(
            "weir.watermark.lag",
            Kind.GAUGE,
            "milliseconds",
            Tags.THREAD,
            "wall-clock time minus the smallest watermark of the thread's tasks: how far event time trails"
                    + " (NaN before any task has a watermark)"),
    WATERMARK_AWAITING_WRITERS(
            "weir.watermark.awaiting.writers",
            Kind.GAUGE,
            "",
            Tags.THREAD,
            "repartition partitions whose event time still waits to hear from a task writing to them (one not"
                    + " started, or that has read nothing yet for less than idle.timeout.ms); counted for long,"
                    + " it holds windows after a repartition open",
            "[Time and windows](time-and-windows.md#watermarks)"),
    GLOBAL_ROWS(
            "weir.global.rows",
            Kind.GAUGE,
            "",
            Tags.instance("topic"),
            "rows of the global table kept from the topic",
            "[Tables and joins](tables-and-joins.md#global-tables)"),
    GLOBAL_LAG(
            "weir.global.lag",
            Kind.GAUGE,
            "records",
            Tags.instance("topic"),
            "records of a global table's topic the instance has not applied yet (sampled once a second)"),
    GLOBAL_RESTORED_RECORDS(
            "weir.global.restored.records",
            Kind.GAUGE,
            "records",
            Tags.instance("topic"),
            "records of a global table's topic read at start-up before processing: the whole topic the first"
                    + " time, the tail since the table's checkpoint after a restart"),
    STORE_ENTRIES(
            "weir.store.entries",
            Kind.GAUGE,
            "",
            Tags.instance("store"),
            "entries of a store over the tasks this instance runs (RocksDB's estimate: a deleted key counts"
                    + " until compaction drops it); for window, session and join-buffer stores it shows"
                    + " retention at work"),
    RESTORE_RECORDS("weir.restore.records", Kind.COUNTER, "", Tags.THREAD, "changelog records restored into stores"),
    RESTORE_INGESTED_RECORDS(
            "weir.restore.ingested.records",
            Kind.COUNTER,
            "",
            Tags.THREAD,
            "the part of weir.restore.records loaded by ingestion: stores restore.bulk.min.records or more"
                    + " behind, restored through sorted files linked into RocksDB",
            "[State](state.md#what-happens-to-state-on-commit-crash-and-restart)"),
    RESTORE_REMAINING(
            "weir.restore.remaining",
            Kind.GAUGE,
            "records",
            Tags.thread("task", "store"),
            "changelog offsets left to restore into a store (only while it restores)"),
    RESTORE_SKIPPED(
            "weir.restore.skipped",
            Kind.COUNTER,
            "",
            Tags.THREAD,
            "records of a table's compacted source topic that a restore skipped because processing rejects"
                    + " them (they went to the dead-letter topic)"),
    STANDBY_LAG_RECORDS(
            "weir.standby.lag.records",
            Kind.GAUGE,
            "records",
            Tags.instance("task", "store"),
            "changelog records a standby (or warm-up) store has not applied yet"),
    STANDBY_LAG_SECONDS(
            "weir.standby.lag.seconds",
            Kind.GAUGE,
            "seconds",
            Tags.instance("task", "store"),
            "how long since a standby store last had applied its whole changelog"),
    STANDBY_TASKS(
            "weir.standby.tasks",
            Kind.GAUGE,
            "",
            Tags.INSTANCE,
            "standby tasks (warm-ups included) this instance keeps"),
    WARMUP_TASKS(
            "weir.warmup.tasks",
            Kind.GAUGE,
            "",
            Tags.INSTANCE,
            "standby tasks placed here to take over a task once caught up (a part of weir.standby.tasks)"),
    STANDBY_HANDOVERS(
            "weir.standby.handovers",
            Kind.COUNTER,
            "",
            Tags.INSTANCE,
            "standby (or warm-up) copies whose open stores became the stores of the task when it became active"
                    + " here",
            "[Scaling](scaling.md)"),
    FAILURE_DETECTION_REMOVALS(
            "weir.failure.detection.removals",
            Kind.COUNTER,
            "",
            Tags.INSTANCE,
            "silent instances this instance removed from the consumer group"),
    FAILURE_DETECTION_PEERS(
            "weir.failure.detection.peers",
            Kind.GAUGE,
            "",
            Tags.INSTANCE,
            "other instances heard from within failure.detection.ms"),
    INSTANCE_STATE(
            "weir.instance.state",
            Kind.GAUGE,
            "",
            Tags.instance("state"),
            "1 for the instance's current state, 0 for the others"),
    INSTANCE_READY("weir.instance.ready", Kind.GAUGE, "", Tags.INSTANCE, "1 while /health/ready answers 200"),
    INSTANCE_STALLED(
            "weir.instance.stalled",
            Kind.GAUGE,
            "",
            Tags.INSTANCE,
            "1 while the instance cannot make progress (see its WARN log)",
            "[below](#when-an-instance-cannot-make-progress)"),
    ROCKSDB_MEMORY_USAGE(
            "weir.rocksdb.memory.usage",
            Kind.GAUGE,
            "bytes",
            Tags.INSTANCE,
            "bytes held in the block cache and memtables shared by every RocksDB store"),
    ROCKSDB_MEMORY_LIMIT(
            "weir.rocksdb.memory.limit",
            Kind.GAUGE,
            "bytes",
            Tags.INSTANCE,
            "the limit of weir.rocksdb.memory.usage: the setting rocksdb.memory.bytes"),
    ASYNC_IN_FLIGHT(
            "weir.async.in.flight",
            Kind.GAUGE,
            "",
            Tags.thread("step"),
            "calls of an asynchronous step in flight or waiting for their key's turn; at the step's maxInFlight"
                    + " the task takes no record and its partitions pause",
            "[Asynchronous processing](async.md)"),
    ASYNC_LATENCY(
            "weir.async.latency",
            Kind.TIMER,
            "",
            Tags.thread("step"),
            "time from an asynchronous step taking a record to its result leaving the step (waits for the key's"
                    + " turn, retries and back-off included)"),
    ASYNC_ATTEMPTS(
            "weir.async.attempts",
            Kind.COUNTER,
            "",
            Tags.thread("step", "outcome"),
            "attempts of asynchronous calls by outcome: success, error, timeout"),
    ASYNC_RETRIES("weir.async.retries", Kind.COUNTER, "", Tags.thread("step"), "asynchronous calls tried again"),
    ASYNC_FAILED(
            "weir.async.failed",
            Kind.COUNTER,
            "",
            Tags.thread("step", "action"),
            "asynchronous calls that failed for good, by what followed: dead_letter or fail"),
    PAUSED_PARTITIONS(
            "weir.paused.partitions",
            Kind.GAUGE,
            "",
            Tags.THREAD,
            "input partitions whose fetching is paused because their task's buffer is full: the task is slower"
                    + " than its input, or an asynchronous step is at its in-flight bound"),
    QUERY_REQUESTS(
            "weir.query.requests",
            Kind.TIMER,
            "",
            Tags.instance("kind", "outcome"),
            "queries this instance answered, by kind and outcome",
            "[Querying](querying.md)");

    /**
     * The kinds of meter Weir registers, each exported to Prometheus in its own way. A distribution
     * summary would be a fourth, with a builder here and its series in {@link PrometheusNames}.
     */
    public enum Kind {
        COUNTER,
        GAUGE,
        TIMER
    }

    private final String name;
    private final Kind kind;
    private final String baseUnit;
    private final List<String> tags;
    private final String description;
    private final String seeAlso;

    WeirMeter(String name, Kind kind, String baseUnit, List<String> tags, String description) {
        this(name, kind, baseUnit, tags, description, "");
    }

    WeirMeter(String name, Kind kind, String baseUnit, List<String> tags, String description, String seeAlso) {
        this.name = name;
        this.kind = kind;
        this.baseUnit = baseUnit;
        this.tags = tags;
        this.description = description;
        this.seeAlso = seeAlso;
    }

    /** Micrometer's name, for example {@code weir.records.in}. */
    public String meterName() {
        return name;
    }

    public Kind kind() {
        return kind;
    }

    /** The unit given to Micrometer; a timer has none here, Micrometer's Prometheus registry exports seconds. */
    public Optional<String> baseUnit() {
        return baseUnit.isEmpty() ? Optional.empty() : Optional.of(baseUnit);
    }

    /** The keys of the meter's tags, {@code application} and {@code instance} first. */
    public List<String> tags() {
        return tags;
    }

    /** What the meter measures: Micrometer's description, so Prometheus' {@code # HELP}. */
    public String description() {
        return description;
    }

    /** A Markdown link to the guide's page about what the meter shows, or "" when the table says enough. */
    String seeAlso() {
        return seeAlso;
    }

    /** The series names {@code /metrics} exports for this meter, for example {@code weir_records_in_total}. */
    public List<String> prometheusSeries() {
        return PrometheusNames.series(this);
    }

    /** The entry of the meter Micrometer knows as {@code meterName}, if Weir registers one. */
    public static Optional<WeirMeter> named(String meterName) {
        return Stream.of(values()).filter(m -> m.name.equals(meterName)).findFirst();
    }

    /** Every series name of every meter. */
    public static List<String> allPrometheusSeries() {
        return Stream.of(values()).flatMap(m -> m.prometheusSeries().stream()).toList();
    }

    /** A counter builder with this meter's name, description and unit; the caller adds tags and registers it. */
    public Counter.Builder counter() {
        expect(Kind.COUNTER);
        Counter.Builder b = Counter.builder(name).description(description);
        return baseUnit.isEmpty() ? b : b.baseUnit(baseUnit);
    }

    /** A timer builder with this meter's name and description; the caller adds tags and registers it. */
    public Timer.Builder timer() {
        expect(Kind.TIMER);
        return Timer.builder(name).description(description);
    }

    /** A gauge builder reading {@code f} of {@code obj}, with this meter's name, description and unit. */
    public <T> Gauge.Builder<T> gauge(T obj, ToDoubleFunction<T> f) {
        expect(Kind.GAUGE);
        Gauge.Builder<T> b = Gauge.builder(name, obj, f).description(description);
        return baseUnit.isEmpty() ? b : b.baseUnit(baseUnit);
    }

    /** A gauge builder reading {@code f}, with this meter's name, description and unit. */
    public Gauge.Builder<Supplier<Number>> gauge(Supplier<Number> f) {
        expect(Kind.GAUGE);
        Gauge.Builder<Supplier<Number>> b = Gauge.builder(name, f).description(description);
        return baseUnit.isEmpty() ? b : b.baseUnit(baseUnit);
    }

    private void expect(Kind builder) {
        if (kind != builder) {
            throw new IllegalStateException(name + " is a " + kind + " in the catalogue, not a " + builder);
        }
    }

    /** The tag keys meters share: every meter has {@code application} and {@code instance}. */
    private static final class Tags {
        static final List<String> INSTANCE = List.of("application", "instance");
        static final List<String> THREAD = thread();

        static List<String> instance(String... more) {
            return Stream.concat(INSTANCE.stream(), Stream.of(more)).toList();
        }

        static List<String> thread(String... more) {
            return Stream.concat(instance("thread").stream(), Stream.of(more)).toList();
        }
    }
}
