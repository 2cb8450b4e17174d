package io.weir.internal.topology;

import io.weir.common.internal.Deadline;
import io.weir.common.internal.KafkaCalls;
import io.weir.config.WeirConfig;
import io.weir.errors.ClusterException;
import io.weir.errors.TopologyException;
import io.weir.internal.config.ClientRole;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.config.KafkaClients;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application's topology as last started, recorded in Kafka: a compacted one-partition topic
 * {@code <application.id>-topology} holding one record, key {@value #KEY}, value the
 * {@link TopologyDescription} as JSON. Every instance, at start-up:
 * <ol>
 *   <li>{@link #check}: reads the recorded description and compares it with its own
 *       ({@link TopologyDiff}): nothing changed, or no record yet: silent; a change safe for a
 *       rolling upgrade: one INFO line listing the changes; a change that needs a savepoint or a
 *       reset: one WARN line naming it, and the start goes on (as Kafka Streams users expect),
 *       unless the new topology cannot read the state a store kept (its kind or key or value format
 *       changed while it was persistent or logged): then the start fails with an
 *       {@link IllegalStateException} naming the store and the ways out, since going on would feed
 *       old bytes to the new serdes;</li>
 *   <li>{@link #write}, once the cluster checks passed: records its own description (the topic is
 *       created when missing).</li>
 * </ol>
 * The record is an aid, not a lock: an instance that cannot read or write it (no ACL on the
 * topic, say) warns and starts. The last instance started wins, so during a rolling upgrade an old
 * instance restarted after a new one writes the old description back (and logs the changes in
 * reverse).
 *
 * <p>Called from the thread starting the application, which {@link Recorded} reads for on a thread
 * of its own; holds no clients between calls.
 */
public final class TopologyRecord {

    /** The key of the one record. */
    public static final String KEY = "topology";

    private static final Logger log = LoggerFactory.getLogger(TopologyRecord.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final WeirConfig config;
    private final Map<String, Object> producerConfig;
    private final TopologyDescription current;
    /** The recorded description is the current one: a restart of the same version has nothing to write. */
    private boolean alreadyRecorded;

    private TopologyRecord(WeirConfig config, Map<String, Object> producerConfig, TopologyDescription current) {
        this.config = config;
        this.producerConfig = Map.copyOf(producerConfig);
        this.current = current;
    }

    /**
     * Compares {@code current} with the recorded description and logs (or fails) as the class
     * comment says; returns the record to {@link #write} once the start-up checks passed.
     *
     * @param recorded the recorded description, read in the background ({@link Recorded#readInBackground})
     * @throws IllegalStateException if a store's kept state cannot be read by the new topology
     * @throws ClusterException if the cluster cannot be reached
     */
    public static TopologyRecord check(
            WeirConfig config, Map<String, Object> producerConfig, TopologyDescription current, Recorded recorded) {
        TopologyRecord record = new TopologyRecord(config, producerConfig, current);
        Optional<TopologyDescription> previous;
        try {
            previous = recorded.description();
        } catch (Recorded.Unreadable e) {
            log.warn(
                    "{}: cannot read the recorded topology from {}, so the compatibility check is skipped: {}",
                    config.applicationId(),
                    InternalTopic.TOPOLOGY.of(config.applicationId()),
                    e.getCause().toString());
            return record;
        }
        record.alreadyRecorded =
                previous.map(p -> p.toJson().equals(current.toJson())).orElse(false);
        Outcome outcome = judge(config.applicationId(), previous.orElse(null), current);
        switch (outcome.level()) {
            case SILENT -> {}
            case INFO -> log.info("{}", outcome.message());
            case WARN -> log.warn("{}", outcome.message());
            case FAIL -> throw new TopologyException(outcome.message());
        }
        return record;
    }

    /**
     * Records the description in the topic {@code TopicSetup} created with the other internal
     * topics (and waited for); warns instead of failing.
     */
    public void write() {
        if (alreadyRecorded) {
            return; // a producer's start and a round trip saved on every restart of the same version
        }
        String topic = InternalTopic.TOPOLOGY.of(config.applicationId());
        try (KafkaProducer<byte[], byte[]> producer =
                KafkaClients.unmetered().producer(ClientRole.ofInstance("topology-producer"), producerConfig())) {
            KafkaCalls.get(
                    producer.send(new ProducerRecord<>(
                            topic,
                            0,
                            KEY.getBytes(StandardCharsets.UTF_8),
                            current.toJson().getBytes(StandardCharsets.UTF_8))),
                    TIMEOUT,
                    "write the record");
        } catch (RuntimeException e) {
            log.warn(
                    "{}: cannot record the topology in {} (the next start cannot check compatibility against this"
                            + " version): {}",
                    config.applicationId(),
                    topic,
                    e instanceof ClusterException ? e.getMessage() : e.toString());
        }
    }

    /**
     * The recorded description of an application, if any (none when the topic does not exist).
     *
     * @param consumerSettings Kafka consumer settings (bootstrap servers, security); group and
     *                         deserializers are set here
     * @throws ClusterException if the topic cannot be read within {@code timeout}
     * @throws IllegalArgumentException if the record is not a topology description
     */
    public static Optional<TopologyDescription> read(
            Map<String, Object> consumerSettings, String applicationId, Duration timeout) {
        Map<String, Object> c = new HashMap<>(consumerSettings);
        c.remove(ConsumerConfig.GROUP_ID_CONFIG);
        c.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        c.remove(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG);
        c.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, applicationId + "-topology-reader");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // Asking for a missing topic's partitions must not create it (a broker with auto-creation
        // would, uncompacted): TopicSetup creates it with its settings.
        c.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        TopicPartition tp = new TopicPartition(InternalTopic.TOPOLOGY.of(applicationId), 0);
        Deadline deadline = Deadline.after(timeout);
        try (KafkaConsumer<byte[], byte[]> consumer =
                KafkaClients.unmetered().consumer(ClientRole.ofInstance("topology-consumer"), c)) {
            if (consumer.partitionsFor(tp.topic(), timeout).isEmpty()) {
                return Optional.empty(); // no topic: nothing recorded yet
            }
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp), timeout).get(tp);
            byte[] latest = null;
            while (consumer.position(tp, timeout) < end) {
                if (deadline.expired()) {
                    throw new ClusterException("timed out after " + timeout + " reading " + tp);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.key() != null && KEY.equals(new String(r.key(), StandardCharsets.UTF_8))) {
                        latest = r.value(); // a null value (a tombstone) removes the record
                    }
                }
            }
            return latest == null
                    ? Optional.empty()
                    : Optional.of(TopologyDescription.parse(new String(latest, StandardCharsets.UTF_8)));
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            throw new ClusterException("timed out after " + timeout + " reading " + tp, e);
        }
    }

    /** How loud a start-up should be about a change of topology. */
    enum Level {
        SILENT,
        INFO,
        WARN,
        FAIL
    }

    /** What to log (or the failure's message). */
    record Outcome(Level level, String message) {}

    /** The decision of {@link #check}, pure: {@code recorded} is null when there is no record yet. */
    static Outcome judge(String applicationId, TopologyDescription recorded, TopologyDescription current) {
        if (recorded == null) {
            return new Outcome(Level.SILENT, "");
        }
        TopologyDiff diff = TopologyDiff.between(recorded, current);
        if (diff.identical()) {
            return new Outcome(Level.SILENT, "");
        }
        String changes = String.join("; ", diff.changes());
        if (diff.verdict() == TopologyDiff.Verdict.SAFE) {
            return new Outcome(
                    Level.INFO,
                    applicationId + ": the topology changed since the recorded version;"
                            + " safe for a rolling upgrade: " + changes);
        }
        List<String> unreadable = diff.incompatibleStores();
        if (!unreadable.isEmpty()) {
            return new Outcome(
                    Level.FAIL,
                    applicationId + " cannot start: the state of store(s) " + unreadable
                            + " cannot be read by the new topology (" + String.join("; ", diff.reasons())
                            + "). Reset the"
                            + " application (weir reset), restore a savepoint with --allow-dropped-state, or give the store"
                            + " a new name; if the new serde does read the old bytes, have its formatId() return the old"
                            + " id. `weir topology diff` lists every change.");
        }
        return new Outcome(
                Level.WARN,
                applicationId + ": the topology changed in ways a rolling upgrade cannot"
                        + " carry: " + String.join("; ", diff.reasons())
                        + ". Restore a savepoint with --allow-dropped-state"
                        + " or reset the application (weir reset) to start clean; starting anyway. All changes: "
                        + changes);
    }

    /**
     * The recorded description, read on a thread of its own while the start-up does its other
     * checks (a consumer's creation and a round trip: half a second of a restart). A start that fails before it is needed
     * {@link #close closes} it, which stops the read.
     */
    public static final class Recorded implements AutoCloseable {

        /** The topic exists but its record could not be read: the check is skipped, the start goes on. */
        static final class Unreadable extends RuntimeException {
            Unreadable(RuntimeException cause) {
                super(cause);
            }
        }

        private final java.util.concurrent.FutureTask<Optional<TopologyDescription>> read;

        private Recorded(WeirConfig config, Map<String, Object> consumerConfig) {
            // Its own consumer, not the admin client: the start-up's checks queue their requests on
            // the admin's one thread, and this read would wait behind them.
            this.read = new java.util.concurrent.FutureTask<>(() -> {
                try {
                    return read(consumerConfig, config.applicationId(), TIMEOUT);
                } catch (RuntimeException e) {
                    throw new Unreadable(e);
                }
            });
        }

        /** Starts reading on a daemon thread; {@link #description} waits for it. */
        public static Recorded readInBackground(WeirConfig config, Map<String, Object> consumerConfig) {
            Recorded r = new Recorded(config, consumerConfig);
            Thread t = new Thread(r.read, config.applicationId() + "-topology-reader");
            t.setDaemon(true);
            t.start();
            return r;
        }

        /**
         * The recorded description; empty when there is none (no topic or no record).
         *
         * @throws Unreadable if the record cannot be read (the cluster cannot be reached, no ACL)
         */
        Optional<TopologyDescription> description() {
            try {
                return read.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ClusterException("interrupted while reading the recorded topology", e);
            } catch (java.util.concurrent.ExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            }
        }

        /** Stops a read still under way (its consumer closes); nothing if it is done. */
        @Override
        public void close() {
            read.cancel(true);
        }
    }

    private Map<String, Object> producerConfig() {
        Map<String, Object> p = new HashMap<>(producerConfig);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return p;
    }
}
