package io.weir.config;

import io.weir.errors.ConfigException;
import io.weir.internal.config.ClientSettings;
import io.weir.internal.config.ConfigSources;
import io.weir.internal.config.Setting;
import io.weir.internal.config.SettingValues;
import io.weir.internal.config.Settings;
import io.weir.processor.ErrorHandler;
import io.weir.sink.DeliveryGuarantee;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
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
    private final SettingValues settings;
    private final ClientSettings clientSettings;
    /** The handler registered in code; null: {@code error.mode} decides. */
    private final ErrorHandler errorHandler;

    private WeirConfig(Map<String, String> values, ErrorHandler errorHandler) {
        this.values = Collections.unmodifiableMap(new TreeMap<>(values));
        this.errorHandler = errorHandler;
        this.settings = SettingValues.resolve(values);
        this.clientSettings = ClientSettings.from(values, guarantee(), bootstrapServers());
    }

    public static Builder builder() {
        return new Builder();
    }

    public String applicationId() {
        return settings.get(Settings.APPLICATION_ID);
    }

    public String bootstrapServers() {
        return settings.get(Settings.BOOTSTRAP_SERVERS);
    }

    public DeliveryGuarantee guarantee() {
        return settings.get(Settings.PROCESSING_GUARANTEE);
    }

    public int numStreamThreads() {
        return settings.get(Settings.NUM_STREAM_THREADS);
    }

    public Duration commitInterval() {
        return settings.get(Settings.COMMIT_INTERVAL_MS);
    }

    public Path stateDir() {
        return settings.get(Settings.STATE_DIR);
    }

    public Optional<String> instanceId() {
        return settings.get(Settings.INSTANCE_ID);
    }

    /**
     * True with {@code run.mode=bounded}: the instance processes its inputs to the end offsets taken
     * at start (see {@code WeirApp.runBounded}), then stops.
     */
    public boolean bounded() {
        return settings.get(Settings.RUN_MODE) == Settings.RunMode.BOUNDED;
    }

    /**
     * True with {@code run.mode=describe}: starting the application only writes its topology
     * description (to {@link #describeFile()}, or stdout) and stops, without contacting Kafka.
     */
    public boolean describeOnly() {
        return settings.get(Settings.RUN_MODE) == Settings.RunMode.DESCRIBE;
    }

    /** With {@code run.mode=describe}: the file to write the description to; empty for stdout. */
    public Optional<Path> describeFile() {
        return settings.get(Settings.DESCRIBE_FILE);
    }

    /** With a bounded run: where it ends in time ({@code bounded.until}); empty for no time limit. */
    public Optional<Instant> boundedUntil() {
        return settings.get(Settings.BOUNDED_UNTIL);
    }

    public Duration shutdownTimeout() {
        return settings.get(Settings.SHUTDOWN_TIMEOUT_MS);
    }

    /**
     * True with {@code shutdown.leave.group=true}: SIGTERM leaves the consumer group so the
     * instance's tasks move at once (an instance that will not come back); false when it keeps its
     * static membership so a restart with the same instance id moves nothing, or decides at SIGTERM
     * ({@link #shutdownLeaveGroupOnScaleIn()}).
     */
    public boolean shutdownLeaveGroup() {
        return settings.get(Settings.SHUTDOWN_LEAVE_GROUP) == Settings.ShutdownLeaveGroup.TRUE;
    }

    /**
     * True with {@code shutdown.leave.group=kubernetes_scale_in}: SIGTERM leaves the consumer group
     * only if the instance's pod is being removed by a scale-down of its StatefulSet (its ordinal is
     * at or above the desired replicas the Kubernetes API reports), and keeps the membership
     * otherwise (a rollout, an eviction, a deleted pod).
     */
    public boolean shutdownLeaveGroupOnScaleIn() {
        return settings.get(Settings.SHUTDOWN_LEAVE_GROUP) == Settings.ShutdownLeaveGroup.KUBERNETES_SCALE_IN;
    }

    /** How long an instance may make no progress before it warns and reports itself not ready. */
    public Duration stallWarn() {
        return settings.get(Settings.STALL_WARN_MS);
    }

    /** The {@code http.*} settings: the instance's HTTP server, its TLS and its tokens (a view). */
    public HttpConfig http() {
        return new HttpConfig(settings);
    }

    /** How far behind (changelog records) a store restores by ingestion; 0: never. */
    public long restoreBulkMinRecords() {
        return settings.get(Settings.RESTORE_BULK_MIN_RECORDS);
    }

    /** Standby copies of each task's stores on other instances. */
    public int numStandbyReplicas() {
        return settings.get(Settings.NUM_STANDBY_REPLICAS);
    }

    /** Warm-up copies restoring at once on the instances balance will move tasks to. */
    public int maxWarmupReplicas() {
        return settings.get(Settings.MAX_WARMUP_REPLICAS);
    }

    /** Changelog records an instance may lack and still count as caught up for a task. */
    public long acceptableRecoveryLag() {
        return settings.get(Settings.ACCEPTABLE_RECOVERY_LAG);
    }

    /** While warm-ups run, the longest time between two rebalances that check their progress. */
    public Duration probingRebalanceInterval() {
        return settings.get(Settings.PROBING_REBALANCE_INTERVAL_MS);
    }

    /** How long an instance may be silent before the others remove it from the group; zero: off. */
    public Duration failureDetection() {
        return settings.get(Settings.FAILURE_DETECTION_MS);
    }

    /**
     * True when a failed record may go to the dead-letter topic: a handler is registered, or
     * {@code error.mode=dead_letter}; false when every failure stops the app.
     */
    public boolean deadLetterOnError() {
        return errorHandler != null || settings.get(Settings.ERROR_MODE) == Settings.ErrorMode.DEAD_LETTER;
    }

    /**
     * What decides per failed record: the handler registered with {@link Builder#errorHandler},
     * else the one {@code error.mode} names ({@link ErrorHandler#deadLetter()} or {@link ErrorHandler#fail()}).
     */
    public ErrorHandler errorHandler() {
        if (errorHandler != null) {
            return errorHandler;
        }
        return settings.get(Settings.ERROR_MODE) == Settings.ErrorMode.DEAD_LETTER
                ? ErrorHandler.deadLetter()
                : ErrorHandler.fail();
    }

    /** The handler registered in code, if any (a test driver built from this config takes it too). */
    public Optional<ErrorHandler> registeredErrorHandler() {
        return Optional.ofNullable(errorHandler);
    }

    public String deadLetterTopic() {
        return settings.get(Settings.DEAD_LETTER_TOPIC);
    }

    public int deadLetterMaxMessageBytes() {
        return settings.get(Settings.DEAD_LETTER_MAX_MESSAGE_BYTES);
    }

    public int bufferedRecordsPerPartition() {
        return settings.get(Settings.BUFFERED_RECORDS_PER_PARTITION);
    }

    public Duration pollTimeout() {
        return settings.get(Settings.POLL_MS);
    }

    public Duration transactionTimeout() {
        return settings.get(Settings.TRANSACTION_TIMEOUT_MS);
    }

    public Duration commitRetryTimeout() {
        return settings.get(Settings.COMMIT_RETRY_TIMEOUT_MS);
    }

    /** Replication factor for internal topics; -1 for the broker's default. */
    public int internalTopicReplicationFactor() {
        return settings.get(Settings.INTERNAL_TOPIC_REPLICATION_FACTOR);
    }

    /** Uncommitted store writes (bytes) a thread holds before it commits early. */
    public long stateCacheMaxBytes() {
        return settings.get(Settings.STATE_CACHE_MAX_BYTES);
    }

    /** Memory budget shared by all RocksDB stores of the instance. */
    public long rocksDbMemoryBytes() {
        return settings.get(Settings.ROCKSDB_MEMORY_BYTES);
    }

    /** Whether the instance's Kafka clients have their own metrics bound to its registry. */
    public boolean kafkaClientMetrics() {
        return settings.get(Settings.METRICS_KAFKA_CLIENTS_ENABLED);
    }

    /** Heap each store of each task keeps for committed entries it read or wrote. */
    public long storeReadCacheBytes() {
        return settings.get(Settings.STORE_READ_CACHE_BYTES);
    }

    /** How long the local state of a task this instance no longer runs is kept before it is deleted. */
    public Duration stateCleanupDelay() {
        return settings.get(Settings.STATE_CLEANUP_DELAY_MS);
    }

    /** How often committed records are deleted from repartition topics; zero: never. */
    public Duration repartitionPurgeInterval() {
        return settings.get(Settings.REPARTITION_PURGE_INTERVAL_MS);
    }

    /** How often stores flush to local disk. */
    public Duration stateFlushInterval() {
        return settings.get(Settings.STATE_FLUSH_INTERVAL_MS);
    }

    /**
     * {@code tracing.step.spans}: with tracing on (an OpenTelemetry SDK), a span per processor step
     * of every sampled record, beside the record's own span.
     */
    public boolean tracingStepSpans() {
        return settings.get(Settings.TRACING_STEP_SPANS);
    }

    /**
     * {@code tracing.root.ratio}: with tracing on, the share of input records without a trace
     * context that may start a trace; the others get no span, without asking the SDK.
     */
    public double tracingRootRatio() {
        return settings.get(Settings.TRACING_ROOT_RATIO);
    }

    /** The event-time settings: timestamps, watermarks, late records (a view). */
    public EventTimeConfig eventTime() {
        return new EventTimeConfig(settings);
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

    /**
     * Kafka settings for the producers, as given (unprefixed and {@code producer.}, plus
     * {@code bootstrap.servers}).
     */
    public Map<String, Object> producerOverrides() {
        return clientSettings.producer();
    }

    /**
     * Kafka settings for the admin client, as given (unprefixed and {@code admin.}, plus
     * {@code bootstrap.servers}).
     */
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

    /**
     * Collects settings from their sources (see {@link WeirConfig} for the precedence);
     * {@link #build()} validates them. Not thread-safe.
     */
    public static final class Builder {

        private final ConfigSources sources = new ConfigSources();
        private ErrorHandler errorHandler;

        private Builder() {}

        /**
         * Registers the handler that decides, per failed record, whether it is skipped, dead-lettered
         * (with the handler's headers) or stops the application; it replaces {@code error.mode}
         * (see {@link ErrorHandler}).
         */
        public Builder errorHandler(ErrorHandler handler) {
            this.errorHandler = java.util.Objects.requireNonNull(handler, "handler");
            return this;
        }

        public Builder applicationId(String id) {
            return set(Settings.APPLICATION_ID.name(), id);
        }

        public Builder bootstrapServers(String servers) {
            return set(Settings.BOOTSTRAP_SERVERS.name(), servers);
        }

        public Builder guarantee(DeliveryGuarantee guarantee) {
            return set(Settings.PROCESSING_GUARANTEE.name(), Setting.spelling(guarantee));
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
            return new WeirConfig(sources.merge(), errorHandler);
        }
    }
}
