package io.weir.samples.common;

import io.weir.common.internal.KafkaCalls;
import io.weir.testkit.EmbeddedKafka;
import io.weir.testkit.KafkaTestClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka cluster a sample runs on: an in-process KRaft broker started for the run, or an
 * existing cluster when bootstrap servers are given. Holds a {@link KafkaTestClient} for creating
 * topics and feeding records; {@link #close()} closes the client, then stops the broker if this
 * object started it.
 *
 * <p>Not thread-safe beyond what {@link KafkaTestClient} offers: the sample's main thread owns it.
 */
public final class SampleKafka implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SampleKafka.class);
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

    private final EmbeddedKafka broker;
    private final KafkaTestClient client;

    private SampleKafka(EmbeddedKafka broker, String bootstrapServers) {
        this.broker = broker;
        this.client = KafkaTestClient.connect(bootstrapServers);
    }

    /**
     * Uses the cluster at {@code bootstrapServers}, or starts an in-process broker when it is null
     * or blank.
     */
    public static SampleKafka connect(String bootstrapServers) {
        if (bootstrapServers != null && !bootstrapServers.isBlank()) {
            log.info("Using Kafka at {}", bootstrapServers);
            return new SampleKafka(null, bootstrapServers);
        }
        log.info("Starting an in-process Kafka broker");
        EmbeddedKafka broker = EmbeddedKafka.start();
        log.info("Using Kafka at {}", broker.bootstrapServers());
        return new SampleKafka(broker, broker.bootstrapServers());
    }

    public String bootstrapServers() {
        return client.bootstrapServers();
    }

    /** True when this run started its own broker (so every topic on it is new). */
    public boolean embedded() {
        return broker != null;
    }

    public KafkaTestClient client() {
        return client;
    }

    /**
     * Creates the topics that do not exist yet with {@code partitions} partitions; existing ones
     * are used as they are.
     *
     * @throws io.weir.errors.ClusterException if the cluster cannot be reached within 30 s
     */
    public void ensureTopics(Collection<String> names, int partitions) {
        ensureTopics(names, partitions, Map.of());
    }

    /** As {@link #ensureTopics(Collection, int)}, creating the missing ones with {@code configs}. */
    public void ensureTopics(Collection<String> names, int partitions, Map<String, String> configs) {
        Set<String> existing = KafkaCalls.get(
                client.admin().listTopics().names(), ADMIN_TIMEOUT, "list the topics at " + bootstrapServers());
        List<NewTopic> missing = names.stream()
                .distinct()
                .filter(n -> !existing.contains(n))
                .map(n -> new NewTopic(n, Optional.of(partitions), Optional.empty()).configs(configs))
                .toList();
        if (!missing.isEmpty()) {
            client.createTopics(missing);
            log.info(
                    "Created topics {} with {} partitions",
                    missing.stream().map(NewTopic::name).toList(),
                    partitions);
        }
    }

    /**
     * For samples whose check needs a clean slate (stateful ones: earlier input would be counted
     * again): fails when a topic holds records or the consumer group has committed offsets.
     *
     * @throws IllegalStateException naming what is not empty and how to run anew
     */
    public void requireFresh(Collection<String> topics, String applicationId) {
        List<String> used = new ArrayList<>();
        for (String topic : topics) {
            long records = client.countPerPartition(topic).values().stream()
                    .mapToLong(Long::longValue)
                    .sum();
            if (records > 0) {
                used.add("topic '" + topic + "' holds " + records + " offsets");
            }
        }
        if (!committedOffsets(applicationId).isEmpty()) {
            used.add("consumer group '" + applicationId + "' has committed offsets");
        }
        if (!used.isEmpty()) {
            throw new IllegalStateException(String.join(", ", used) + "; this sample checks its results against"
                    + " what this run feeds, so it needs new topics and a new application id: pass other"
                    + " --input-topic, --output-topic and --application-id");
        }
    }

    /** The offsets committed by consumer group {@code groupId} (empty if it has none). */
    public Map<TopicPartition, OffsetAndMetadata> committedOffsets(String groupId) {
        return KafkaCalls.get(
                client.admin().listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata(),
                ADMIN_TIMEOUT,
                "read the offsets of group " + groupId + " at " + bootstrapServers());
    }

    /** How many records of {@code topic} group {@code groupId} has committed as consumed, all partitions. */
    public long committedCount(String groupId, String topic) {
        return committedOffsets(groupId).entrySet().stream()
                .filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
                .mapToLong(e -> e.getValue().offset())
                .sum();
    }

    @Override
    public void close() {
        try {
            client.close();
        } finally {
            if (broker != null) {
                broker.close();
            }
        }
    }
}
