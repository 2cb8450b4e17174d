package io.weir.testdriver.internal;

import io.weir.config.WeirConfig;
import io.weir.internal.assign.CoPartitioning;
import io.weir.internal.cluster.topics.TopicSetup;
import io.weir.internal.topology.NodeSpec;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.Subtopology;
import io.weir.internal.topology.TaskCounts;
import io.weir.internal.topology.TopologyModel;
import io.weir.time.Timestamps;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.utils.Utils;

/**
 * The test driver's stand-in for a cluster: the topics a cluster set up for the application
 * would hold (inputs, repartition and changelog topics, outputs, dead letters, late records), and
 * every record of each, by partition, with offsets, as a {@code read_committed} consumer sees
 * them; and the offsets the application's group committed, as {@code __consumer_offsets} holds
 * them. The driver appends piped input at once, and a transaction's records and offsets when it
 * commits.
 *
 * <p>Owned by the driver's thread; not thread-safe.
 */
final class DriverTopics {

    /** The broker's default {@code max.message.bytes}. */
    static final int DEFAULT_MAX_MESSAGE_BYTES = 1_048_588;

    private static final class Topic {
        final List<List<ConsumerRecord<byte[], byte[]>>> partitions = new ArrayList<>();
        /** Every record in the order it arrived, across partitions. */
        final List<ConsumerRecord<byte[], byte[]>> arrivals = new ArrayList<>();

        final int maxMessageBytes;
        final TimestampType timestampType;
        /** Index in {@link #arrivals} of the next record {@link #readNew} returns. */
        int read;
        /** Where the next record without key goes (the producer spreads them; here in turn). */
        int nextKeyless;

        Topic(int partitions, int maxMessageBytes, TimestampType timestampType) {
            for (int p = 0; p < partitions; p++) {
                this.partitions.add(new ArrayList<>());
            }
            this.maxMessageBytes = maxMessageBytes;
            this.timestampType = timestampType;
        }
    }

    private final Map<String, Topic> topics = new LinkedHashMap<>();
    private final TopologyModel model;
    private final WeirConfig config;
    /** Repartition and changelog topics: Weir's own, never piped to. */
    private final Set<String> internalTopics;

    private final LongSupplier wallClock;
    private final Map<TopicPartition, OffsetAndMetadata> committedOffsets = new HashMap<>();

    private DriverTopics(TopologyModel model, WeirConfig config, LongSupplier wallClock) {
        this.model = model;
        this.config = config;
        this.internalTopics = internalTopics(model, config.applicationId());
        this.wallClock = wallClock;
    }

    /**
     * The topics of {@code model}: the declared ones with their partitions, other inputs and
     * outputs with one; internal topics as {@link TaskCounts} sizes them (as {@link TopicSetup}
     * creates them on a cluster).
     *
     * @param wallClock stamps the records of log-append-time topics
     * @throws IllegalArgumentException if partitions were declared for an internal topic
     */
    static DriverTopics create(
            TopologyModel model, WeirConfig config, Map<String, Integer> declared, LongSupplier wallClock) {
        DriverTopics topics = new DriverTopics(model, config, wallClock);
        for (String topic : declared.keySet()) {
            if (topics.internalTopics.contains(topic)) {
                throw new IllegalArgumentException("'" + topic + "' is an internal topic: its partitions follow the"
                        + " tasks of its sub-topology; declare the partitions of the input topics instead");
            }
        }
        topics.createAll(declared);
        return topics;
    }

    private static Set<String> internalTopics(TopologyModel model, String applicationId) {
        Set<String> internal = new LinkedHashSet<>();
        for (NodeSpec.Source s : model.internalSources()) {
            internal.addAll(s.topics());
        }
        for (StoreSpec store : model.stores().values()) {
            if (store.logged()) {
                internal.add(store.changelogTopic(applicationId));
            }
        }
        return internal;
    }

