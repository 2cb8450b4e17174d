package io.weir.internal.supervision;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.weir.common.internal.Deadline;
import io.weir.common.internal.Worker;
import io.weir.config.WeirConfig;
import io.weir.internal.cluster.ClientConfigs;
import io.weir.internal.config.ClientRole;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.metrics.WeirMeter;
import io.weir.internal.thread.GroupRejoins;
import io.weir.sink.DeliveryGuarantee;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fast failure detection: instances tell each other they are alive through a one-partition
 * topic ({@code <application.id>-liveness}), and an instance silent for {@code failure.detection.ms}
 * is removed from the consumer group by the others with the admin API (KIP-345), so its tasks
 * move at once instead of after {@code consumer.session.timeout.ms}. Under exactly-once it then
 * fences the removed instance's transactional ids ({@link TransactionFence}), so the transaction it
 * left open aborts at once instead of holding back read_committed readers of its outputs until
 * {@code transaction.timeout.ms}.
 *
 * <p>What makes it safe:
 * <ul>
 *   <li>Silence is measured on the receiver's own clock (when a heartbeat arrived), never by
 *       comparing clocks of different machines.</li>
 *   <li>An instance that cannot see its own heartbeats (it is cut off from Kafka) accuses no one.</li>
 *   <li>A clean shutdown that keeps the membership (a restart) announces how long it will be
 *       away (the session timeout), and is not removed meanwhile; one that leaves the group says so.</li>
 *   <li>A live instance removed by mistake (a long GC pause) is fenced: its consumer must rejoin,
 *       and its open transaction cannot commit offsets for the old generation, so it aborts and
 *       its work is redone by the new owner. Nothing is lost or doubled; it only costs a rebalance.</li>
 * </ul>
 * Several survivors may remove the same member; the second removal finds nothing to do.
 *
 * <p>The same topic carries rebalances an instance starts ({@link #announceRebalance}: its warm-ups
 * caught up, or it removed a silent instance), so that the others' stream threads join them within
 * a fetch instead of at their next consumer heartbeat ({@link GroupRejoins}).
 *
 * <p>Meters: {@code weir.failure.detection.removals} (instances removed from the group) and
 * {@code weir.failure.detection.peers} (other instances heard from within the detection time).
 *
 * <p>This class does the heartbeats' Kafka I/O; {@link Peers} keeps what they say of the others,
 * and {@link SilentInstanceRemoval} removes and fences the silent ones.
 *
 * <p>Threads: its own daemon {@link Worker} ({@code <app>-<instance>-liveness}) owns the consumer;
 * {@link #announceShutdown} may be called from any thread.
 */
public final class LivenessWatch implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LivenessWatch.class);
    /** The topic keeps only recent heartbeats: an hour is plenty to learn who was alive. */
    private static final int HISTORY = 500;

    /** The word of an {@code alive} heartbeat that says its sender just started a rebalance. */
    static final String REBALANCE = "rebalance=started";

    private final WeirConfig config;
    private final String instanceId;
    private final TopicPartition partition;
    private final Duration beatInterval;
    private final long awayMillis;
    private final KafkaProducer<byte[], byte[]> producer;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Peers peers;
    private final SilentInstanceRemoval removal;
    private Worker worker;

    /**
     * Set by {@link #announceShutdown}: from then on this instance sends nothing more. An "alive"
     * heartbeat after the announcement would cancel it at the others, who would then remove a
     * restarting instance once it had been silent for the detection time.
     */
    private volatile boolean announced;

    private final java.util.function.Supplier<String> status;
    private final GroupRejoins rejoins;
    /** The topic's end when this instance started: rebalances announced before are history. */
    private long liveFrom;

    private Deadline nextBeat = Deadline.after(Duration.ZERO);

    /**
     * @param status what the instance is doing, as {@code key=value} words without spaces, sent
     *               with every heartbeat so that tools ({@code weir describe}) can show it
     */
    public LivenessWatch(
            WeirConfig config,
            ClientConfigs clients,
            String instanceId,
            Admin admin,
            MeterRegistry registry,
            Tags tags,
            java.util.function.Supplier<String> status,
            GroupRejoins rejoins) {
        this.rejoins = rejoins;
        this.config = config;
        this.instanceId = instanceId;
        this.status = status;
        this.partition = new TopicPartition(InternalTopic.LIVENESS.of(config.applicationId()), 0);
        Duration detection = config.failureDetection();
        this.beatInterval = max(Duration.ofMillis(200), detection.dividedBy(4));
        Object session = clients.consumer(0).get(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG);
        this.awayMillis = Long.parseLong(String.valueOf(session)) + 2_000;
        this.producer = clients.kafka().producer(ClientRole.ofInstance("liveness-producer"), producerConfig(clients));
        this.consumer = clients.kafka().consumer(ClientRole.ofInstance("liveness-consumer"), consumerConfig(clients));
        this.peers = new Peers(detection, beatInterval);
        Counter removals =
                WeirMeter.FAILURE_DETECTION_REMOVALS.counter().tags(tags).register(registry);
        WeirMeter.FAILURE_DETECTION_PEERS.gauge(peers, Peers::live).tags(tags).register(registry);
        TransactionFence fence =
                config.guarantee() == DeliveryGuarantee.EXACTLY_ONCE ? new TransactionFence(clients) : null;
        this.removal = new SilentInstanceRemoval(config, admin, fence, removals, this::announceRebalance);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static Map<String, Object> producerConfig(ClientConfigs clients) {
        Map<String, Object> p = clients.plainProducer("liveness");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        p.put(ProducerConfig.ACKS_CONFIG, "1");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 3_000);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 5_000);
        return p;
    }

    private static Map<String, Object> consumerConfig(ClientConfigs clients) {
        Map<String, Object> c = clients.plainConsumer("liveness");
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return c;
    }

    public void start() {
        consumer.assign(List.of(partition));
        long end = consumer.endOffsets(List.of(partition)).get(partition);
        long begin = consumer.beginningOffsets(List.of(partition)).get(partition);
        // Recent history: who was alive before this instance started gets one detection time to speak.
        consumer.seek(partition, Math.max(begin, end - HISTORY));
        liveFrom = end;
        beat(alive());
        // Not interrupted: the consumer's wakeup ends its poll, and an interrupt would cut an admin
        // call (a removal) in the middle.
        worker = Worker.named(config.applicationId() + "-" + instanceId + "-liveness")
                .interruptOnStop(false)
                .wakeUp(consumer::wakeup)
                .loop(self -> round());
    }

    /**
     * Tells the others this instance stops: {@code leaving} (it left the group; nothing to remove)
     * or a restart (it keeps its membership for the session timeout; do not remove it meanwhile).
     */
    public void announceShutdown(boolean leaving) {
        synchronized (this) { // no "alive" from the liveness thread can follow the announcement
            announced = true;
            beat(leaving ? "left" : "away " + awayMillis + " " + config.numStreamThreads());
        }
        try {
            producer.flush();
        } catch (RuntimeException e) {
            log.debug("flushing the shutdown announcement failed", e);
        }
    }

    /**
     * A stream thread of this instance starts a rebalance: the other instances' threads (and this
     * one's others) join it now rather than at their next consumer heartbeat.
     */
    public void announceRebalance(String reason) {
        rejoins.requested(reason);
        synchronized (this) {
            if (!announced) {
                beat(alive().replaceFirst("^(alive \\d+)", "$1 " + REBALANCE));
            }
        }
    }

    /** {@code alive <threads> <status words>}: the others read the first two words. */
    private String alive() {
        String words;
        try {
            words = status.get();
        } catch (RuntimeException e) {
            words = ""; // the heartbeat matters, the status is for people
        }
        return "alive " + config.numStreamThreads() + (words.isEmpty() ? "" : " " + words);
    }

    /**
     * What a heartbeat says, for tools: {@code kind} ({@code alive}, {@code away}, {@code left})
     * and the {@code key=value} words of an alive instance's status.
     */
    public static Map<String, String> parseHeartbeat(String value) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        String[] words = value.split(" ");
        out.put("kind", words[0]);
        for (String w : words) {
            int eq = w.indexOf('=');
            if (eq > 0 && !w.equals(REBALANCE)) { // a signal between instances, not a status
                out.put(w.substring(0, eq), w.substring(eq + 1));
            }
        }
        return out;
    }

    private void beat(String message) {
        try {
            producer.send(new ProducerRecord<>(
                    partition.topic(),
                    0,
                    instanceId.getBytes(StandardCharsets.UTF_8),
                    message.getBytes(StandardCharsets.UTF_8)));
        } catch (RuntimeException e) {
            log.debug("sending a heartbeat failed", e); // silence is what the others act on
        }
    }

    /** One round: a heartbeat when due, what the others said, and the removal of the silent ones. */
    private void round() {
        try {
            if (nextBeat.expired()) {
                nextBeat = Deadline.after(beatInterval);
                synchronized (this) {
                    if (!announced) {
                        beat(alive());
                    }
                }
            }
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                heard(r, System.nanoTime());
            }
            long now = System.nanoTime();
            Map<String, Peers.Peer> silent = peers.takeSilent(now);
            if (!silent.isEmpty()) {
                removal.remove(silent, peers, now);
            }
        } catch (WakeupException | InterruptException e) {
            throw e; // the stop
        } catch (RuntimeException e) {
            log.debug("liveness round failed", e);
        }
    }

    private void heard(ConsumerRecord<byte[], byte[]> r, long now) {
        if (r.key() == null || r.value() == null) {
            return;
        }
        String from = new String(r.key(), StandardCharsets.UTF_8);
        if (from.equals(instanceId)) {
            peers.ownBeatSeen(now);
            return;
        }
        String[] words = new String(r.value(), StandardCharsets.UTF_8).split(" ");
        if (r.offset() >= liveFrom && words.length > 2 && words[2].equals(REBALANCE)) {
            rejoins.requested("instance " + from + " started a rebalance");
        }
        peers.heard(from, words, now);
    }

    @Override
    public void close() {
        if (worker != null) {
            worker.close();
        }
        try {
            consumer.close(Duration.ofSeconds(2));
        } catch (RuntimeException e) {
            log.debug("closing the liveness consumer failed", e);
        }
        producer.close(Duration.ofSeconds(2));
    }
}
