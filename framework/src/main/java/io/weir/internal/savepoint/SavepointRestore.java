package io.weir.internal.savepoint;

import io.weir.common.internal.Deadline;
import io.weir.common.internal.KafkaCalls;
import io.weir.common.internal.Poll;
import io.weir.common.internal.TopicLeaders;
import io.weir.config.WeirConfig;
import io.weir.errors.ClusterException;
import io.weir.internal.cluster.topics.SourceChangelogs;
import io.weir.internal.cluster.topics.TopicSetup;
import io.weir.internal.config.ClientRole;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.config.KafkaClients;
import io.weir.internal.topology.NodeSpec;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.TopologyModel;
import io.weir.processor.TaskId;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * Loads a savepoint into an application that is not running: the same one (roll back) or a new
 * one (fork), with any number of instances afterwards.
 * <ol>
 *   <li>checks the savepoint against the application's topology ({@link SavepointCompatibility}),
 *       stores renamed by the new version mapped to their new names ({@link Options#storeMap()});</li>
 *   <li>refuses while the application's consumer group has members;</li>
 *   <li>deletes the application's changelog and repartition topics if they exist and creates them
 *       anew, so nothing written after the savepoint survives (instances that still hold local
 *       state of the old changelogs see that they were recreated and discard it);</li>
 *   <li>writes every store's entries into its changelog partition (the task's partition), from
 *       which the instances restore their stores when they start;</li>
 *   <li>sets the group's committed offsets (with their metadata, which carries the watermarks) to
 *       the savepoint's input offsets, topics renamed by the topic map. Repartition topics start
 *       empty: the cut drained them, so no record was in flight.</li>
 * </ol>
 * The offsets are committed last: a restore that fails half-way leaves a group without offsets;
 * run it again.
 */
public final class SavepointRestore {

    /** How long each request to the cluster, and the recreation of the internal topics, may take. */
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** How often a topic's deletion and recreation are checked: the broker has nothing to wait on. */
    private static final Duration RECHECK = Duration.ofMillis(200);

    /**
     * @param allowDroppedState drop stores of the savepoint that the target topology lacks
     * @param topicMap          input topics renamed for the target (a migration to other topics)
     * @param storeMap          stores renamed by the target: the savepoint's store (key) is loaded into
     *                          the target's store (value), checked like a store of the same name
     */
    public record Options(boolean allowDroppedState, Map<String, String> topicMap, Map<String, String> storeMap) {
        public Options {
            topicMap = Map.copyOf(topicMap);
            storeMap = Map.copyOf(storeMap);
        }

        /** No store renamed. */
        public Options(boolean allowDroppedState, Map<String, String> topicMap) {
            this(allowDroppedState, topicMap, Map.of());
        }
    }

    /** What was loaded. */
    public record Result(long entries, Map<String, Long> entriesPerStore, int offsetsCommitted) {}

    private final WeirConfig target;
    /** Its tables read from a topic resolved ({@link SourceChangelogs}) once the cluster is reached. */
    private TopologyModel model;

    private final SavepointRequest.Listener listener;

    /**
     * @param target the application to load into (its {@code application.id} and cluster)
     * @param model  its topology, resolved for its application id
     */
    public SavepointRestore(WeirConfig target, TopologyModel model, SavepointRequest.Listener listener) {
        this.target = target;
        this.model = model;
        this.listener = listener;
    }

    /**
     * @param catalog where the savepoint's data is (its application's savepoint topic)
     * @throws IllegalStateException saying why nothing (or, past the checks, not everything) was loaded
     * @throws ClusterException if the cluster refused a request or did not answer, naming the request
     */
    public Result restore(SavepointCatalog catalog, Manifest manifest, Options options) {
        SavepointCompatibility compat = SavepointCompatibility.check(manifest, model, options.storeMap());
        List<String> problems = compat.problems(options.allowDroppedState());
        if (!problems.isEmpty()) {
            throw new IllegalStateException("savepoint " + manifest.id() + " does not fit the topology of "
                    + target.applicationId() + ":\n  " + String.join("\n  ", problems));
        }
        compat.dropped().forEach(d -> listener.progress("dropping store " + d + " (--allow-dropped-state)"));
        compat.empty().forEach(e -> listener.progress("store " + e + " is not in the savepoint: it starts empty"));
        try (Admin admin = KafkaClients.unmetered()
                .admin(ClientRole.ofInstance("savepoint-restore-admin"), new HashMap<>(target.adminOverrides()))) {
            requireNoMembers(admin);
            // A table whose compacted source topic is its changelog: the topic is the user's, never
            // deleted nor written here; the store is rebuilt from it up to the restored offsets.
            model = SourceChangelogs.resolve(model, admin);
            recreateInternalTopics(admin);
            Map<String, Long> perStore = writeChangelogs(catalog, manifest, options.storeMap(), admin);
            int offsets = commitOffsets(admin, manifest, options.topicMap());
            long entries = perStore.values().stream().mapToLong(Long::longValue).sum();
            return new Result(entries, perStore, offsets);
        }
    }

    private void requireNoMembers(Admin admin) {
        // A new application has no group yet: nothing to stop.
        ConsumerGroupDescription group = KafkaCalls.getIfExists(
                        admin.describeConsumerGroups(List.of(target.applicationId()))
                                .all(),
                        TIMEOUT,
                        "describe the consumer group " + target.applicationId(),
                        GroupIdNotFoundException.class)
                .map(groups -> groups.get(target.applicationId()))
                .orElse(null);
        if (group != null && !group.members().isEmpty()) {
            throw new IllegalStateException("application " + target.applicationId() + " has "
                    + group.members().size()
                    + " live member(s) in its consumer group; stop every instance before a restore");
        }
    }

    private void recreateInternalTopics(Admin admin) {
        Set<String> internal = new LinkedHashSet<>();
        for (StoreSpec s : model.stores().values()) {
            if (s.logged() && !s.changelogIsSource()) {
                internal.add(s.changelogTopic(target.applicationId()));
            }
        }
        for (NodeSpec.Source s : model.internalSources()) {
            internal.addAll(s.topics());
        }
        // The recorded topology of what ran before the restore: the restored state is checked by
        // SavepointCompatibility instead.
        internal.add(InternalTopic.TOPOLOGY.of(target.applicationId()));
        Set<String> existing = listTopics(admin);
        internal.retainAll(existing);
        if (!internal.isEmpty()) {
            listener.progress("deleting " + internal + " (recreated empty)");
            KafkaCalls.get(admin.deleteTopics(internal).all(), TIMEOUT, "delete the topics " + internal);
        }
        Deadline deadline = Deadline.after(TIMEOUT);
        try {
            // Creates the internal topics with the runtime's own rule; a deleted topic may still be
            // on its way out, which the broker reports as "already exists" or a failed creation.
            Poll.retrying(
                    () -> {
                        awaitGone(admin, internal, deadline);
                        return new TopicSetup(admin, target, model).verifyAndCreate();
                    },
                    e -> e instanceof IllegalStateException || e instanceof ClusterException,
                    TIMEOUT,
                    RECHECK);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted while recreating the topics " + internal, e);
        }
    }

    private static void awaitGone(Admin admin, Set<String> topics, Deadline deadline) {
        boolean gone;
        try {
            gone = Poll.until(() -> Collections.disjoint(listTopics(admin), topics), deadline.remaining(), RECHECK);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted while waiting for the deletion of " + topics, e);
        }
        if (!gone) {
            throw new ClusterException(
                    "topics " + topics + " are still being deleted after " + Deadline.format(deadline.timeout()));
        }
    }

    private static Set<String> listTopics(Admin admin) {
        return KafkaCalls.get(admin.listTopics().names(), TIMEOUT, "list the topics");
    }

    private Map<String, Long> writeChangelogs(
            SavepointCatalog catalog, Manifest manifest, Map<String, String> storeMap, Admin admin) {
        Map<String, Integer> partitions = new HashMap<>();
        for (StoreSpec s : model.stores().values()) {
            if (s.logged() && !s.changelogIsSource()) {
                String topic = s.changelogTopic(target.applicationId());
                TopicDescription d = KafkaCalls.get(
                                admin.describeTopics(List.of(topic)).allTopicNames(),
                                TIMEOUT,
                                "describe the changelog topic " + topic)
                        .get(topic);
                partitions.put(s.name(), d.partitions().size());
            }
        }
        for (Manifest.TaskEntry t : manifest.tasks()) {
            int p = TaskId.parse(t.task()).partition();
            for (ControlMessage.StoreCopy s : t.stores()) {
                Integer count = partitions.get(storeMap.getOrDefault(s.name(), s.name()));
                if (count != null && p >= count) {
                    throw new IllegalStateException("store " + s.name() + " of task " + t.task() + " has no partition "
                            + p + " in " + target.applicationId() + " (" + count + " partitions): the input topics"
                            + " have fewer partitions than when the savepoint was taken");
                }
            }
        }
        Map<String, Long> perStore = new TreeMap<>();
        AtomicReference<Exception> failure = new AtomicReference<>();
        long now = System.currentTimeMillis();
        // So that the first writes find a leader; see TopicLeaders.
        TopicLeaders.await(
                admin,
                partitions.keySet().stream()
                        .map(n -> model.stores().get(n).changelogTopic(target.applicationId()))
                        .toList(),
                TIMEOUT);
        Map<String, Object> oneInFlight = Map.of(
                // Freshly created partitions can refuse a first request (no leader yet) while a later
                // one is accepted; the first one's retries then fail as out of order until the batch
                // expires (seen in the savepoint benchmark). One request in flight keeps them in order.
                org.apache.kafka.clients.producer.ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        try (KafkaProducer<byte[], byte[]> producer =
                SavepointClients.producer(target, "savepoint-restore", oneInFlight)) {
            catalog.read(manifest, (task, store, key, value) -> {
                String name = storeMap.getOrDefault(store.name(), store.name());
                StoreSpec spec = model.stores().get(name);
                if (spec == null || !spec.logged() || spec.changelogIsSource()) {
                    // dropped (allowed), kept unlogged by the new topology, or rebuilt from its
                    // source topic up to the restored input offsets
                    return;
                }
                producer.send(
                        new ProducerRecord<>(
                                spec.changelogTopic(target.applicationId()),
                                TaskId.parse(task.task()).partition(),
                                now,
                                key,
                                value),
                        (md, e) -> {
                            if (e != null) {
                                failure.compareAndSet(null, e);
                            }
                        });
                perStore.merge(name, 1L, Long::sum);
            });
            producer.flush();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("writing the changelogs failed: " + failure.get(), failure.get());
        }
        listener.progress("wrote " + perStore + " entries into the changelogs of " + target.applicationId());
        return perStore;
    }

    private int commitOffsets(Admin admin, Manifest manifest, Map<String, String> topicMap) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        Set<String> sources = new java.util.HashSet<>(model.sourceTopics());
        for (Manifest.TaskEntry t : manifest.tasks()) {
            for (Map.Entry<String, ControlMessage.Offset> e : t.offsets().entrySet()) {
                String name = e.getKey();
                int dash = name.lastIndexOf('-');
                String topic = name.substring(0, dash);
                int partition = Integer.parseInt(name.substring(dash + 1));
                if (InternalTopic.kindOf(manifest.applicationId(), topic, null, null)
                                .orElse(null)
                        == InternalTopic.REPARTITION) {
                    continue; // drained at the cut; the new repartition topics start empty
                }
                String mapped = topicMap.getOrDefault(topic, topic);
                if (!sources.contains(mapped)) {
                    listener.progress("input " + topic + " is not read by the topology: its offsets are dropped");
                    continue;
                }
                offsets.put(
                        new TopicPartition(mapped, partition),
                        new OffsetAndMetadata(
                                e.getValue().offset(), e.getValue().metadata()));
            }
        }
        try {
            KafkaCalls.get(
                    admin.deleteConsumerGroups(List.of(target.applicationId())).all(),
                    TIMEOUT,
                    "delete the consumer group " + target.applicationId());
        } catch (ClusterException e) {
            if (!(e.getCause() instanceof GroupIdNotFoundException)) {
                throw e;
            }
        }
        KafkaCalls.get(
                admin.alterConsumerGroupOffsets(target.applicationId(), offsets).all(),
                TIMEOUT,
                "commit the savepoint's offsets for group " + target.applicationId());
        listener.progress("committed " + offsets.size() + " input offsets (with their watermarks) for group "
                + target.applicationId());
        return offsets.size();
    }
}
