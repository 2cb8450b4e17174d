package io.weir.internal.task;

import io.weir.common.internal.KafkaCalls;
import io.weir.errors.ClusterException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The largest record each output topic accepts ({@code max.message.bytes}, capped by the
 * producer's {@code max.request.size}), looked up once per topic and shared by all threads.
 *
 * <p>Checking sizes before sending keeps a too-large output from poisoning the transaction:
 * the producer would otherwise fail the whole transaction, and replaying it would fail again.
 */
public final class TopicLimits {

    /** Bytes a record may need beyond its key, value and headers, batch header included. */
    static final int OVERHEAD = 61 + 21;

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Admin admin;
    private final int maxRequestSize;
    private final Function<String, Integer> limitOf;
    private final Map<String, Integer> limits = new ConcurrentHashMap<>();
    private final Function<String, Integer> partitionsOf;
    private final Map<String, Integer> partitions = new ConcurrentHashMap<>();

    public TopicLimits(Admin admin, int maxRequestSize) {
        this.admin = admin;
        this.maxRequestSize = maxRequestSize;
        this.limitOf = this::lookUp;
        this.partitionsOf = this::lookUpPartitions;
    }

    /**
     * Limits without a cluster (the test driver's): {@code maxMessageBytes} gives a topic's
     * {@code max.message.bytes}, or null if the topic does not exist; {@code partitionCount} its
     * number of partitions.
     */
    public TopicLimits(
            Function<String, Integer> maxMessageBytes, Function<String, Integer> partitionCount, int maxRequestSize) {
        this.admin = null;
        this.partitionsOf = partitionCount;
        this.maxRequestSize = maxRequestSize;
        this.limitOf = topic -> {
            Integer topicLimit = maxMessageBytes.apply(topic);
            if (topicLimit == null) {
                throw missing(topic, null);
            }
            return Math.min(topicLimit, maxRequestSize);
        };
    }

    /** The limit for {@code topic}; throws {@link StageException} if the topic does not exist. */
    int limit(String topic) {
        Integer cached = limits.get(topic);
        return cached != null ? cached : limits.computeIfAbsent(topic, limitOf);
    }

    /**
     * The number of partitions of {@code topic}, looked up once: windowed results are partitioned
     * by their inner key, which needs it (see {@link OutputCollector}).
     */
    int partitions(String topic) {
        Integer cached = partitions.get(topic);
        return cached != null ? cached : partitions.computeIfAbsent(topic, partitionsOf);
    }

    private int lookUpPartitions(String topic) {
        try {
            return KafkaCalls.get(
                            admin.describeTopics(List.of(topic)).allTopicNames(),
                            TIMEOUT,
                            "describe topic '" + topic + "'")
                    .get(topic)
                    .partitions()
                    .size();
        } catch (ClusterException e) {
            throw missingOr(topic, e);
        }
    }

    static int estimateSize(byte[] key, byte[] value, org.apache.kafka.common.header.Header[] headers) {
        int size = OVERHEAD + (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
        for (org.apache.kafka.common.header.Header h : headers) {
            size += 10 + h.key().length() * 3 + (h.value() == null ? 0 : h.value().length);
        }
        return size;
    }

    private static StageException missing(String topic, Throwable cause) {
        return new StageException(Stage.PRODUCE, "output topic '" + topic + "' does not exist", cause);
    }

    /** A topic the cluster does not know is a missing output; any other failure is the cluster's. */
    private static RuntimeException missingOr(String topic, ClusterException e) {
        return e.getCause() instanceof UnknownTopicOrPartitionException ? missing(topic, e.getCause()) : e;
    }

    private int lookUp(String topic) {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config config;
        try {
            config = KafkaCalls.get(
                            admin.describeConfigs(List.of(resource)).all(),
                            TIMEOUT,
                            "read the configuration of topic '" + topic + "'")
                    .get(resource);
        } catch (ClusterException e) {
            throw missingOr(topic, e);
        }
        ConfigEntry entry = config.get("max.message.bytes");
        int topicLimit = entry == null ? maxRequestSize : Integer.parseInt(entry.value());
        return Math.min(topicLimit, maxRequestSize);
    }
}
