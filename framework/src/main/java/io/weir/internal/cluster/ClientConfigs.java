package io.weir.internal.cluster;

import io.weir.config.WeirConfig;
import io.weir.internal.config.KafkaClients;
import io.weir.sink.DeliveryGuarantee;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The Kafka client settings of each thread: Weir's defaults, then the user's pass-through
 * settings, then the settings Weir must control for its guarantees (which the user cannot set;
 * {@link WeirConfig} rejects them, or, for {@code acks} and {@code enable.idempotence} under
 * exactly_once, accepts only the values Weir sets).
 *
 * <p>Client ids are {@code <prefix>-<thread>-<role>} ({@code -admin} for the admin client), where
 * the prefix is the user's {@code client.id} for that client if set, else
 * {@code <application.id>-<instance>}. Transactional ids never use {@code client.id}: they must
 * stay unique and stable per instance and thread.
 *
 * <p>It carries the instance's {@link KafkaClients} too, so that every part given the settings can
 * make its clients, with their metrics when the instance binds them.
 */
public final class ClientConfigs {

    /**
     * The largest fetch response of a consumer that reads logs in bulk (restores, savepoint
     * copies). Not larger: the JDK reads a socket into Kafka's heap buffer through a temporary
     * direct buffer as large as the whole response, allocated (zeroed, page-faulted) anew each time
     * a response is larger than the thread's cached one. With 64 MiB responses that was half of a
     * restore consumer's CPU; 8 MiB read a 1M-record changelog faster and with a third less CPU.
     */
    public static final int BULK_FETCH_MAX_BYTES = 8 << 20;
    /** A bulk reader's share per partition of {@link #BULK_FETCH_MAX_BYTES}: four partitions fill a response. */
    public static final int BULK_PARTITION_FETCH_BYTES = 2 << 20;
    /**
     * The producers' first retry backoff (it doubles up to {@code retry.backoff.max.ms}, 1 s). A
     * transactional producer's first InitProducerId is typically answered "retry" once; at the
     * clients' default of 100 ms that was a tenth of a second on every start before the group join.
     */
    static final int PRODUCER_RETRY_BACKOFF_MS = 10;

    private final WeirConfig config;
    private final String instanceId;
    private final KafkaClients kafka;

    public ClientConfigs(WeirConfig config, String instanceId, KafkaClients kafka) {
        this.config = config;
        this.instanceId = instanceId;
        this.kafka = kafka;
    }

    /** Where the instance's clients are made, with these settings. */
    public KafkaClients kafka() {
        return kafka;
    }

    public String threadName(int index) {
        return transactionalId(instanceId, index);
    }

    /** The transactional id of an instance's stream thread (under exactly-once): its thread name. */
    private String transactionalId(String instance, int index) {
        return config.applicationId() + "-" + instance + "-" + index;
    }

