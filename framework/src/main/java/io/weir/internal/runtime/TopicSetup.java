package io.weir.internal.runtime;

import io.weir.WeirConfig;
import io.weir.internal.assign.CoPartitioning;
import io.weir.internal.topology.NodeSpec;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.Subtopology;
import io.weir.internal.topology.TopologyModel;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Start-up checks against the cluster, before any thread starts:
 * <ul>
 *   <li>fixed input and output topics must exist (a typo fails the start, not idles forever);</li>
 *   <li>repartition topics are created with the partition count of the sub-topology that writes
 *       them; changelog topics (compacted) with the partition count of their store's
 *       sub-topology, since changelog partition p belongs to task p;</li>
 *   <li>an existing internal topic with another partition count, or a changelog that is not
 *       compacted, is an error that says what is wrong: using it would scatter a task's state;</li>
 *   <li>the inputs of each sub-topology with state stores must be co-partitioned (equal partition
 *       counts, {@link CoPartitioning}), for the same reason;</li>
 *   <li>the dead-letter topic is created when missing, and the liveness topic (see
 *       {@link LivenessWatch}) when {@code failure.detection.ms} is on.</li>
 * </ul>
 */
public final class TopicSetup {

    private static final long TIMEOUT_S = 30;

    private final Admin admin;
    private final WeirConfig config;
    private final TopologyModel model;

    public TopicSetup(Admin admin, WeirConfig config, TopologyModel model) {
        this.admin = admin;
        this.config = config;
        this.model = model;
    }