    private void createAll(Map<String, Integer> declared) {
        Map<String, Integer> inputs = new LinkedHashMap<>();
        for (String topic : model.sourceTopics()) {
            inputs.put(topic, declared.getOrDefault(topic, 1));
        }
        for (Map.Entry<String, Integer> e : declared.entrySet()) {
            if (model.subtopologyFor(e.getKey()) != null) {
                inputs.put(e.getKey(), e.getValue()); // a topic a pattern source matches
            }
        }
        TaskCounts counts = TaskCounts.of(model, inputs);
        // as TopicSetup refuses to start an application on a cluster with such topics
        Map<String, Integer> all = new HashMap<>(inputs);
        all.putAll(counts.partitions());
        CoPartitioning.require(model, all);
        for (io.weir.internal.topology.GlobalTableSpec g : model.globalTables().values()) {
            inputs.put(g.topic(), declared.getOrDefault(g.topic(), 1));
        }
        inputs.forEach((topic, n) -> create(topic, n, DEFAULT_MAX_MESSAGE_BYTES, logAppendTime(topic)));
        for (NodeSpec.Source s : model.internalSources()) {
            for (String topic : s.topics()) {
                create(topic, counts.partitions().getOrDefault(topic, 0), DEFAULT_MAX_MESSAGE_BYTES, false);
            }
        }
        for (Subtopology st : model.subtopologies()) {
            for (StoreSpec store : model.storesOf(st)) {
                if (store.logged()) {
                    create(
                            store.changelogTopic(config.applicationId()),
                            counts.tasks().getOrDefault(st.id(), 1),
                            DEFAULT_MAX_MESSAGE_BYTES,
                            false);
                }
            }
        }
        for (String topic : model.sinkTopics()) {
            create(topic, declared.getOrDefault(topic, 1), DEFAULT_MAX_MESSAGE_BYTES, false);
        }
        create(
                config.deadLetterTopic(),
                declared.getOrDefault(config.deadLetterTopic(), 1),
                config.deadLetterMaxMessageBytes(),
                false);
        if (config.eventTime().lateRecordsToTopic()) {
            create(
                    config.eventTime().lateRecordsTopic(),
                    declared.getOrDefault(config.eventTime().lateRecordsTopic(), 1),
                    DEFAULT_MAX_MESSAGE_BYTES,
                    false);
        }
        declared.forEach((topic, n) -> create(topic, n, DEFAULT_MAX_MESSAGE_BYTES, false));
    }

