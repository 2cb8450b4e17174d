package io.weir.internal.supervision;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.weir.common.internal.KafkaCalls;
import io.weir.config.WeirConfig;
import io.weir.errors.ClusterException;
import io.weir.internal.cluster.ClientConfigs;
import io.weir.internal.cluster.InstanceMembers;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.metrics.WeirMeter;
import io.weir.internal.thread.GroupRejoins;
import io.weir.sink.DeliveryGuarantee;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
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
 * <p>Threads: its own daemon thread ({@code <app>-<instance>-liveness}) owns the consumer;
 * {@link #announceShutdown} may be called from any thread.
 */
public final class LivenessWatch implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LivenessWatch.class);
    /** The topic keeps only recent heartbeats: an hour is plenty to learn who was alive. */
    private static final int HISTORY = 500;

    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(5);
    /** The word of an {@code alive} heartbeat that says its sender just started a rebalance. */
    static final String REBALANCE = "rebalance=started";

    private final WeirConfig config;
    private final String instanceId;
    private final Admin admin;
    private final TopicPartition partition;
    private final long detectionNanos;
    private final long beatNanos;
    private final long awayMillis;
    private final KafkaProducer<byte[], byte[]> producer;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread thread;
    private final Counter removals;
    /** Under exactly-once only: other guarantees leave no transaction open. */
    private final TransactionFence fence;

    private final Map<String, Peer> peers = new HashMap<>();
    private volatile int livePeers;
    private volatile boolean running = true;
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

    private long lastOwnBeatSeenNanos = System.nanoTime();
    private long lastBeatNanos;
    private long retryRemovalAfterNanos = System.nanoTime();

    /** What is known of another instance: when it was last heard, and for how long it said it would be away. */
    private static final class Peer {
        long seenNanos;
        long awayUntilNanos;
        int threads;
        boolean left;
    }

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
        this.admin = admin;
        this.status = status;
        this.partition = new TopicPartition(InternalTopic.LIVENESS.of(config.applicationId()), 0);
        this.detectionNanos = config.failureDetection().toNanos();
        this.beatNanos = Math.max(Duration.ofMillis(200).toNanos(), detectionNanos / 4);
        Object session = clients.consumer(0).get(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG);
        this.awayMillis = Long.parseLong(String.valueOf(session)) + 2_000;
        this.producer = new KafkaProducer<>(producerConfig(clients));
        this.consumer = new KafkaConsumer<>(consumerConfig(clients));
        this.thread = new Thread(this::run, config.applicationId() + "-" + instanceId + "-liveness");
        this.thread.setDaemon(true);
        this.fence = config.guarantee() == DeliveryGuarantee.EXACTLY_ONCE ? new TransactionFence(clients) : null;
        this.removals =
                WeirMeter.FAILURE_DETECTION_REMOVALS.counter().tags(tags).register(registry);
        WeirMeter.FAILURE_DETECTION_PEERS
                .gauge(this, w -> w.livePeers)
                .tags(tags)
                .register(registry);
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
        thread.start();
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

    private void run() {
        while (running) {
            try {
                long now = System.nanoTime();
                if (now - lastBeatNanos >= beatNanos) {
                    lastBeatNanos = now;
                    synchronized (this) {
                        if (!announced) {
                            beat(alive());
                        }
                    }
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    heard(r, System.nanoTime());
                }
                check(System.nanoTime());
            } catch (org.apache.kafka.common.errors.WakeupException
                    | org.apache.kafka.common.errors.InterruptException e) {
                break;
            } catch (RuntimeException e) {
                log.debug("liveness round failed", e);
            }
        }
    }

    private void heard(ConsumerRecord<byte[], byte[]> r, long now) {
        if (r.key() == null || r.value() == null) {
            return;
        }
        String from = new String(r.key(), StandardCharsets.UTF_8);
        if (from.equals(instanceId)) {
            lastOwnBeatSeenNanos = now;
            return;
        }
        String[] words = new String(r.value(), StandardCharsets.UTF_8).split(" ");
        if (r.offset() >= liveFrom && words.length > 2 && words[2].equals(REBALANCE)) {
            rejoins.requested("instance " + from + " started a rebalance");
        }
        Peer peer = peers.computeIfAbsent(from, k -> new Peer());
        peer.seenNanos = now;
        peer.left = words[0].equals("left");
        peer.awayUntilNanos = words[0].equals("away") && words.length > 1
                ? now + TimeUnit.MILLISECONDS.toNanos(parse(words[1], 0))
                : now;
        String threads =
                words[0].equals("away") ? (words.length > 2 ? words[2] : "1") : (words.length > 1 ? words[1] : "1");
        peer.threads = (int) parse(threads, 1);
    }

    private static long parse(String s, long fallback) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** Removes the instances silent for longer than the detection time (unless we are the ones cut off). */
    private void check(long now) {
        int live = 0;
        List<String> silent = new ArrayList<>();
        for (Map.Entry<String, Peer> e : peers.entrySet()) {
            Peer p = e.getValue();
            if (p.left) {
                continue;
            }
            long silentSince = Math.max(p.seenNanos, p.awayUntilNanos);
            if (now - silentSince <= detectionNanos) {
                live++;
            } else {
                silent.add(e.getKey());
            }
        }
        livePeers = live;
        if (silent.isEmpty() || now - lastOwnBeatSeenNanos > detectionNanos) {
            return; // nothing to do, or we cannot tell: our own heartbeats do not come back
        }
        if (now - retryRemovalAfterNanos < 0) {
            return; // a removal failed just now: one attempt per heartbeat interval, not per poll
        }
        Map<String, Peer> suspects = new HashMap<>();
        silent.forEach(id -> suspects.put(id, peers.remove(id)));
        removeFromGroup(suspects, now);
    }

    private void removeFromGroup(Map<String, Peer> suspects, long now) {
        ConsumerGroupDescription group;
        try {
            group = KafkaCalls.get(
                            admin.describeConsumerGroups(List.of(config.applicationId()))
                                    .all(),
                            ADMIN_TIMEOUT,
                            "describe the consumer group " + config.applicationId())
                    .get(config.applicationId());
        } catch (ClusterException e) {
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
            log.debug("cannot describe the group to remove {}; will try again", suspects.keySet(), e);
            suspects.forEach(this::suspectAgain);
            return;
        }
        for (Map.Entry<String, Peer> e : suspects.entrySet()) {
            String instance = e.getKey();
            List<MemberToRemove> members = InstanceMembers.in(group, instance);
            if (members.isEmpty()) {
                continue; // gone already (left, removed by another instance, or its session expired)
            }
            String seconds = String.format("%.1f", (now - e.getValue().seenNanos) / 1e9);
            try {
                if (!InstanceMembers.remove(
                        admin,
                        config.applicationId(),
                        members,
                        "no heartbeat from instance " + instance + " for " + seconds + " s",
                        ADMIN_TIMEOUT)) {
                    log.debug("removing {} found nothing to remove", instance);
                    continue;
                }
                removals.increment();
                // The removal started a rebalance that every member would otherwise learn of from
                // its next heartbeat: the tasks move sooner if they all join now.
                announceRebalance("instance " + instance + " was removed from the group");
                String fenced = fence(instance, Math.max(e.getValue().threads, members.size()));
                log.warn(
                        "instance {} sent no heartbeat for {} s (failure.detection.ms={}); removed it from the"
                                + " group so its tasks move now{}",
                        instance,
                        seconds,
                        config.failureDetection().toMillis(),
                        fenced);
            } catch (ClusterException ex) {
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
                log.debug("removing {} failed; will try again: {}", instance, ex.getMessage());
                suspectAgain(instance, e.getValue());
            }
        }
    }

    /**
     * Aborts the transactions the removed instance left open (see {@link TransactionFence}), after
     * the removal so the rebalance runs meanwhile.
     *
     * @return the end of the removal's log line
     */
    private String fence(String instance, int threads) {
        if (fence == null) {
            return "";
        }
        long started = System.nanoTime();
        try {
            fence.fence(instance, threads);
            return String.format(
                    ", and fenced its transactional ids in %d ms so its open transactions abort now",
                    (System.nanoTime() - started) / 1_000_000);
        } catch (RuntimeException ex) {
            if (ex instanceof InterruptException) {
                Thread.currentThread().interrupt();
            }
            return "; fencing its transactional ids failed (" + ex.getMessage() + "), so read_committed readers of"
                    + " its outputs wait until its open transactions time out (transaction.timeout.ms="
                    + config.transactionTimeout().toMillis() + ")";
        }
    }

    /**
     * Puts back a silent instance whose removal did not go through (the coordinator moving, an
     * admin timeout), so the next check tries again instead of leaving its tasks stalled until its
     * session times out. A heartbeat that arrived meanwhile wins: the instance is back.
     */
    private void suspectAgain(String instance, Peer peer) {
        peers.putIfAbsent(instance, peer);
        retryRemovalAfterNanos = System.nanoTime() + beatNanos;
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            consumer.close(Duration.ofSeconds(2));
        } catch (RuntimeException e) {
            log.debug("closing the liveness consumer failed", e);
        }
        producer.close(Duration.ofSeconds(2));
    }
}
