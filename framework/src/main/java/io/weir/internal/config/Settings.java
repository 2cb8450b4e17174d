package io.weir.internal.config;

import io.weir.sink.DeliveryGuarantee;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Every Weir setting, declared once: name, type, default or derived default, documentation and
 * validation, and the rules between settings ({@link #CHECKS}). {@link SettingValues} resolves
 * them in this order; {@code WeirConfig} reads its values from there. The HTTP server's settings
 * are declared in {@link HttpSettings}, those of event time in {@link TimeSettings}, and listed
 * here. The settings table of docs/configuration.md is generated from this class ({@link
 * SettingsTable}) and a test checks that it matches.
 */
public final class Settings {

    private Settings() {}

    /** What happens to a record that cannot be deserialized, processed or produced. */
    public enum ErrorMode {
        DEAD_LETTER,
        FAIL
    }

    /** Whether an instance runs until it is stopped, or to the end of its input and then stops. */
    public enum RunMode {
        STREAMING,
        BOUNDED,
        DESCRIBE
    }

    /**
     * Whether SIGTERM leaves the consumer group: never ({@code false}, a restart keeps the tasks),
     * always ({@code true}), or when the Kubernetes StatefulSet no longer wants this pod.
     */
    public enum ShutdownLeaveGroup {
        FALSE,
        TRUE,
        KUBERNETES_SCALE_IN
    }

    public static final Setting<String> APPLICATION_ID = new Setting<>(
            "application.id",
            null,
            Setting.nonEmpty().andThen(Settings::checkApplicationId),
            "consumer group id and prefix of internal topics; letters, digits, `.`, `_`, `-`");
    public static final Setting<String> BOOTSTRAP_SERVERS =
            new Setting<>("bootstrap.servers", null, Setting.nonEmpty(), "`host:port` pairs of the Kafka cluster");
    public static final Setting<DeliveryGuarantee> PROCESSING_GUARANTEE = new Setting<>(
            "processing.guarantee",
            "exactly_once",
            Setting.enumOf(
                    DeliveryGuarantee.class,
                    Map.of("exactly_once_v2", "use exactly_once (Weir's exactly_once is Kafka's EOS v2)")),
            "`exactly_once` (Kafka's EOS v2), `at_least_once`, `at_most_once` or `none`");
    public static final Setting<Integer> NUM_STREAM_THREADS = new Setting<>(
            "num.stream.threads",
            "1",
            Setting.intAtLeast(1),
            "stream threads per instance, each with its own consumer and producer");
    public static final Setting<Duration> COMMIT_INTERVAL_MS = Setting.derived(
            "commit.interval.ms",
            "`" + commitInterval(DeliveryGuarantee.EXACTLY_ONCE).toMillis() + "` under `exactly_once`, else `"
                    + commitInterval(DeliveryGuarantee.AT_LEAST_ONCE).toMillis() + "`",
            Setting.millisAtLeast(0),
            v -> commitInterval(v.get(PROCESSING_GUARANTEE)),
            "how often each thread commits");
    public static final Setting<Path> STATE_DIR = new Setting<>(
            "state.dir",
            System.getProperty("java.io.tmpdir") + "/weir",
            "`${java.io.tmpdir}/weir`",
            Setting.nonEmpty().andThen(Path::of),
            "instance id and local state (`<state.dir>/<application.id>/[<instance.id>/]<task>/<store>`)");
    public static final Setting<Optional<String>> INSTANCE_ID = Setting.optional(
            "instance.id",
            "generated, kept in `state.dir`",
            Setting.nonEmpty(),
            "stable id of this instance: names its static group membership and transactional ids");
    public static final Setting<RunMode> RUN_MODE = new Setting<>(
            "run.mode",
            "streaming",
            Setting.enumOf(RunMode.class),
            "`streaming`: run until stopped; `bounded`: process every input to its end"
                    + " offsets taken at start (or to `bounded.until`), fire every window and timer, commit, leave the group"
                    + " and stop (one instance must hold every task; see Bounded runs); `describe`: build the topology, print its"
                    + " description (the JSON `weir topology diff --topology-file` reads) to stdout or `describe.file`, and stop"
                    + " without contacting Kafka");
    public static final Setting<Optional<Instant>> BOUNDED_UNTIL = new Setting<>(
            "bounded.until",
            "",
            "empty (no time limit)",
            Settings::instantOrEmpty,
            "with `run.mode=bounded`: an ISO-8601 instant"
                    + " (`2024-05-01T00:00:00Z`); each input partition ends at its first record with a later timestamp, and the"
                    + " watermark ends at this instant instead of the end of time");
    public static final Setting<Optional<Path>> DESCRIBE_FILE = Setting.optional(
            "describe.file",
            "empty (stdout)",
            Setting.nonEmpty().andThen(Path::of),
            "with `run.mode=describe`: the file the topology description is"
                    + " written to (replaced), instead of stdout; ignored by the other modes");
    public static final Setting<Duration> SHUTDOWN_TIMEOUT_MS = new Setting<>(
            "shutdown.timeout.ms",
            "30000",
            Setting.millisAtLeast(0),
            "time a graceful shutdown may take to commit and close");
    public static final Setting<ShutdownLeaveGroup> SHUTDOWN_LEAVE_GROUP = new Setting<>(
            "shutdown.leave.group",
            "false",
            Setting.enumOf(ShutdownLeaveGroup.class),
            "`false`: SIGTERM keeps the static membership, so a"
                    + " restart with the same `instance.id` moves no task; `true`: the instance leaves the group so its tasks"
                    + " move at once (scale-in); `kubernetes_scale_in`: in a StatefulSet's pod (`instance.id` is the pod name,"
                    + " `<statefulset>-<ordinal>`), SIGTERM leaves only if the pod's ordinal is at or above the StatefulSet's"
                    + " desired replicas, read through the Kubernetes API (a scale-down), and keeps the membership otherwise"
                    + " (a rollout, an eviction); needs the service account token and `get` on `statefulsets/scale`;"
                    + " see [Scaling](scaling.md#scale-in-on-kubernetes)");
    public static final Setting<Duration> STALL_WARN_MS = new Setting<>(
            "stall.warn.ms",
            "5000",
            Setting.millisAtLeast(1000),
            "how long an instance may make no progress before it logs a WARN and"
                    + " turns not ready; at least `1000`");
    public static final Setting<Integer> NUM_STANDBY_REPLICAS = new Setting<>(
            "num.standby.replicas",
            "0",
            Setting.intAtLeast(0),
            "copies of each task's stores kept warm on other instances by tailing their"
                    + " changelogs; a failed instance's tasks move to the instance with a copy and restore only the tail");
    public static final Setting<Integer> MAX_WARMUP_REPLICAS = new Setting<>(
            "max.warmup.replicas",
            "2",
            Setting.intAtLeast(1),
            "tasks restoring at once on their future owner while they stay active where their"
                    + " state is (balance moves a task only once its new owner has caught up)");
    public static final Setting<Long> ACCEPTABLE_RECOVERY_LAG = new Setting<>(
            "acceptable.recovery.lag",
            "10000",
            Setting.longAtLeast(0),
            "changelog records an instance may lack and still count as caught up for a task;"
                    + " a task never moves to an instance further behind while a caught-up one exists");
    public static final Setting<Duration> PROBING_REBALANCE_INTERVAL_MS = new Setting<>(
            "probing.rebalance.interval.ms",
            "60000",
            Setting.millisAtLeast(5000),
            "while warm-ups run, how often the instance rebalances even if none"
                    + " caught up (a warm-up that catches up rebalances within two seconds, with the other warm-ups of its"
                    + " instance that caught up meanwhile); at least `5000`");
    public static final Setting<Long> RESTORE_BULK_MIN_RECORDS = new Setting<>(
            "restore.bulk.min.records",
            "100000",
            Setting.longAtLeast(0),
            "a store this many changelog records or more behind (a new one, or one far"
                    + " behind) restores by ingestion: sorted files written and linked into RocksDB, no memtable or flush;"
                    + " closer to the end, and standbys, write batches; `0` always writes batches");
    public static final Setting<Duration> FAILURE_DETECTION_MS = new Setting<>(
            "failure.detection.ms",
            "3000",
            Setting.millisAtLeast(0).andThen(Settings::checkFailureDetection),
            "an instance silent this long without"
                    + " a clean shutdown is removed from the group by the others, so its tasks move without waiting for"
                    + " `consumer.session.timeout.ms`; `0` waits for the session timeout");
    public static final Setting<ErrorMode> ERROR_MODE = new Setting<>(
            "error.mode",
            "dead_letter",
            Setting.enumOf(ErrorMode.class),
            "`dead_letter`: failed records go to the dead-letter topic; `fail`: the instance stops; an `ErrorHandler`"
                    + " registered in code decides per record instead");
    public static final Setting<String> DEAD_LETTER_TOPIC = Setting.derived(
            "dead.letter.topic",
            "`" + InternalTopic.DEAD_LETTER.of("<application.id>") + "`",
            Setting.nonEmpty(),
            v -> InternalTopic.DEAD_LETTER.of(v.get(APPLICATION_ID)),
            "where failed records go");
    public static final Setting<Integer> DEAD_LETTER_MAX_MESSAGE_BYTES = new Setting<>(
            "dead.letter.max.message.bytes",
            "16777216",
            Setting.intAtLeast(1024),
            "`max.message.bytes` of the dead-letter topic when Weir creates it");
    public static final Setting<Integer> BUFFERED_RECORDS_PER_PARTITION = new Setting<>(
            "buffered.records.per.partition",
            "1000",
            Setting.intAtLeast(1),
            "buffered records per input partition before it is paused (back-pressure)");
    public static final Setting<Duration> POLL_MS =
            new Setting<>("poll.ms", "100", Setting.millisAtLeast(1), "longest a poll waits for records");
    public static final Setting<Duration> TRANSACTION_TIMEOUT_MS = new Setting<>(
            "transaction.timeout.ms",
            "10000",
            Setting.millisAtLeast(1000),
            "broker-side timeout of an open transaction whose producer vanished");
    public static final Setting<Duration> COMMIT_RETRY_TIMEOUT_MS = new Setting<>(
            "commit.retry.timeout.ms",
            "30000",
            Setting.millisAtLeast(0),
            "how long a timed-out commit is retried before the producer is replaced");
    public static final Setting<Integer> INTERNAL_TOPIC_REPLICATION_FACTOR = new Setting<>(
            "internal.topic.replication.factor",
            "-1",
            Setting.intAtLeast(-1),
            "replication factor of changelog and repartition topics; `-1` takes the broker's default");
    public static final Setting<Long> STATE_CACHE_MAX_BYTES = new Setting<>(
            "state.cache.max.bytes",
            "67108864",
            Setting.longAtLeast(0),
            "uncommitted store writes a thread holds before it commits early");
    public static final Setting<Duration> STATE_FLUSH_INTERVAL_MS = new Setting<>(
            "state.flush.interval.ms",
            "10000",
            Setting.millisAtLeast(1),
            "how often stores flush to local disk; bounds the changelog tail a crash replays");
    public static final Setting<Duration> STATE_CLEANUP_DELAY_MS = new Setting<>(
            "state.cleanup.delay.ms",
            "600000",
            Setting.millisAtLeast(0),
            "how long the local state of a task that is neither active nor standby on this"
                    + " instance is kept (it may come back) before its directory is deleted");
    public static final Setting<Duration> REPARTITION_PURGE_INTERVAL_MS = new Setting<>(
            "repartition.purge.interval.ms",
            "30000",
            Setting.millisAtLeast(0),
            "how often records that every reader of a repartition topic has"
                    + " committed are deleted from it (repartition topics keep records without a time limit until then);"
                    + " 0 never");
    public static final Setting<Long> ROCKSDB_MEMORY_BYTES = new Setting<>(
            "rocksdb.memory.bytes",
            "268435456",
            Setting.longAtLeast(16L << 20),
            "memory for all RocksDB stores of the instance (block cache and memtables); at least 16 MiB");
    public static final Setting<Long> STORE_READ_CACHE_BYTES = new Setting<>(
            "store.read.cache.bytes",
            "4194304",
            Setting.longAtLeast(0),
            "committed entries each store of each task keeps on the heap for reads (`0`: none)");
    public static final Setting<Boolean> METRICS_KAFKA_CLIENTS_ENABLED = new Setting<>(
            "metrics.kafka.clients.enabled",
            "true",
            Setting.bool(),
            "`true`: the Kafka clients' own metrics (`kafka_consumer_*`, `kafka_producer_*`, `kafka_admin_client_*`)"
                    + " are on `/metrics`, tagged with `thread` and `role`; `false`: they are not bound (see"
                    + " [Operating](operating.md#kafka-client-metrics))");
    public static final Setting<Boolean> TRACING_STEP_SPANS = new Setting<>(
            "tracing.step.spans",
            "false",
            Setting.bool(),
            "`true`: with tracing on, a span per processor step of every sampled record, beside the"
                    + " record's own span; see [Tracing](tracing.md)");
    public static final Setting<Double> TRACING_ROOT_RATIO = new Setting<>(
            "tracing.root.ratio",
            "1",
            Setting.ratio(),
            "with tracing on, the share of the traces that would start in Weir (records and results without a"
                    + " trace context) that may start (the SDK's sampler decides for those); the others get no span,"
                    + " which is cheaper than the SDK's decision at high rates; see"
                    + " [Tracing](tracing.md#sampling-inputs-at-a-high-rate)");
    /** All settings by name, in documentation order (the order of docs/configuration.md's table). */
    public static final Map<String, Setting<?>> ALL = index(
            List.of(
                    APPLICATION_ID,
                    BOOTSTRAP_SERVERS,
                    PROCESSING_GUARANTEE,
                    NUM_STREAM_THREADS,
                    COMMIT_INTERVAL_MS,
                    STATE_DIR,
                    INSTANCE_ID,
                    RUN_MODE,
                    BOUNDED_UNTIL,
                    DESCRIBE_FILE,
                    SHUTDOWN_TIMEOUT_MS,
                    SHUTDOWN_LEAVE_GROUP,
                    STALL_WARN_MS),
            HttpSettings.ALL,
            List.of(
                    NUM_STANDBY_REPLICAS,
                    MAX_WARMUP_REPLICAS,
                    ACCEPTABLE_RECOVERY_LAG,
                    PROBING_REBALANCE_INTERVAL_MS,
                    FAILURE_DETECTION_MS,
                    RESTORE_BULK_MIN_RECORDS,
                    ERROR_MODE,
                    DEAD_LETTER_TOPIC,
                    DEAD_LETTER_MAX_MESSAGE_BYTES,
                    BUFFERED_RECORDS_PER_PARTITION,
                    POLL_MS,
                    TRANSACTION_TIMEOUT_MS,
                    COMMIT_RETRY_TIMEOUT_MS,
                    INTERNAL_TOPIC_REPLICATION_FACTOR,
                    STATE_CACHE_MAX_BYTES,
                    STATE_FLUSH_INTERVAL_MS,
                    STATE_CLEANUP_DELAY_MS,
                    REPARTITION_PURGE_INTERVAL_MS,
                    ROCKSDB_MEMORY_BYTES,
                    STORE_READ_CACHE_BYTES,
                    METRICS_KAFKA_CLIENTS_ENABLED,
                    TRACING_STEP_SPANS,
                    TRACING_ROOT_RATIO),
            TimeSettings.ALL);

    /**
     * The rules between settings, each reported on the setting it names and checked as soon as that
     * setting has its value (so in declaration order).
     */
    static final List<SettingCheck> CHECKS = Stream.concat(
                    Stream.of(new SettingCheck(
                            BOUNDED_UNTIL,
                            v -> v.get(BOUNDED_UNTIL).isEmpty() || v.get(RUN_MODE) == RunMode.BOUNDED,
                            v -> "applies only to bounded runs, but run.mode is " + Setting.spelling(v.get(RUN_MODE))
                                    + "; set run.mode=bounded, or leave bounded.until empty")),
                    HttpSettings.CHECKS.stream())
            .toList();
    /** Settings whose values are secrets: never logged, shown or put in an error message. */
    public static final Set<String> SECRETS = Set.of(
            HttpSettings.HTTP_TLS_KEYSTORE_PASSWORD.name(),
            HttpSettings.HTTP_TLS_TRUSTSTORE_PASSWORD.name(),
            HttpSettings.HTTP_AUTH_TOKEN.name());

    @SafeVarargs
    private static Map<String, Setting<?>> index(List<Setting<?>>... groups) {
        // Map.copyOf would lose the documentation order.
        Map<String, Setting<?>> m = new LinkedHashMap<>();
        for (Setting<?> s : Stream.of(groups).flatMap(List::stream).toList()) {
            if (m.put(s.name(), s) != null) {
                throw new IllegalStateException("setting defined twice: " + s.name());
            }
        }
        return Collections.unmodifiableMap(m);
    }

    private static String checkApplicationId(String id) {
        if (!id.matches("[a-zA-Z0-9._-]+")) {
            throw new IllegalArgumentException(
                    "'" + id + "' may only contain letters, digits, '.', '_' and '-' (it names topics)");
        }
        return id;
    }

    /** The default of {@code commit.interval.ms}: short under exactly-once, where it bounds output latency. */
    private static Duration commitInterval(DeliveryGuarantee guarantee) {
        return Duration.ofMillis(guarantee == DeliveryGuarantee.EXACTLY_ONCE ? 100 : 1000);
    }

    private static Duration checkFailureDetection(Duration detection) {
        if (!detection.isZero() && detection.toMillis() < 1000) {
            throw new IllegalArgumentException(detection.toMillis()
                    + " is too short to tell a dead instance from a slow one; allowed: 0 (off) or at least 1000");
        }
        return detection;
    }

    private static Optional<Instant> instantOrEmpty(String s) {
        if (s.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(s));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "'" + s + "' is not an ISO-8601 instant; allowed: empty, or for" + " example 2024-05-01T00:00:00Z");
        }
    }
}