    /** True if a source reads {@code topic} by log-append time: the topic must then stamp records so. */
    private boolean logAppendTime(String topic) {
        for (NodeSpec n : model.nodes().values()) {
            if (n instanceof NodeSpec.Source s && !s.internal() && s.reads(topic)) {
                boolean byDefault = s.timestamps() == null
                        && config.eventTime().defaultTimestamp() == io.weir.time.TimestampSource.LOG_APPEND;
                if (byDefault || s.timestamps() == Timestamps.logAppendTime()) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Creates a topic (a no-op if it exists).
     *
     * @param logAppendTime true for a topic that stamps records with the time they are appended
     *     ({@code message.timestamp.type=LogAppendTime}), replacing the time they were sent with
     */
    private void create(String name, int partitions, int maxMessageBytes, boolean logAppendTime) {
        topics.putIfAbsent(
                name,
                new Topic(
                        partitions,
                        maxMessageBytes,
                        logAppendTime ? TimestampType.LOG_APPEND_TIME : TimestampType.CREATE_TIME));
    }

    boolean exists(String topic) {
        return topics.containsKey(topic);
    }

    Set<String> names() {
        return Collections.unmodifiableSet(topics.keySet());
    }

    /** The topic's {@code max.message.bytes}, or null if it does not exist. */
    Integer maxMessageBytes(String topic) {
        Topic t = topics.get(topic);
        return t == null ? null : t.maxMessageBytes;
    }

    int partitions(String topic) {
        return topic(topic).partitions.size();
    }

    /**
     * The partition Kafka's default partitioner picks: murmur2 of the serialized key; records
     * without a key go to the partitions in turn.
     */
    int partitionFor(String topic, byte[] key) {
        Topic t = topic(topic);
        int n = t.partitions.size();
        if (key == null) {
            int p = t.nextKeyless;
            t.nextKeyless = (p + 1) % n;
            return p;
        }
        return Utils.toPositive(Utils.murmur2(key)) % n;
    }

    /**
     * Appends a record to a partition ({@code null}: the default partitioner's) with the
     * producer's {@code timestamp}, or the wall clock in a log-append-time topic.
     */
    ConsumerRecord<byte[], byte[]> append(
            String topic, Integer partition, byte[] key, byte[] value, long timestamp, Header[] headers) {
        Topic t = topic(topic);
        int p = partition != null ? partition : partitionFor(topic, key);
        List<ConsumerRecord<byte[], byte[]>> log = t.partitions.get(p);
        RecordHeaders kafkaHeaders = new RecordHeaders(headers);
        kafkaHeaders.setReadOnly();
        long time = t.timestampType == TimestampType.LOG_APPEND_TIME ? wallClock.getAsLong() : timestamp;
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>(
                topic,
                p,
                log.size(),
                time,
                t.timestampType,
                key == null ? -1 : key.length,
                value == null ? -1 : value.length,
                key,
                value,
                kafkaHeaders,
                Optional.empty());
        log.add(record);
        t.arrivals.add(record);
        return record;
    }

    /** Up to {@code max} records of a partition from offset {@code from} on. */
    List<ConsumerRecord<byte[], byte[]>> fetch(TopicPartition tp, long from, int max) {
        List<ConsumerRecord<byte[], byte[]>> log = topic(tp.topic()).partitions.get(tp.partition());
        int start = (int) Math.min(from, log.size());
        int end = Math.min(log.size(), start + max);
        return start == end ? List.of() : List.copyOf(log.subList(start, end));
    }

    long endOffset(TopicPartition tp) {
        return topic(tp.topic()).partitions.get(tp.partition()).size();
    }

    /** Records offsets the group committed. */
    void commitOffsets(Map<TopicPartition, OffsetAndMetadata> offsets) {
        committedOffsets.putAll(offsets);
    }

    /** The offsets the group committed, by partition. */
    Map<TopicPartition, OffsetAndMetadata> committedOffsets() {
        return Collections.unmodifiableMap(committedOffsets);
    }

    /** The records that arrived since the last call for this topic, in arrival order. */
    List<ConsumerRecord<byte[], byte[]>> readNew(String topic) {
        Topic t = topic(topic);
        List<ConsumerRecord<byte[], byte[]>> result = List.copyOf(t.arrivals.subList(t.read, t.arrivals.size()));
        t.read = t.arrivals.size();
        return result;
    }

    /** Every record of the topic, in arrival order. */
    List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
        return List.copyOf(topic(topic).arrivals);
    }

    // ---- checks ------------------------------------------------------------------------------

    /** The user's input topics: read by a source, not internal. */
    Set<String> inputs() {
        Set<String> inputs = new TreeSet<>();
        for (String t : topics.keySet()) {
            if (!internalTopics.contains(t)
                    && (model.subtopologyFor(t) != null
                            || model.globalTables().values().stream()
                                    .anyMatch(g -> g.topic().equals(t)))) {
                inputs.add(t);
            }
        }
        return inputs;
    }

    /** @throws IllegalArgumentException naming the topics there are, if {@code topic} is not one */
    void requireTopic(String topic) {
        if (!topics.containsKey(topic)) {
            throw new IllegalArgumentException("unknown topic '" + topic + "'; the test driver has "
                    + new TreeSet<>(topics.keySet()) + " (declare others with partitions(topic, n))");
        }
    }

    /** @throws IllegalArgumentException naming the inputs, if {@code topic} is not one */
    void requireInput(String topic) {
        if (internalTopics.contains(topic)) {
            throw new IllegalArgumentException("'" + topic + "' is an internal topic of the topology (repartition"
                    + " or changelog), written by the topology itself; pipe to its inputs " + inputs());
        }
        if (!topics.containsKey(topic)) {
            throw new IllegalArgumentException("unknown topic '" + topic + "': the topology reads " + inputs());
        }
        if (model.subtopologyFor(topic) == null
                && model.globalTables().values().stream()
                        .noneMatch(g -> g.topic().equals(topic))) {
            throw new IllegalArgumentException("'" + topic + "' is not an input of the topology; it reads " + inputs());
        }
    }

    /** @throws IllegalArgumentException if {@code topic} is not an input or has no such partition */
    void requireInputPartition(String topic, int partition) {
        requireInput(topic);
        int n = partitions(topic);
        if (partition < 0 || partition >= n) {
            throw new IllegalArgumentException("topic '" + topic + "' has " + n + " partition(s), 0 to " + (n - 1)
                    + "; there is no partition " + partition);
        }
    }

    private Topic topic(String name) {
        Topic t = topics.get(name);
        if (t == null) {
            throw new IllegalStateException("no topic '" + name + "'");
        }
        return t;
    }
}
