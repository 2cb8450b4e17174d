package io.weir.internal.config;

import io.weir.sink.DeliveryGuarantee;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Every Weir setting, with defaults; the README's configuration table mirrors this class. */
public final class Settings {

    private Settings() {
    }

    /** What happens to a record that cannot be deserialized, processed or produced. */
    public enum ErrorMode {
        DEAD_LETTER, FAIL;

        static ErrorMode parse(String s) {
            return switch (s.toLowerCase(Locale.ROOT)) {
                case "dead_letter" -> DEAD_LETTER;
                case "fail" -> FAIL;
                default -> throw new IllegalArgumentException("unknown value '" + s + "'; allowed: dead_letter, fail");
            };
        }
    }

    public static final Setting<String> APPLICATION_ID = new Setting<>("application.id", null,
            Setting.nonEmpty().andThen(Settings::checkApplicationId),
            "the application's name: consumer group id and prefix of its internal topics");
    public static final Setting<String> BOOTSTRAP_SERVERS = new Setting<>("bootstrap.servers", null,
            Setting.nonEmpty(), "host:port pairs of the Kafka cluster");
    public static final Setting<DeliveryGuarantee> PROCESSING_GUARANTEE = new Setting<>("processing.guarantee",
            "exactly_once", DeliveryGuarantee::parse,
            "exactly_once, at_least_once, at_most_once or none");
    public static final Setting<Integer> NUM_STREAM_THREADS = new Setting<>("num.stream.threads", "1",
            Setting.intAtLeast(1), "stream threads per instance, each with its own consumer and producer");
    public static final Setting<Long> COMMIT_INTERVAL_MS = new Setting<>("commit.interval.ms", null,
            Setting.longAtLeast(0), "how often a thread commits; 100 under exactly_once, 1000 otherwise");
    public static final Setting<String> STATE_DIR = new Setting<>("state.dir",
            System.getProperty("java.io.tmpdir") + "/weir", Setting.nonEmpty(),
            "directory for the instance id and local state");
    public static final Setting<String> INSTANCE_ID = new Setting<>("instance.id", null, Setting.nonEmpty(),
            "stable id of this instance (e.g. the pod name); generated and kept in state.dir when unset");
    public static final Setting<Long> SHUTDOWN_TIMEOUT_MS = new Setting<>("shutdown.timeout.ms", "30000",
            Setting.longAtLeast(0), "how long a graceful shutdown may take to commit and close");
    public static final Setting<ErrorMode> ERROR_MODE = new Setting<>("error.mode", "dead_letter",
            ErrorMode::parse, "dead_letter or fail");
    public static final Setting<String> DEAD_LETTER_TOPIC = new Setting<>("dead.letter.topic", null,
            Setting.nonEmpty(), "topic for records that failed; <application.id>-dlq when unset");
    public static final Setting<Integer> DEAD_LETTER_MAX_MESSAGE_BYTES = new Setting<>("dead.letter.max.message.bytes",
            "16777216", Setting.intAtLeast(1024),
            "max.message.bytes of the dead-letter topic when Weir creates it");
    public static final Setting<Integer> BUFFERED_RECORDS_PER_PARTITION = new Setting<>(
            "buffered.records.per.partition", "1000", Setting.intAtLeast(1),
            "records buffered per input partition before it is paused (back-pressure)");
    public static final Setting<Long> POLL_MS = new Setting<>("poll.ms", "100", Setting.longAtLeast(1),
            "longest a poll waits for records");
    public static final Setting<Long> TRANSACTION_TIMEOUT_MS = new Setting<>("transaction.timeout.ms", "10000",
            Setting.longAtLeast(1000), "broker-side timeout of an open transaction whose producer vanished");
    public static final Setting<Long> COMMIT_RETRY_TIMEOUT_MS = new Setting<>("commit.retry.timeout.ms", "30000",
            Setting.longAtLeast(0), "how long a timed-out commit is retried before the producer is replaced");

    public static final Setting<Integer> INTERNAL_TOPIC_REPLICATION_FACTOR = new Setting<>(
            "internal.topic.replication.factor", "-1", Setting.intAtLeast(-1),
            "replication factor of changelog and repartition topics; -1 takes the broker's default");
    public static final Setting<Long> STATE_CACHE_MAX_BYTES = new Setting<>("state.cache.max.bytes", "67108864",
            Setting.longAtLeast(0), "uncommitted store writes a thread holds before it commits early");
    public static final Setting<Long> ROCKSDB_MEMORY_BYTES = new Setting<>("rocksdb.memory.bytes", "268435456",
            Setting.longAtLeast(16L << 20), "memory for all RocksDB stores of the instance: block cache and memtables");

