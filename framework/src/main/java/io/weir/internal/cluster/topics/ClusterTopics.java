package io.weir.internal.cluster.topics;

import io.weir.common.internal.KafkaCalls;
import io.weir.common.internal.Poll;
import io.weir.common.internal.TopicLeaders;
import io.weir.errors.ClusterException;
import io.weir.internal.cluster.topics.InternalTopics.Topic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin calls of {@link TopicSetup}: what topics the cluster has and how they are made, and
 * the creation of the missing ones. Each call waits at most {@link #TIMEOUT}; one that fails throws
 * a {@link ClusterException} naming what it did.
 */
final class ClusterTopics {

    // TopicSetup's logger: its messages are the start-up's.
    private static final Logger log = LoggerFactory.getLogger(TopicSetup.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** How often a changelog created a moment ago is looked up again, until every broker knows it. */
    private static final Duration METADATA_RECHECK = Duration.ofMillis(100);

    private final Admin admin;
    private final String applicationId;
    private final String bootstrapServers;

    ClusterTopics(Admin admin, String applicationId, String bootstrapServers) {
        this.admin = admin;
        this.applicationId = applicationId;
        this.bootstrapServers = bootstrapServers;
    }

    Set<String> list() {
        return KafkaCalls.get(
                admin.listTopics().names(), TIMEOUT, "reach Kafka at bootstrap.servers=" + bootstrapServers);
    }

    Map<String, Integer> partitionCounts(Collection<String> topics) {
        if (topics.isEmpty()) {
            return Map.of();
        }
        Map<String, TopicDescription> d =
                KafkaCalls.get(admin.describeTopics(topics).allTopicNames(), TIMEOUT, "describe topics");
        Map<String, Integer> counts = new HashMap<>();
        d.forEach((name, desc) -> counts.put(name, desc.partitions().size()));
        return counts;
    }

    /** What is wrong with each of these changelog topics that is not compacted. */
    List<String> notCompacted(Collection<String> topics) {
        if (topics.isEmpty()) {
            return List.of();
        }
        List<ConfigResource> resources = topics.stream()
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t))
                .toList();
        Map<ConfigResource, Config> configs =
                KafkaCalls.get(admin.describeConfigs(resources).all(), TIMEOUT, "describe changelog topics");
        List<String> problems = new ArrayList<>();
        for (ConfigResource r : resources) {
            var policy = configs.get(r).get("cleanup.policy");
            // "compact" or "compact,delete" (window and session changelogs are created so)
            if (policy == null || !policy.value().contains("compact")) {
                problems.add("the changelog topic '" + r.name() + "' has cleanup.policy="
                        + (policy == null ? "?" : policy.value()) + "; a changelog must be compacted"
                        + " (cleanup.policy=compact, or compact,delete for a window or session store),"
                        + " or old state would be deleted");
            }
        }
        return problems;
    }

    /**
     * The topic ids of {@code topics} by name, in one look-up. A topic created a moment ago may not
     * be known to every broker yet: the look-up is retried until {@link #TIMEOUT} has passed.
     */
    Map<String, String> topicIds(List<String> topics) {
        Map<String, TopicDescription> described;
        try {
            described = Poll.retrying(
                    () -> KafkaCalls.get(
                            admin.describeTopics(topics).allTopicNames(), TIMEOUT, "describe the changelog topics"),
                    e -> e.getCause() instanceof UnknownTopicOrPartitionException,
                    TIMEOUT,
                    METADATA_RECHECK);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted while describing the changelog topics", e);
        }
        Map<String, String> ids = new HashMap<>();
        described.forEach((name, desc) -> ids.put(name, desc.topicId().toString()));
        return ids;
    }

    /** Creates the topics (one created meanwhile by another instance is fine) and waits for their leaders. */
    void create(List<Topic> topics) {
        if (topics.isEmpty()) {
            return;
        }
        List<NewTopic> newTopics = topics.stream()
                .map(t -> new NewTopic(t.name(), Optional.of(t.partitions()), t.replication()).configs(t.configs()))
                .toList();
        admin.createTopics(newTopics).values().forEach((name, created) -> {
            try {
                KafkaCalls.get(created, TIMEOUT, "create topic '" + name + "'");
            } catch (ClusterException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
        });
        awaitLeaders(topics.stream().map(Topic::name).toList());
    }

    /** So that the first writes to the new topics find their leaders (see {@link TopicLeaders}). */
    private void awaitLeaders(List<String> names) {
        try {
            TopicLeaders.await(admin, names, TIMEOUT);
        } catch (ClusterException e) {
            if (Thread.currentThread().isInterrupted()) {
                throw e;
            }
            // Not fatal: the clients wait for the leaders themselves, and say so if they do not come.
            log.warn("{}: the new topics {} do not all have a leader yet ({})", applicationId, names, e.getMessage());
        }
    }
}
