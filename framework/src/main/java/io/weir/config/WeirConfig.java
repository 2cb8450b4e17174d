package io.weir.config;

import io.weir.errors.ConfigException;
import io.weir.internal.config.ClientSettings;
import io.weir.internal.config.ConfigSources;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.config.Setting;
import io.weir.internal.config.Settings.ErrorMode;
import io.weir.internal.config.Settings;
import io.weir.sink.DeliveryGuarantee;
import io.weir.time.TimestampSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The validated configuration of an application. Built once at start-up; every setting is
 * checked by {@link Builder#build()}, which throws {@link ConfigException} naming the first bad
 * setting, so a misconfigured instance never starts half-way.
 *
 * <p>Sources, from weakest to strongest:
 * <ol>
 *   <li>properties files the code names with {@link Builder#propertiesFile} (defaults packaged
 *       with the application);</li>
 *   <li>values set in code ({@link Builder#set} and the typed setters);</li>
 *   <li>the deployment's properties file: {@code --config FILE} or {@code --config=FILE} on the
 *       command line ({@link Builder#args}), or {@link Builder#configFile}; otherwise the file the
 *       environment variable {@code WEIR_CONFIG_FILE} names;</li>
 *   <li>environment variables {@code WEIR_<NAME>}: the setting {@code <name>} in lower case with
 *       {@code _} as {@code .} ({@code WEIR_BOOTSTRAP_SERVERS} sets {@code bootstrap.servers},
 *       {@code WEIR_PRODUCER_LINGER_MS} sets {@code producer.linger.ms}). Other {@code WEIR_*}
 *       variables, such as those a platform injects for its services, are ignored with one
 *       warning.</li>
 * </ol>
 *
 * <p>Kafka client settings pass through and are validated by {@code build()} as the clients
 * would: an unprefixed Kafka setting goes to every client that knows it; {@code consumer.},
 * {@code producer.} and {@code admin.} prefixes target one client and win over the unprefixed
 * form; {@code restore.consumer.} targets the consumer that restores stores. Settings Weir itself
 * manages (group id, group protocol, transactional id, auto commit, isolation level, serializers,
 * assignor) are rejected with the Weir setting to use instead, and under {@code exactly_once} the
 * producer's {@code acks} and {@code enable.idempotence} may only be {@code all} and {@code true}.
 * Enum values are spelled in lower case with underscores ({@code exactly_once}, {@code log_append}).
 */
public final class WeirConfig {

    private final Map<String, String> values;
    private final String applicationId;
    private final String bootstrapServers;
    private final DeliveryGuarantee guarantee;
    private final int numStreamThreads;
    private final Duration commitInterval;
    private final Path stateDir;
    private final Optional<String> instanceId;
    private final Settings.RunMode runMode;
    private final Optional<java.time.Instant> boundedUntil;
    private final Duration shutdownTimeout;
    private final boolean shutdownLeaveGroup;
    private final Duration stallWarn;
    private final int httpPort;
    private final String httpBindAddress;
    private final int numStandbyReplicas;
    private final int maxWarmupReplicas;
    private final long acceptableRecoveryLag;
    private final Duration probingRebalanceInterval;
    private final Duration failureDetection;
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
    private final Duration stateCleanupDelay;
    private final Duration repartitionPurgeInterval;
    private final long storeReadCacheBytes;
    private final TimestampSource defaultTimestamp;
    private final Duration maxOutOfOrderness;
    private final Duration idleTimeout;
    private final Settings.LateRecordsMode lateRecordsMode;
    private final String lateRecordsTopic;
    private final Duration windowChangelogAdditionalRetention;
    private final ClientSettings clientSettings;

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
        this.runMode = parseOrDefault(Settings.RUN_MODE);
        this.boundedUntil = parseOrDefault(Settings.BOUNDED_UNTIL);
        if (boundedUntil.isPresent() && runMode != Settings.RunMode.BOUNDED) {
            throw new ConfigException(Settings.BOUNDED_UNTIL.name(), "applies only to bounded runs, but run.mode is "
                    + Setting.spelling(runMode) + "; set run.mode=bounded, or leave bounded.until empty");
        }
        this.shutdownTimeout = Duration.ofMillis(parseOrDefault(Settings.SHUTDOWN_TIMEOUT_MS));
        this.shutdownLeaveGroup = parseOrDefault(Settings.SHUTDOWN_LEAVE_GROUP);
        this.stallWarn = Duration.ofMillis(parseOrDefault(Settings.STALL_WARN_MS));
        this.httpPort = parseOrDefault(Settings.HTTP_PORT);
        this.httpBindAddress = parseOrDefault(Settings.HTTP_BIND_ADDRESS);
        this.numStandbyReplicas = parseOrDefault(Settings.NUM_STANDBY_REPLICAS);
        this.maxWarmupReplicas = parseOrDefault(Settings.MAX_WARMUP_REPLICAS);
        this.acceptableRecoveryLag = parseOrDefault(Settings.ACCEPTABLE_RECOVERY_LAG);
        this.probingRebalanceInterval = Duration.ofMillis(parseOrDefault(Settings.PROBING_REBALANCE_INTERVAL_MS));
        long detection = parseOrDefault(Settings.FAILURE_DETECTION_MS);
        if (detection != 0 && detection < 1000) {
            throw new ConfigException(Settings.FAILURE_DETECTION_MS.name(), detection
                    + " is too short to tell a dead instance from a slow one; allowed: 0 (off) or at least 1000");
        }
        this.failureDetection = Duration.ofMillis(detection);
        this.errorMode = parseOrDefault(Settings.ERROR_MODE);
        String dlq = values.get(Settings.DEAD_LETTER_TOPIC.name());
        this.deadLetterTopic = dlq != null ? Settings.DEAD_LETTER_TOPIC.parse(dlq) : InternalTopic.DEAD_LETTER.of(applicationId);
        this.deadLetterMaxMessageBytes = parseOrDefault(Settings.DEAD_LETTER_MAX_MESSAGE_BYTES);
        this.bufferedRecordsPerPartition = parseOrDefault(Settings.BUFFERED_RECORDS_PER_PARTITION);
        this.pollTimeout = Duration.ofMillis(parseOrDefault(Settings.POLL_MS));
        this.transactionTimeout = Duration.ofMillis(parseOrDefault(Settings.TRANSACTION_TIMEOUT_MS));
        this.commitRetryTimeout = Duration.ofMillis(parseOrDefault(Settings.COMMIT_RETRY_TIMEOUT_MS));
        this.internalTopicReplicationFactor = parseOrDefault(Settings.INTERNAL_TOPIC_REPLICATION_FACTOR);
        this.stateCacheMaxBytes = parseOrDefault(Settings.STATE_CACHE_MAX_BYTES);
        this.rocksDbMemoryBytes = parseOrDefault(Settings.ROCKSDB_MEMORY_BYTES);
        this.stateFlushInterval = Duration.ofMillis(parseOrDefault(Settings.STATE_FLUSH_INTERVAL_MS));
        this.stateCleanupDelay = Duration.ofMillis(parseOrDefault(Settings.STATE_CLEANUP_DELAY_MS));
        this.repartitionPurgeInterval = Duration.ofMillis(parseOrDefault(Settings.REPARTITION_PURGE_INTERVAL_MS));
        this.storeReadCacheBytes = parseOrDefault(Settings.STORE_READ_CACHE_BYTES);
        this.defaultTimestamp = parseOrDefault(Settings.DEFAULT_TIMESTAMP);
        this.maxOutOfOrderness = Duration.ofMillis(parseOrDefault(Settings.MAX_OUT_OF_ORDERNESS_MS));
        this.idleTimeout = Duration.ofMillis(parseOrDefault(Settings.IDLE_TIMEOUT_MS));
        this.lateRecordsMode = parseOrDefault(Settings.LATE_RECORDS_MODE);
        String late = values.get(Settings.LATE_RECORDS_TOPIC.name());
        this.lateRecordsTopic = late != null ? Settings.LATE_RECORDS_TOPIC.parse(late) : InternalTopic.LATE_RECORDS.of(applicationId);
        this.windowChangelogAdditionalRetention = Duration.ofMillis(
                parseOrDefault(Settings.WINDOW_CHANGELOG_ADDITIONAL_RETENTION_MS));
        this.clientSettings = ClientSettings.from(values, guarantee, bootstrapServers);
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

    /**
     * True with {@code run.mode=bounded}: the instance processes its inputs to the end offsets taken
     * at start (see {@code WeirApp.runBounded}), then stops.
     */
    public boolean bounded() {
        return runMode == Settings.RunMode.BOUNDED;
    }

    /** With a bounded run: where it ends in time ({@code bounded.until}); empty for no time limit. */
    public Optional<java.time.Instant> boundedUntil() {
        return boundedUntil;
    }

    public Duration shutdownTimeout() {
        return shutdownTimeout;
    }

    /**
     * True when a shutdown leaves the consumer group so the instance's tasks move at once (an
     * instance that will not come back); false when it keeps its static membership so a restart
     * with the same instance id moves nothing.
     */
    public boolean shutdownLeaveGroup() {
        return shutdownLeaveGroup;
    }

    /** How long an instance may make no progress before it warns and reports itself not ready. */
    public Duration stallWarn() {
        return stallWarn;
    }

    /** Port of the instance's HTTP server: 0 picks a free port, -1 means no server. */
    public int httpPort() {
        return httpPort;
    }

    /** Address the HTTP server listens on. */
    public String httpBindAddress() {
        return httpBindAddress;
    }

    /** Standby copies of each task's stores on other instances. */
    public int numStandbyReplicas() {
        return numStandbyReplicas;
    }

    /** Warm-up copies restoring at once on the instances balance will move tasks to. */
    public int maxWarmupReplicas() {
        return maxWarmupReplicas;
    }

    /** Changelog records an instance may lack and still count as caught up for a task. */
    public long acceptableRecoveryLag() {
        return acceptableRecoveryLag;
    }

    /** While warm-ups run, the longest time between two rebalances that check their progress. */
    public Duration probingRebalanceInterval() {
        return probingRebalanceInterval;
    }

    /** How long an instance may be silent before the others remove it from the group; zero: off. */
    public Duration failureDetection() {
        return failureDetection;
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

    /** How long the local state of a task this instance no longer runs is kept before it is deleted. */
    public Duration stateCleanupDelay() {
        return stateCleanupDelay;
    }

    /** How often committed records are deleted from repartition topics; zero: never. */
    public Duration repartitionPurgeInterval() {
        return repartitionPurgeInterval;
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

    /**
     * Kafka settings for the stream threads' consumers, as given (unprefixed and {@code consumer.}
     * settings, without the prefix, plus {@code bootstrap.servers}); Weir adds its own on top.
     */
    public Map<String, Object> consumerOverrides() {
        return clientSettings.consumer();
    }

    /**
     * The {@code restore.consumer.} settings, without the prefix: applied to the consumer that
     * restores stores on top of {@link #consumerOverrides()} and Weir's bulk fetch defaults.
     */
    public Map<String, Object> restoreConsumerOverrides() {
        return clientSettings.restoreConsumer();
    }

    /** Kafka settings for the producers, as given (unprefixed and {@code producer.}, plus {@code bootstrap.servers}). */
    public Map<String, Object> producerOverrides() {
        return clientSettings.producer();
    }

    /** Kafka settings for the admin client, as given (unprefixed and {@code admin.}, plus {@code bootstrap.servers}). */
    public Map<String, Object> adminOverrides() {
        return clientSettings.admin();
    }

    /** Every raw setting, sorted by name. */
    public Map<String, String> values() {
        return values;
    }

    @Override
    public String toString() {
        // Passwords (SASL JAAS configs, key store passwords) must not reach a log through this.
        Map<String, String> shown = new TreeMap<>();
        values.forEach((k, v) -> shown.put(k, ClientSettings.isSecret(k) ? "[hidden]" : v));
        return "WeirConfig" + shown;
    }

    private <T> T parseOrDefault(Setting<T> setting) {
        String raw = values.get(setting.name());
        return setting.parse(raw != null ? raw : setting.defaultValue());
    }

    /**
     * Collects settings from their sources (see {@link WeirConfig} for the precedence);
     * {@link #build()} validates them. Not thread-safe.
     */
    public static final class Builder {

        private final ConfigSources sources = new ConfigSources();

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
            sources.set(name, String.valueOf(value));
            return this;
        }

        /** Sets every entry of {@code properties}. */
        public Builder setAll(Properties properties) {
            properties.stringPropertyNames().forEach(n -> sources.set(n, properties.getProperty(n)));
            return this;
        }

        /**
         * Reads a properties file of defaults packaged with the application; code, the
         * deployment's file and the environment override its values.
         *
         * @throws ConfigException if the file cannot be read
         */
        public Builder propertiesFile(Path file) {
            sources.packagedFile(file);
            return this;
        }

        /**
         * Names the deployment's properties file, as {@code --config FILE} does: it overrides the
         * code and {@code WEIR_CONFIG_FILE}; environment variables override it. Read by
         * {@link #build()}, which fails if it cannot be read.
         */
        public Builder configFile(Path file) {
            sources.configFile(file);
            return this;
        }

        /**
         * Takes the application's command line ({@code main(args)}): {@code --config FILE} or
         * {@code --config=FILE} names the deployment's properties file (see {@link #configFile}).
         *
         * @throws ConfigException naming any other argument
         */
        public Builder args(String... args) {
            sources.args(args);
            return this;
        }

        /**
         * Uses these variables instead of the process environment (tests, embedding), for
         * {@code WEIR_*} settings and {@code WEIR_CONFIG_FILE}.
         */
        public Builder environment(Map<String, String> env) {
            sources.environment(env);
            return this;
        }

        /**
         * Reads the deployment file and the environment, then validates and freezes the settings.
         *
         * @throws ConfigException naming the first missing or invalid setting, or the deployment
         *                         file ({@code --config} or {@code WEIR_CONFIG_FILE}) if it cannot be read
         */
        public WeirConfig build() {
            return new WeirConfig(sources.merge());
        }
    }
}