    public static final Setting<Long> STATE_FLUSH_INTERVAL_MS = new Setting<>("state.flush.interval.ms", "10000",
            Setting.longAtLeast(1), "how often stores flush to local disk; bounds the changelog tail a crash replays");

    public static final Setting<Long> STORE_READ_CACHE_BYTES = new Setting<>("store.read.cache.bytes", "4194304",
            Setting.longAtLeast(0), "committed entries each store of each task keeps on the heap for reads (0: none)");

    private static io.weir.time.TimestampSource parseTimestampSource(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "record" -> io.weir.time.TimestampSource.RECORD;
            case "log-append" -> io.weir.time.TimestampSource.LOG_APPEND;
            case "wall-clock" -> io.weir.time.TimestampSource.WALL_CLOCK;
            default -> throw new IllegalArgumentException("unknown value '" + s
                    + "'; allowed: record, log-append, wall-clock");
        };
    }

    /** What happens to a record too late for a window (past its allowed lateness). */
    public enum LateRecordsMode {
        TOPIC, DROP;

        static LateRecordsMode parse(String s) {
            return switch (s.toLowerCase(Locale.ROOT)) {
                case "topic" -> TOPIC;
                case "drop" -> DROP;
                default -> throw new IllegalArgumentException("unknown value '" + s + "'; allowed: topic, drop");
            };
        }
    }

    public static final Setting<io.weir.time.TimestampSource> DEFAULT_TIMESTAMP = new Setting<>("default.timestamp",
            "record", Settings::parseTimestampSource, "record (Kafka timestamp), log-append (requires LogAppendTime topics) or wall-clock;"
            + " for sources without an extractor");
    public static final Setting<Long> MAX_OUT_OF_ORDERNESS_MS = new Setting<>("max.out.of.orderness.ms", "0",
            Setting.longAtLeast(0), "how far behind the largest timestamp seen the watermark trails");
    public static final Setting<Long> IDLE_TIMEOUT_MS = new Setting<>("idle.timeout.ms", "30000",
            Setting.longAtLeast(0), "wall-clock time after which a partition without records stops holding the"
            + " watermark back");
    public static final Setting<LateRecordsMode> LATE_RECORDS_MODE = new Setting<>("late.records.mode", "topic",
            LateRecordsMode::parse, "topic (write records too late for a window to late.records.topic) or drop"
            + " (count them in weir.records.late and drop them)");
    public static final Setting<String> LATE_RECORDS_TOPIC = new Setting<>("late.records.topic", null,
            Setting.nonEmpty(), "topic for records too late for their window; <application.id>-late when unset");

    public static final Setting<Long> WINDOW_CHANGELOG_ADDITIONAL_RETENTION_MS = new Setting<>(
            "window.changelog.additional.retention.ms", "86400000", Setting.longAtLeast(0),
            "how much longer than its store a window or session changelog keeps records (its retention.ms"
            + " runs on wall-clock time, the store's on event time)");

    /** All settings by name, in documentation order. */
    public static final Map<String, Setting<?>> ALL = index(APPLICATION_ID, BOOTSTRAP_SERVERS,
            PROCESSING_GUARANTEE, NUM_STREAM_THREADS, COMMIT_INTERVAL_MS, STATE_DIR, INSTANCE_ID,
            SHUTDOWN_TIMEOUT_MS, ERROR_MODE, DEAD_LETTER_TOPIC, DEAD_LETTER_MAX_MESSAGE_BYTES,
            BUFFERED_RECORDS_PER_PARTITION, POLL_MS, TRANSACTION_TIMEOUT_MS, COMMIT_RETRY_TIMEOUT_MS,
            INTERNAL_TOPIC_REPLICATION_FACTOR, STATE_CACHE_MAX_BYTES, ROCKSDB_MEMORY_BYTES, STATE_FLUSH_INTERVAL_MS,
            STORE_READ_CACHE_BYTES, DEFAULT_TIMESTAMP, MAX_OUT_OF_ORDERNESS_MS, IDLE_TIMEOUT_MS, LATE_RECORDS_MODE,
            LATE_RECORDS_TOPIC, WINDOW_CHANGELOG_ADDITIONAL_RETENTION_MS);

    private static Map<String, Setting<?>> index(Setting<?>... settings) {
        Map<String, Setting<?>> m = new LinkedHashMap<>();
        for (Setting<?> s : settings) {
            m.put(s.name(), s);
        }
        return Map.copyOf(m);
    }

    private static String checkApplicationId(String id) {
        if (!id.matches("[a-zA-Z0-9._-]+")) {
            throw new IllegalArgumentException("'" + id
                    + "' may only contain letters, digits, '.', '_' and '-' (it names topics)");
        }
        return id;
    }
}