    /** Checks the topics the topology needs and creates the internal ones. */
    public void verifyAndCreate() {
        Set<String> existing = listTopics();
        Set<String> missing = new TreeSet<>();
        Set<String> wanted = new LinkedHashSet<>(model.sourceTopics());
        wanted.addAll(model.sinkTopics());
        for (String t : wanted) {
            if (!existing.contains(t)) {
                missing.add(t);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("topic(s) " + missing + " do not exist on " + config.bootstrapServers()
                    + "; create them before starting " + config.applicationId());
        }
        Map<String, Integer> partitions = new HashMap<>(partitionCounts(userInputs(existing)));
        Map<Integer, Integer> tasksPerSubtopology = createRepartitionTopics(existing, partitions);
        createChangelogTopics(existing, tasksPerSubtopology);
        if (!existing.contains(config.deadLetterTopic())) {
            create(List.of(new NewTopic(config.deadLetterTopic(), Optional.of(1), Optional.empty())
                    .configs(Map.of("max.message.bytes", Integer.toString(config.deadLetterMaxMessageBytes())))));
        }
        if (!config.failureDetection().isZero() && !existing.contains(LivenessWatch.topic(config))) {
            create(List.of(new NewTopic(LivenessWatch.topic(config), Optional.of(1), replicationFactor())
                    .configs(LivenessWatch.TOPIC_CONFIGS)));
        }
        if (needsLateRecordsTopic() && !existing.contains(config.lateRecordsTopic())) {
            // Late records are input records, as large as any input: the same limit as dead letters.
            create(List.of(new NewTopic(config.lateRecordsTopic(), Optional.of(1), Optional.empty())
                    .configs(Map.of("max.message.bytes", Integer.toString(config.deadLetterMaxMessageBytes())))));
        }
    }

    /** Only time and session windows have late records; other applications get no such topic. */
    private boolean needsLateRecordsTopic() {
        return config.lateRecordsToTopic() && model.stores().values().stream()
                .anyMatch(st -> st.kind() != StoreSpec.Kind.KEY_VALUE);
    }

    /** Fixed user inputs plus the existing topics that pattern sources match now. */
    private Set<String> userInputs(Set<String> existing) {
        Set<String> inputs = new LinkedHashSet<>(model.sourceTopics());
        for (NodeSpec n : model.nodes().values()) {
            if (n instanceof NodeSpec.Source s && s.pattern() != null) {
                existing.stream().filter(t -> s.pattern().matcher(t).matches()).forEach(inputs::add);
            }
        }
        return inputs;
    }

    /**
     * Sub-topologies are sized in dependency order: one reading only user topics has their
     * largest partition count; a repartition topic gets the count of the sub-topology writing it.
     */
    private Map<Integer, Integer> createRepartitionTopics(Set<String> existing, Map<String, Integer> partitions) {
        TaskCounts counts = TaskCounts.of(model, partitions);
        partitions.putAll(counts.partitions());
        // Before anything is created: a failed start should leave no topics behind.
        CoPartitioning.require(model, partitions);
        Map<Integer, Integer> tasks = counts.tasks();
        List<NewTopic> toCreate = new ArrayList<>();
        Map<String, Integer> toCheck = new LinkedHashMap<>();
        for (NodeSpec.Source s : model.internalSources()) {
            for (String topic : s.topics()) {
                int count = partitions.get(topic);
                if (existing.contains(topic)) {
                    toCheck.put(topic, count);
                } else {
                    toCreate.add(new NewTopic(topic, Optional.of(count), replicationFactor()));
                }
            }
        }
        checkPartitions(toCheck, "repartition");
        create(toCreate);
        return tasks;
    }

    private void createChangelogTopics(Set<String> existing, Map<Integer, Integer> tasksPerSubtopology) {
        List<NewTopic> toCreate = new ArrayList<>();
        Map<String, Integer> toCheck = new LinkedHashMap<>();
        for (Subtopology st : model.subtopologies()) {
            for (StoreSpec store : model.storesOf(st)) {
                if (!store.logged()) {
                    continue;
                }
                String topic = store.changelogTopic(config.applicationId());
                int count = tasksPerSubtopology.getOrDefault(st.id(), 1);
                if (existing.contains(topic)) {
                    toCheck.put(topic, count);
                } else {
                    toCreate.add(new NewTopic(topic, Optional.of(count), replicationFactor())
                            .configs(changelogConfigs(store,
                                    config.windowChangelogAdditionalRetention().toMillis())));
                }
            }
        }
        checkPartitions(toCheck, "changelog");
        checkCompacted(toCheck.keySet());
        create(toCreate);
    }

    /**
     * A key-value changelog is compacted: it keeps the latest value of every key for ever. A window
     * or session changelog is compacted and deleted by time ({@code compact,delete}), with a
     * retention of the store's retention plus window size plus {@code additionalMs}
     * ({@code window.changelog.additional.retention.ms}), so it keeps what the store keeps and
     * drops expired windows as the store does.
     */
    static Map<String, String> changelogConfigs(StoreSpec store, long additionalMs) {
        if (store.kind() == StoreSpec.Kind.KEY_VALUE) {
            return Map.of("cleanup.policy", "compact");
        }
        return Map.of("cleanup.policy", "compact,delete",
                "retention.ms", Long.toString(store.changelogRetentionMs(additionalMs)));
    }

    private void checkPartitions(Map<String, Integer> expected, String kind) {
        if (expected.isEmpty()) {
            return;
        }
        Map<String, Integer> actual = partitionCounts(expected.keySet());
        for (Map.Entry<String, Integer> e : expected.entrySet()) {
            if (!actual.get(e.getKey()).equals(e.getValue())) {
                throw new IllegalStateException("the " + kind + " topic '" + e.getKey() + "' has " + actual.get(e.getKey())
                        + " partitions but its sub-topology has " + e.getValue() + " tasks; the input topics changed"
                        + " since it was created. Reset the application (delete its internal topics) to start over.");
            }
        }
    }

    private void checkCompacted(Collection<String> topics) {
        if (topics.isEmpty()) {
            return;
        }
        List<ConfigResource> resources = topics.stream()
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList();
        Map<ConfigResource, Config> configs = await(admin.describeConfigs(resources).all(), "describe changelog topics");
        for (Map.Entry<ConfigResource, Config> e : configs.entrySet()) {
            var policy = e.getValue().get("cleanup.policy");
            // "compact" or "compact,delete" (window and session changelogs are created so)
            if (policy == null || !policy.value().contains("compact")) {
                throw new IllegalStateException("the changelog topic '" + e.getKey().name() + "' has cleanup.policy="
                        + (policy == null ? "?" : policy.value()) + "; a changelog must be compacted"
                        + " (cleanup.policy=compact, or compact,delete for a window or session store),"
                        + " or old state would be deleted");
            }
        }
    }

    private Optional<Short> replicationFactor() {
        return config.internalTopicReplicationFactor() > 0
                ? Optional.of((short) config.internalTopicReplicationFactor()) : Optional.empty();
    }

    private Map<String, Integer> partitionCounts(Collection<String> topics) {
        if (topics.isEmpty()) {
            return Map.of();
        }
        Map<String, TopicDescription> d = await(admin.describeTopics(topics).allTopicNames(), "describe topics");
        Map<String, Integer> counts = new HashMap<>();
        d.forEach((name, desc) -> counts.put(name, desc.partitions().size()));
        return counts;
    }

    private Set<String> listTopics() {
        try {
            return admin.listTopics().names().get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot reach Kafka at bootstrap.servers=" + config.bootstrapServers()
                    + " within " + TIMEOUT_S + " s: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while listing topics", e);
        }
    }

    private void create(List<NewTopic> topics) {
        if (topics.isEmpty()) {
            return;
        }
        for (Map.Entry<String, KafkaFuture<Void>> e : admin.createTopics(topics).values().entrySet()) {
            try {
                e.getValue().get(TIMEOUT_S, TimeUnit.SECONDS);
            } catch (ExecutionException ex) {
                if (!(ex.getCause() instanceof TopicExistsException)) {
                    throw new IllegalStateException("cannot create topic '" + e.getKey() + "': " + ex.getCause(),
                            ex.getCause());
                }
            } catch (TimeoutException ex) {
                throw new IllegalStateException("timed out creating topic " + e.getKey(), ex);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while creating topics", ex);
            }
        }
    }

    private <T> T await(KafkaFuture<T> future, String what) {
        try {
            return future.get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot " + what + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("timed out trying to " + what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while trying to " + what, e);
        }
    }
}