    /**
     * A producer that takes over another instance's transactional id only to fence it: its
     * initialisation bumps the id's epoch and aborts the transaction left open there. The user's
     * producer settings (security and the like), client id {@code <prefix>-fence-producer}.
     */
    public Map<String, Object> fencingProducer(String instance, int index) {
        // Idempotence and acks=all come with producer(0) under exactly-once, the only guarantee with a fence.
        Map<String, Object> p = plainProducer("fence");
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId(instance, index));
        return p;
    }

    /** {@code <client.id or application.id-instance>-<index>-<role>}. */
    private String clientId(Object userClientId, int index, String role) {
        return clientIdPrefix(userClientId) + "-" + index + "-" + role;
    }

    private String clientIdPrefix(Object userClientId) {
        return userClientId != null ? String.valueOf(userClientId) : config.applicationId() + "-" + instanceId;
    }

    public Map<String, Object> consumer(int index) {
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1000);
        // A crashed instance that does not come back frees its partitions after this long.
        c.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000);
        // Members learn that a rebalance started from a heartbeat answer; a thread holds processing
        // from its own join until the assignment (see TaskManager.rebalancing), so every second of
        // heartbeat interval is up to a second of pause on each rebalance (Kafka's default is 3 s).
        c.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500);
        c.putAll(config.consumerOverrides());
        c.put(
                ConsumerConfig.CLIENT_ID_CONFIG,
                clientId(config.consumerOverrides().get(ConsumerConfig.CLIENT_ID_CONFIG), index, "consumer"));
        c.put(ConsumerConfig.GROUP_ID_CONFIG, config.applicationId());
        // Static membership: a restarted instance takes its tasks back without a rebalance.
        c.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instanceId + "-" + index);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, config.guarantee() == DeliveryGuarantee.NONE);
        c.put(
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                config.guarantee() == DeliveryGuarantee.EXACTLY_ONCE ? "read_committed" : "read_uncommitted");
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return c;
    }

    /**
     * The consumer that reads changelogs into stores: no group (assign mode), read_committed so
     * only committed state is restored, and large fetches because restore is a bulk copy. The
     * user's consumer settings apply, except that Weir's bulk fetch sizes replace theirs (they are
     * tuned for the records of a poll loop); {@code restore.consumer.} settings override both.
     */
    public Map<String, Object> restoreConsumer(int index) {
        Map<String, Object> c = new HashMap<>(config.consumerOverrides());
        // It seeks to the offsets it restores from; the stream consumer's reset policy is not its own.
        c.remove(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG);
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        c.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, BULK_FETCH_MAX_BYTES);
        c.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, BULK_PARTITION_FETCH_BYTES);
        // A restore always has data until its end; a long poll wait would only delay the next
        // request on the same connection (offset look-ups queue behind it at the broker).
        c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
        c.putAll(config.restoreConsumerOverrides());
        c.put(
                ConsumerConfig.CLIENT_ID_CONFIG,
                clientId(c.get(ConsumerConfig.CLIENT_ID_CONFIG), index, "restore-consumer"));
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return c;
    }

    /**
     * A consumer outside the stream threads' group, for an instance's own reads (the state thread's
     * restores and standbys, liveness heartbeats, the topology record, savepoint control): the
     * restore consumer's settings (no group, read_committed, the user's consumer and
     * {@code restore.consumer.} settings), client id {@code <prefix>-<role>-consumer}.
     */
    public Map<String, Object> plainConsumer(String role) {
        Map<String, Object> c = restoreConsumer(0);
        Object user = config.restoreConsumerOverrides()
                .getOrDefault(
                        ConsumerConfig.CLIENT_ID_CONFIG,
                        config.consumerOverrides().get(ConsumerConfig.CLIENT_ID_CONFIG));
        c.put(ConsumerConfig.CLIENT_ID_CONFIG, clientIdPrefix(user) + "-" + role + "-consumer");
        return c;
    }

    /**
     * A producer outside the stream threads' transactions, for an instance's own topics (liveness
     * heartbeats, savepoints): the user's producer settings (security and the like), no
     * transactional id, client id {@code <prefix>-<role>-producer}.
     */
    public Map<String, Object> plainProducer(String role) {
        Map<String, Object> p = producer(0);
        p.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        p.remove(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG);
        p.put(
                ProducerConfig.CLIENT_ID_CONFIG,
                clientIdPrefix(config.producerOverrides().get(ProducerConfig.CLIENT_ID_CONFIG)) + "-" + role
                        + "-producer");
        return p;
    }

    public Map<String, Object> producer(int index) {
        Map<String, Object> p = new HashMap<>();
        // Room for the largest dead-letter record; outputs are checked against their topic's limit.
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, config.deadLetterMaxMessageBytes() + 65_536);
        p.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, PRODUCER_RETRY_BACKOFF_MS);
        p.putAll(config.producerOverrides());
        p.put(
                ProducerConfig.CLIENT_ID_CONFIG,
                clientId(config.producerOverrides().get(ProducerConfig.CLIENT_ID_CONFIG), index, "producer"));
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        if (config.guarantee() == DeliveryGuarantee.EXACTLY_ONCE) {
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, threadName(index));
            p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int)
                    config.transactionTimeout().toMillis());
            // WeirConfig allows the user only these two values here, so nothing is overwritten.
            p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            p.put(ProducerConfig.ACKS_CONFIG, "all");
        } else if (config.guarantee() == DeliveryGuarantee.AT_LEAST_ONCE) {
            p.putIfAbsent(ProducerConfig.ACKS_CONFIG, "all");
        }
        return p;
    }

    /** The producer's effective max.request.size. */
    public int maxRequestSize() {
        Object v = producer(0).get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
        return Integer.parseInt(String.valueOf(v));
    }

    public Map<String, Object> admin() {
        Map<String, Object> a = new HashMap<>(config.adminOverrides());
        a.put(
                CommonClientConfigs.CLIENT_ID_CONFIG,
                clientIdPrefix(a.get(CommonClientConfigs.CLIENT_ID_CONFIG)) + "-admin");
        return a;
    }
}
