package io.weir.testkit;

import io.weir.common.KeyValue;
import io.weir.common.internal.KafkaCalls;
import io.weir.common.internal.TopicLeaders;
import io.weir.errors.ClusterException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Blocking helpers to set up and check topics on any Kafka cluster, for tests, demos and
 * benchmarks: create and delete topics, produce and get acknowledged, read back from the start.
 *
 * <p>Guarantees: {@code createTopic} returns when every partition has a leader; {@code produce}
 * returns when every record is acknowledged by all in-sync replicas (idempotent producer,
 * {@code acks=all}); {@code read*} methods read every partition of a topic from its beginning with
 * {@code assign()} (no consumer group, nothing committed), return as soon as their condition holds
 * on the records read so far, and throw {@link AssertionError} with the number of records seen when
 * the deadline passes first. Reads are {@code read_committed} unless the name says otherwise. A
 * topic deleted while it is read fails the read within about a second, instead of at the deadline:
 * a consumer assigned to a deleted topic retries its fetches without pause and logs a warning for
 * each, hundreds of megabytes a minute.
 *
 * <p>A request the cluster refuses or does not answer within 30 s throws a
 * {@link ClusterException} naming it, with the cluster's error as its cause.
 *
 * <p>Thread-safe: every read uses its own short-lived consumer; the cached producer and
 * {@link Admin} are thread-safe Kafka clients. {@link #close()} closes the cached clients.
 */
public final class KafkaTestClient implements AutoCloseable {

    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

    private final KafkaClients clients;
    private final TopicReader reader;

    private Admin admin;
    private KafkaProducer<byte[], byte[]> producer;

    private KafkaTestClient(String bootstrapServers, Map<String, String> security) {
        this.clients = new KafkaClients(bootstrapServers, security);
        this.reader = new TopicReader(clients);
    }

    /** A client for the cluster at {@code bootstrapServers}; connects lazily. */
    public static KafkaTestClient connect(String bootstrapServers) {
        return new KafkaTestClient(bootstrapServers, Map.of());
    }

    /**
     * A client for {@code cluster}, connecting with its {@link KafkaCluster#clientSettings()} (the
     * super user of a secured cluster); connects lazily.
     */
    public static KafkaTestClient connect(KafkaCluster cluster) {
        return new KafkaTestClient(cluster.bootstrapServers(), cluster.clientSettings());
    }

    public String bootstrapServers() {
        return clients.bootstrapServers();
    }

    /** A cached {@link Admin} closed with this client; do not close it yourself. */
    public synchronized Admin admin() {
        if (admin == null) {
            admin = clients.admin(Map.of());
        }
        return admin;
    }

    // ---------------------------------------------------------------------------------- topics

    /** Creates a topic with the cluster's default replication factor and waits for its leaders. */
    public void createTopic(String name, int partitions) {
        createTopic(name, partitions, Map.of());
    }

    /** Creates a topic with topic-level {@code configs} (e.g. {@code cleanup.policy=compact}). */
    public void createTopic(String name, int partitions, Map<String, String> configs) {
        createTopics(List.of(new NewTopic(name, Optional.of(partitions), Optional.empty()).configs(configs)));
    }

    /** Creates topics (any replication factor) and waits until every partition's leader serves it. */
    public void createTopics(Collection<NewTopic> topics) {
        KafkaCalls.get(admin().createTopics(topics).all(), ADMIN_TIMEOUT, "create topics " + names(topics));
        // So that the first records sent find a leader that serves them: see TopicLeaders.
        TopicLeaders.await(admin(), topics.stream().map(NewTopic::name).collect(Collectors.toSet()), ADMIN_TIMEOUT);
    }

    /** Deletes a topic and waits until the cluster no longer lists it. */
    public void deleteTopic(String name) {
        try {
            KafkaCalls.get(admin().deleteTopics(List.of(name)).all(), ADMIN_TIMEOUT, "delete topic " + name);
        } catch (ClusterException e) {
            if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                throw e;
            }
        }
        Await.until(
                ADMIN_TIMEOUT,
                () -> "topic " + name + " gone",
                () -> !KafkaCalls.get(admin().listTopics().names(), Duration.ofSeconds(5), "list the topics")
                        .contains(name));
    }

    /** The partitions of {@code topic} in partition order, with leader, replicas and ISR. */
    public List<TopicPartitionInfo> describePartitions(String topic) {
        return KafkaCalls.get(
                        admin().describeTopics(List.of(topic)).allTopicNames(),
                        ADMIN_TIMEOUT,
                        "describe topic " + topic)
                .get(topic)
                .partitions();
    }

    /**
     * Per partition, the number of offsets in the log: end offset (high watermark) minus log start
     * offset. This counts transaction markers and aborted records too; read with
     * {@code read_committed} to count what an application sees.
     */
    public Map<Integer, Long> countPerPartition(String topic) {
        return reader.countPerPartition(topic);
    }

    // -------------------------------------------------------------------------------- producing

    /** Produces byte[] key/values to {@code topic} and returns when all are acknowledged. */
    public List<RecordMetadata> produce(String topic, List<KeyValue<byte[], byte[]>> records) {
        List<ProducerRecord<byte[], byte[]>> sends = new ArrayList<>(records.size());
        for (KeyValue<byte[], byte[]> kv : records) {
            sends.add(new ProducerRecord<>(topic, kv.key(), kv.value()));
        }
        return send(sends);
    }

    /** Produces UTF-8 String key/values to {@code topic} and returns when all are acknowledged. */
    public List<RecordMetadata> produceStrings(String topic, List<KeyValue<String, String>> records) {
        List<ProducerRecord<byte[], byte[]>> sends = new ArrayList<>(records.size());
        for (KeyValue<String, String> kv : records) {
            sends.add(new ProducerRecord<>(topic, utf8(kv.key()), utf8(kv.value())));
        }
        return send(sends);
    }

    /** Sends records (any topic, partition, timestamp, headers) and returns when all are acknowledged. */
    public List<RecordMetadata> send(List<ProducerRecord<byte[], byte[]>> records) {
        KafkaProducer<byte[], byte[]> p = producer();
        List<Future<RecordMetadata>> acks = new ArrayList<>(records.size());
        for (ProducerRecord<byte[], byte[]> record : records) {
            acks.add(p.send(record));
        }
        p.flush();
        List<RecordMetadata> result = new ArrayList<>(acks.size());
        for (Future<RecordMetadata> ack : acks) {
            result.add(KafkaCalls.get(ack, ADMIN_TIMEOUT, "produce"));
        }
        return result;
    }

    private synchronized KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            producer = clients.idempotentProducer();
        }
        return producer;
    }

    // --------------------------------------------------------------------------------- reading

    /** Reads committed records from the beginning until {@code condition} holds on all read so far. */
    public List<ConsumerRecord<byte[], byte[]>> readUntil(
            String topic, Predicate<List<ConsumerRecord<byte[], byte[]>>> condition, Duration timeout) {
        return readUntil(
                topic,
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer(),
                IsolationLevel.READ_COMMITTED,
                condition,
                timeout);
    }

    /** Reads committed records from the beginning until at least {@code count} were read. */
    public List<ConsumerRecord<byte[], byte[]>> readAtLeast(String topic, int count, Duration timeout) {
        return readUntil(topic, atLeast(count), timeout);
    }

    /** Like {@link #readUntil(String, Predicate, Duration)} but also sees open and aborted transactions. */
    public List<ConsumerRecord<byte[], byte[]>> readUncommittedUntil(
            String topic, Predicate<List<ConsumerRecord<byte[], byte[]>>> condition, Duration timeout) {
        return readUntil(
                topic,
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer(),
                IsolationLevel.READ_UNCOMMITTED,
                condition,
                timeout);
    }

    /** Like {@link #readAtLeast(String, int, Duration)} but {@code read_uncommitted}. */
    public List<ConsumerRecord<byte[], byte[]>> readUncommittedAtLeast(String topic, int count, Duration timeout) {
        return readUncommittedUntil(topic, atLeast(count), timeout);
    }

    /** {@link #readUntil(String, Predicate, Duration)} with UTF-8 String keys and values. */
    public List<ConsumerRecord<String, String>> readStringsUntil(
            String topic, Predicate<List<ConsumerRecord<String, String>>> condition, Duration timeout) {
        return readUntil(
                topic,
                new StringDeserializer(),
                new StringDeserializer(),
                IsolationLevel.READ_COMMITTED,
                condition,
                timeout);
    }

    /** {@link #readAtLeast(String, int, Duration)} with UTF-8 String keys and values. */
    public List<ConsumerRecord<String, String>> readStringsAtLeast(String topic, int count, Duration timeout) {
        return readStringsUntil(topic, atLeast(count), timeout);
    }

    /**
     * The general form: reads every partition of {@code topic} from its beginning with the given
     * deserializers and isolation level until {@code condition} holds on the records read so far
     * (checked after every poll, in arrival order: per partition in offset order).
     *
     * @throws AssertionError if the deadline passes first; the message says how many records
     *                        were seen per partition and shows the last few
     */
    public <K, V> List<ConsumerRecord<K, V>> readUntil(
            String topic,
            Deserializer<K> keys,
            Deserializer<V> values,
            IsolationLevel isolation,
            Predicate<List<ConsumerRecord<K, V>>> condition,
            Duration timeout) {
        return reader.readUntil(topic, keys, values, isolation, condition, timeout);
    }

    /**
     * Reads the whole of {@code topic} with read_committed, up to the end offsets it has now: the
     * reader's position passes every record and transaction marker below them, so nothing
     * committed is missed and nothing is read twice. Use it after the writers stopped, to check a
     * topic's final contents (a late duplicate cannot hide behind a count already reached).
     *
     * @throws AssertionError if the end is not reached within {@code timeout}
     */
    public List<ConsumerRecord<String, String>> readAllCommittedStrings(String topic, Duration timeout) {
        return readAllCommitted(topic, new StringDeserializer(), new StringDeserializer(), timeout);
    }

    /** {@link #readAllCommittedStrings} with the given deserializers. */
    public <K, V> List<ConsumerRecord<K, V>> readAllCommitted(
            String topic, Deserializer<K> keys, Deserializer<V> values, Duration timeout) {
        List<ConsumerRecord<K, V>> seen = new ArrayList<>();
        forEachCommitted(topic, keys, values, timeout, seen::add);
        return seen;
    }

    /**
     * Like {@link #readAllCommitted(String, Deserializer, Deserializer, Duration)}, but hands each
     * record to {@code action} (per partition in offset order) instead of keeping it: for a topic
     * too large to hold in memory. Returns the number of records read.
     *
     * @throws AssertionError if the end is not reached within {@code timeout}
     */
    public <K, V> long forEachCommitted(
            String topic,
            Deserializer<K> keys,
            Deserializer<V> values,
            Duration timeout,
            java.util.function.Consumer<ConsumerRecord<K, V>> action) {
        return reader.forEachCommitted(topic, keys, values, timeout, action);
    }

    private static <K, V> Predicate<List<ConsumerRecord<K, V>>> atLeast(int count) {
        return records -> records.size() >= count;
    }

    private static byte[] utf8(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private static String names(Collection<NewTopic> topics) {
        return topics.stream().map(NewTopic::name).collect(Collectors.joining(", "));
    }

    /** Closes the cached admin client and producer. */
    @Override
    public synchronized void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
            producer = null;
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
            admin = null;
        }
    }
}
