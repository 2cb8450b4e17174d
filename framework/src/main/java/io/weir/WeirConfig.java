package io.weir;

import io.weir.internal.config.Setting;
import io.weir.internal.config.Settings;
import io.weir.internal.config.Settings.ErrorMode;
import io.weir.sink.DeliveryGuarantee;
import io.weir.time.TimestampSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The validated configuration of an application. Built once at start-up; every setting is
 * checked by {@link Builder#build()}, which throws {@link ConfigException} naming the first bad
 * setting, so a misconfigured instance never starts half-way.
 *
 * <p>Sources, from weakest to strongest: a properties file, the values set in code, and
 * environment variables {@code WEIR_<SETTING>} ({@code WEIR_BOOTSTRAP_SERVERS} sets
 * {@code bootstrap.servers}), so a deployment can override what the code ships with.
 *
 * <p>Kafka client settings pass through: an unprefixed Kafka setting goes to every client that
 * knows it; {@code consumer.}, {@code producer.} and {@code admin.} prefixes target one client.
 * Settings Weir itself manages (group id, transactional id, auto commit, isolation level,
 * serializers, assignor) are rejected with the Weir setting to use instead.
 */
public final class WeirConfig {

    private static final String ENV_PREFIX = "WEIR_";
    private static final Map<String, String> MANAGED = Map.of(
            "group.id", "application.id",
            "transactional.id", "processing.guarantee and instance.id",
            "enable.auto.commit", "processing.guarantee",
            "isolation.level", "processing.guarantee",
            "group.instance.id", "instance.id",
            "partition.assignment.strategy", "nothing (Weir assigns whole tasks)",
            "key.serializer", "serdes in the topology",
            "value.serializer", "serdes in the topology",
            "key.deserializer", "serdes in the topology",
            "value.deserializer", "serdes in the topology");

    private final Map<String, String> values;
    private final String applicationId;
    private final String bootstrapServers;
    private final DeliveryGuarantee guarantee;
    private final int numStreamThreads;
    private final Duration commitInterval;
    private final Path stateDir;
    private final Optional<String> instanceId;
    private final Duration shutdownTimeout;
    private final ErrorMode errorMode;
    private final String deadLetterTopic;
    private final int deadLetterMaxMessageBytes;
    private final int bufferedRecordsPerPartition;
    private final Duration pollTimeout;
    private final Duration transactionTimeout;
    private final Duration commitRetryTimeout;
    private final int internalTopicReplicationFactor;
    private final long stateCacheMaxBytes;
    private final long rocksDbMemoryBytes;
    private final Duration stateFlushInterval;
    private final long storeReadCacheBytes;
    private final TimestampSource defaultTimestamp;
    private final Duration maxOutOfOrderness;
    private final Duration idleTimeout;
    private final Settings.LateRecordsMode lateRecordsMode;
    private final String lateRecordsTopic;
    private final Duration windowChangelogAdditionalRetention;
    private final Map<String, Object> consumerOverrides;
    private final Map<String, Object> producerOverrides;
    private final Map<String, Object> adminOverrides;

    private WeirConfig(Map<String, String> values) {
        this.values = Collections.unmodifiableMap(new TreeMap<>(values));
        this.applicationId = Settings.APPLICATION_ID.parse(values.get("application.id"));
        this.bootstrapServers = Settings.BOOTSTRAP_SERVERS.parse(values.get("bootstrap.servers"));
        this.guarantee = parseOrDefault(Settings.PROCESSING_GUARANTEE);
        this.numStreamThreads = parseOrDefault(Settings.NUM_STREAM_THREADS);
        String commit = values.get(Settings.COMMIT_INTERVAL_MS.name());
        this.commitInterval = Duration.ofMillis(commit != null ? Settings.COMMIT_INTERVAL_MS.parse(commit)
                : guarantee == DeliveryGuarantee.EXACTLY_ONCE ? 100L : 1000L);
        this.stateDir = Path.of(parseOrDefault(Settings.STATE_DIR));
        this.instanceId = Optional.ofNullable(values.get(Settings.INSTANCE_ID.name())).map(Settings.INSTANCE_ID::parse);
        this.shutdownTimeout = Duration.ofMillis(parseOrDefault(Settings.SHUTDOWN_TIMEOUT_MS));
        this.errorMode = parseOrDefault(Settings.ERROR_MODE);
        String dlq = values.get(Settings.DEAD_LETTER_TOPIC.name());
        this.deadLetterTopic = dlq != null ? Settings.DEAD_LETTER_TOPIC.parse(dlq) : applicationId + "-dlq";
        this.deadLetterMaxMessageBytes = parseOrDefault(Settings.DEAD_LETTER_MAX_MESSAGE_BYTES);
        this.bufferedRecordsPerPartition = parseOrDefault(Settings.BUFFERED_RECORDS_PER_PARTITION);
        this.pollTimeout = Duration.ofMillis(parseOrDefault(Settings.POLL_MS));
        this.transactionTimeout = Duration.ofMillis(parseOrDefault(Settings.TRANSACTION_TIMEOUT_MS));
        this.commitRetryTimeout = Duration.ofMillis(parseOrDefault(Settings.COMMIT_RETRY_TIMEOUT_MS));
        this.internalTopicReplicationFactor = parseOrDefault(Settings.INTERNAL_TOPIC_REPLICATION_FACTOR);
        this.stateCacheMaxBytes = parseOrDefault(Settings.STATE_CACHE_MAX_BYTES);
        this.rocksDbMemoryBytes = parseOrDefault(Settings.ROCKSDB_MEMORY_BYTES);
        this.stateFlushInterval = Duration.ofMillis(parseOrDefault(Settings.STATE_FLUSH_INTERVAL_MS));
        this.storeReadCacheBytes = parseOrDefault(Settings.STORE_READ_CACHE_BYTES);
        this.defaultTimestamp = parseOrDefault(Settings.DEFAULT_TIMESTAMP);
        this.maxOutOfOrderness = Duration.ofMillis(parseOrDefault(Settings.MAX_OUT_OF_ORDERNESS_MS));
        this.idleTimeout = Duration.ofMillis(parseOrDefault(Settings.IDLE_TIMEOUT_MS));
        this.lateRecordsMode = parseOrDefault(Settings.LATE_RECORDS_MODE);
        String late = values.get(Settings.LATE_RECORDS_TOPIC.name());
        this.lateRecordsTopic = late != null ? Settings.LATE_RECORDS_TOPIC.parse(late) : applicationId + "-late";
        this.windowChangelogAdditionalRetention = Duration.ofMillis(
                parseOrDefault(Settings.WINDOW_CHANGELOG_ADDITIONAL_RETENTION_MS));
        this.consumerOverrides = clientOverrides("consumer.", ConsumerConfig.configNames());
        this.producerOverrides = clientOverrides("producer.", ProducerConfig.configNames());
        this.adminOverrides = clientOverrides("admin.", AdminClientConfig.configNames());
        rejectUnknown();
    }

    public static Builder builder() {
        return new Builder();
    }

    public String applicationId() {
        return applicationId;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public DeliveryGuarantee guarantee() {
        return guarantee;
    }

    public int numStreamThreads() {
        return numStreamThreads;
    }

    public Duration commitInterval() {
        return commitInterval;
    }

    public Path stateDir() {
        return stateDir;
    }

    public Optional<String> instanceId() {
        return instanceId;
    }

    public Duration shutdownTimeout() {
        return shutdownTimeout;
    }

    /** True when a failed record goes to the dead-letter topic; false when it stops the app. */
    public boolean deadLetterOnError() {
        return errorMode == ErrorMode.DEAD_LETTER;
    }

    public String deadLetterTopic() {
        return deadLetterTopic;
    }

    public int deadLetterMaxMessageBytes() {
        return deadLetterMaxMessageBytes;
    }

    public int bufferedRecordsPerPartition() {
        return bufferedRecordsPerPartition;
    }

    public Duration pollTimeout() {
        return pollTimeout;
    }

    public Duration transactionTimeout() {
        return transactionTimeout;
    }

    public Duration commitRetryTimeout() {
        return commitRetryTimeout;
    }

    /** Replication factor for internal topics; -1 for the broker's default. */
    public int internalTopicReplicationFactor() {
        return internalTopicReplicationFactor;
    }

    /** Uncommitted store writes (bytes) a thread holds before it commits early. */
    public long stateCacheMaxBytes() {
        return stateCacheMaxBytes;
    }

    /** Memory budget shared by all RocksDB stores of the instance. */
    public long rocksDbMemoryBytes() {
        return rocksDbMemoryBytes;
    }

    /** Heap each store of each task keeps for committed entries it read or wrote. */
    public long storeReadCacheBytes() {
        return storeReadCacheBytes;
    }

    /** How often stores flush to local disk. */
    public Duration stateFlushInterval() {
        return stateFlushInterval;
    }

    /** Where a record's time comes from when its source sets no extractor. */
    public TimestampSource defaultTimestamp() {
        return defaultTimestamp;
    }

    /** How far the watermark trails the largest timestamp seen. */
    public Duration maxOutOfOrderness() {
        return maxOutOfOrderness;
    }

    /** How long a partition without records may hold the watermark back. */
    public Duration idleTimeout() {
        return idleTimeout;
    }

    /** True when records too late for their window go to {@link #lateRecordsTopic()}; false: counted and dropped. */
    public boolean lateRecordsToTopic() {
        return lateRecordsMode == Settings.LateRecordsMode.TOPIC;
    }

    public String lateRecordsTopic() {
        return lateRecordsTopic;
    }

    /** How much longer than its store a window or session changelog keeps records. */
    public Duration windowChangelogAdditionalRetention() {
        return windowChangelogAdditionalRetention;
    }

    /** Kafka settings for the consumers, as given (Weir adds its own on top). */
    public Map<String, Object> consumerOverrides() {
        return consumerOverrides;
    }

    public Map<String, Object> producerOverrides() {
        return producerOverrides;
    }

    public Map<String, Object> adminOverrides() {
        return adminOverrides;
    }

    /** Every raw setting, sorted by name. */
    public Map<String, String> values() {
        return values;
    }

    @Override
    public String toString() {
        return "WeirConfig" + values;
    }

    private <T> T parseOrDefault(Setting<T> setting) {
        String raw = values.get(setting.name());
        return setting.parse(raw != null ? raw : setting.defaultValue());
    }

    private Map<String, Object> clientOverrides(String prefix, Set<String> known) {
        Map<String, Object> m = new LinkedHashMap<>();
        values.forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                String name = k.substring(prefix.length());
                if (!known.contains(name)) {
                    throw new ConfigException(k, "'" + name + "' is not a Kafka " + prefix.substring(0, prefix.length() - 1)
                            + " setting");
                }
                m.put(name, v);
            } else if (known.contains(k) && !Settings.ALL.containsKey(k)) {
                m.put(k, v);
            }
        });
        for (String name : m.keySet()) {
            if (MANAGED.containsKey(name)) {
                throw new ConfigException(name, "is managed by Weir; set " + MANAGED.get(name) + " instead");
            }
        }
        m.put("bootstrap.servers", bootstrapServers);
        return Collections.unmodifiableMap(m);
    }

    private void rejectUnknown() {
        for (String k : values.keySet()) {
            boolean known = Settings.ALL.containsKey(k)
                    || k.startsWith("consumer.") || k.startsWith("producer.") || k.startsWith("admin.")
                    || ConsumerConfig.configNames().contains(k)
                    || ProducerConfig.configNames().contains(k)
                    || AdminClientConfig.configNames().contains(k);
            if (!known) {
                throw new ConfigException(k, "unknown setting; Weir settings are " + String.join(", ",
                        new TreeMap<>(Settings.ALL).keySet()) + "; Kafka client settings pass through");
            }
        }
    }

    /**
     * Collects settings from a file, code and the environment; {@link #build()} validates them.
     */
    public static final class Builder {

        private final Map<String, String> fromFile = new LinkedHashMap<>();
        private final Map<String, String> fromCode = new LinkedHashMap<>();
        private Map<String, String> environment = System.getenv();

        private Builder() {
        }

        public Builder applicationId(String id) {
            return set(Settings.APPLICATION_ID.name(), id);
        }

        public Builder bootstrapServers(String servers) {
            return set(Settings.BOOTSTRAP_SERVERS.name(), servers);
        }

        public Builder guarantee(DeliveryGuarantee guarantee) {
            return set(Settings.PROCESSING_GUARANTEE.name(), guarantee.configValue());
        }

        public Builder numStreamThreads(int threads) {
            return set(Settings.NUM_STREAM_THREADS.name(), Integer.toString(threads));
        }

        public Builder commitInterval(Duration interval) {
            return set(Settings.COMMIT_INTERVAL_MS.name(), Long.toString(interval.toMillis()));
        }

        public Builder stateDir(Path dir) {
            return set(Settings.STATE_DIR.name(), dir.toString());
        }

        public Builder instanceId(String id) {
            return set(Settings.INSTANCE_ID.name(), id);
        }

        /** Sets any Weir or Kafka client setting by name. */
        public Builder set(String name, Object value) {
            fromCode.put(name, String.valueOf(value));
            return this;
        }

        /** Sets every entry of {@code properties}. */
        public Builder setAll(Properties properties) {
            properties.stringPropertyNames().forEach(n -> fromCode.put(n, properties.getProperty(n)));
            return this;
        }

        /** Reads a properties file; code and environment override its values. */
        public Builder propertiesFile(Path file) {
            Properties p = new Properties();
            try (InputStream in = Files.newInputStream(file)) {
                p.load(in);
            } catch (IOException e) {
                throw new ConfigException("config file", "cannot read " + file + ": " + e.getMessage());
            }
            p.stringPropertyNames().forEach(n -> fromFile.put(n, p.getProperty(n)));
            return this;
        }

        /** Uses these variables instead of the process environment (tests, embedding). */
        public Builder environment(Map<String, String> env) {
            this.environment = Map.copyOf(env);
            return this;
        }

        /**
         * Validates and freezes the settings.
         *
         * @throws ConfigException naming the first missing or invalid setting
         */
        public WeirConfig build() {
            Map<String, String> merged = new LinkedHashMap<>(fromFile);
            merged.putAll(fromCode);
            environment.forEach((k, v) -> {
                if (k.startsWith(ENV_PREFIX) && k.length() > ENV_PREFIX.length()) {
                    merged.put(k.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.'), v);
                }
            });
            return new WeirConfig(merged);
        }
    }
}
