package io.weir.internal.cluster.topics;

import io.weir.config.WeirConfig;
import io.weir.errors.ClusterException;
import io.weir.internal.assign.CoPartitioning;
import io.weir.internal.cluster.topics.InternalTopics.Topic;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.state.ChangelogTopicIds;
import io.weir.internal.topology.NodeSpec;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.Subtopology;
import io.weir.internal.topology.TaskCounts;
import io.weir.internal.topology.TopologyModel;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.Admin;

/**
 * Start-up checks against the cluster, before any thread starts:
 * <ul>
 *   <li>fixed input and output topics must exist (a typo fails the start, not idles forever);</li>
 *   <li>repartition topics are created with the partition count of the sub-topology that writes
 *       them, or the one the topology fixes ({@code Repartitioned.withPartitions}), as
 *       {@link TaskCounts} decides; changelog topics (compacted) with the partition count of their store's
 *       sub-topology, since changelog partition p belongs to task p;</li>
 *   <li>an existing internal topic with another partition count, or a changelog that is not
 *       compacted, is an error that says what is wrong: using it would scatter a task's state;</li>
 *   <li>the inputs of each sub-topology with state stores must be co-partitioned (equal partition
 *       counts, {@link CoPartitioning}), for the same reason;</li>
 *   <li>the dead-letter topic is created when missing, and the liveness topic when
 *       {@code failure.detection.ms} is on.</li>
 * </ul>
 * {@link #plan()} computes the internal topics without changing anything; the application's start
 * ({@link #verifyAndCreate()}) and {@code weir topics} ({@link InternalTopics}) both act on it.
 *
 * <p>A cluster that cannot be reached, refuses a request or lacks an input or output topic fails
 * with a {@link ClusterException} naming what; an existing internal topic the application cannot
 * use, with a {@link ClusterException} saying what is wrong with it.
 */
public final class TopicSetup {

    private final Admin admin;
    private final ClusterTopics cluster;
    private final WeirConfig config;
    private final TopologyModel unresolved;
    private TopologyModel model;

    /**
     * @param model the topology; its tables read from a topic are resolved here
     *              ({@link SourceChangelogs}, once, on first use): use {@link #model()} to run it
     */
    public TopicSetup(Admin admin, WeirConfig config, TopologyModel model) {
        this.admin = admin;
        this.cluster = new ClusterTopics(admin, config.applicationId(), config.bootstrapServers());
        this.config = config;
        this.unresolved = model;
    }

    /**
     * The topology with each table read from a topic resolved: the topic is the store's changelog
     * when it is compacted, else the store has one of its own ({@link SourceChangelogs}). What
     * every part of the instance runs with.
     */
    public TopologyModel model() {
        if (model == null) {
            model = SourceChangelogs.resolve(unresolved, admin);
        }
        return model;
    }

    /**
     * Checks the topics the topology needs and creates the internal ones.
     *
     * @return the topic ids of the changelog topics as they are now, for the stores to tell a
     *     changelog recreated since they last followed it
     */
    public ChangelogTopicIds verifyAndCreate() {
        Set<String> existing = cluster.list();
        TopologyModel model = model();
        Set<String> wanted = new LinkedHashSet<>(model.sourceTopics());
        model.globalTables().values().forEach(g -> wanted.add(g.topic()));
        wanted.addAll(model.sinkTopics());
        requireExisting(wanted, existing);
        List<Topic> plan = plan(existing);
        List<String> problems =
                problems(plan.stream().filter(t -> existing.contains(t.name())).toList());
        if (!problems.isEmpty()) {
            throw new ClusterException(String.join("; ", problems));
        }
        cluster.create(plan.stream().filter(t -> !existing.contains(t.name())).toList());
        return changelogTopicIds(plan);
    }

    /** The internal topics of the application, with the cluster's input topics as they are now. */
    public List<Topic> plan() {
        Set<String> existing = cluster.list();
        requireExisting(unresolved.sourceTopics(), existing);
        return plan(existing);
    }

    /** {@code weir topics create}: creates what is missing, reports what differs. */
    public InternalTopics.Report createMissing() {
        Set<String> existing = cluster.list();
        requireExisting(unresolved.sourceTopics(), existing);
        List<Topic> plan = plan(existing);
        List<Topic> present =
                plan.stream().filter(t -> existing.contains(t.name())).toList();
        List<Topic> missing =
                plan.stream().filter(t -> !existing.contains(t.name())).toList();
        List<String> problems = problems(present);
        cluster.create(missing);
        return new InternalTopics.Report(missing, present, problems);
    }

    private void requireExisting(Collection<String> topics, Set<String> existing) {
        Set<String> missing = new TreeSet<>();
        for (String t : topics) {
            if (!existing.contains(t)) {
                missing.add(t);
            }
        }
        if (!missing.isEmpty()) {
            throw new ClusterException("topic(s) " + missing + " do not exist on " + config.bootstrapServers()
                    + "; create them before starting " + config.applicationId());
        }
    }

    /**
     * The plan, in creation order: repartition topics, changelogs, then the dead-letter, liveness
     * and late-records topics, the topology record's, and the savepoints' control and data topics. Sub-topologies are sized in dependency order: one reading only user
     * topics has their largest partition count; a repartition topic gets the count of the
     * sub-topology writing it. Fails before anything is created if co-partitioning is violated.
     */
    private List<Topic> plan(Set<String> existing) {
        TopologyModel model = model();
        Map<String, Integer> partitions = new HashMap<>(cluster.partitionCounts(userInputs(existing)));
        TaskCounts counts = TaskCounts.of(model, partitions);
        partitions.putAll(counts.partitions());
        CoPartitioning.require(model, partitions);
        List<Topic> plan = new ArrayList<>();
        for (NodeSpec.Source s : model.internalSources()) {
            for (String topic : s.topics()) {
                plan.add(new Topic(
                        topic,
                        InternalTopic.REPARTITION,
                        partitions.get(topic),
                        replicationFactor(),
                        REPARTITION_CONFIGS));
            }
        }
        for (Subtopology st : model.subtopologies()) {
            for (StoreSpec store : model.storesOf(st)) {
                // A table whose compacted source topic is its changelog: the topic is the user's.
                if (store.logged() && !store.changelogIsSource()) {
                    plan.add(new Topic(
                            store.changelogTopic(config.applicationId()),
                            InternalTopic.CHANGELOG,
                            counts.tasks().getOrDefault(st.id(), 1),
                            replicationFactor(),
                            changelogConfigs(
                                    store,
                                    config.eventTime()
                                            .windowChangelogAdditionalRetention()
                                            .toMillis())));
                }
            }
        }
        // The dead-letter and late-records topics take the broker's replication factor.
        Map<String, String> inputSized =
                Map.of("max.message.bytes", Integer.toString(config.deadLetterMaxMessageBytes()));
        plan.add(new Topic(config.deadLetterTopic(), InternalTopic.DEAD_LETTER, 1, Optional.empty(), inputSized));
        if (!config.failureDetection().isZero()) {
            plan.add(ofApplication(InternalTopic.LIVENESS));
        }
        if (needsLateRecordsTopic()) {
            // Late records are input records, as large as any input: the same limit as dead letters.
            plan.add(new Topic(
                    config.eventTime().lateRecordsTopic(),
                    InternalTopic.LATE_RECORDS,
                    1,
                    Optional.empty(),
                    inputSized));
        }
        for (InternalTopic kind : List.of(InternalTopic.TOPOLOGY, InternalTopic.CONTROL, InternalTopic.SAVEPOINTS)) {
            plan.add(ofApplication(kind));
        }
        return plan;
    }

    /** An application-wide topic, with the partitions and configs of its kind. */
    private Topic ofApplication(InternalTopic kind) {
        return new Topic(kind.of(config.applicationId()), kind, kind.partitions(), replicationFactor(), kind.configs());
    }

    /**
     * How many tasks each sub-topology has now, from the partition counts of the input topics (and
     * the topics pattern sources match) on the cluster: the rule {@link #plan} sizes topics by.
     */
    public Map<Integer, Integer> tasksPerSubtopology() {
        return TaskCounts.of(unresolved, cluster.partitionCounts(userInputs(cluster.list())))
                .tasks();
    }

    /** Only time and session windows have late records; other applications get no such topic. */
    private boolean needsLateRecordsTopic() {
        return config.eventTime().lateRecordsToTopic()
                && unresolved.stores().values().stream().anyMatch(st -> st.kind() != StoreSpec.Kind.KEY_VALUE);
    }

    /** Fixed user inputs plus the existing topics that pattern sources match now. */
    private Set<String> userInputs(Set<String> existing) {
        Set<String> inputs = new LinkedHashSet<>(unresolved.sourceTopics());
        for (NodeSpec n : unresolved.nodes().values()) {
            if (n instanceof NodeSpec.Source s && s.pattern() != null) {
                existing.stream().filter(t -> s.pattern().matcher(t).matches()).forEach(inputs::add);
            }
        }
        return inputs;
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
        return Map.of(
                "cleanup.policy",
                "compact,delete",
                "retention.ms",
                Long.toString(store.changelogRetentionMs(additionalMs)));
    }

    /**
     * What the application refuses to run with among existing planned topics: a repartition or
     * changelog topic with another partition count, a changelog that is not compacted.
     */
    private List<String> problems(List<Topic> present) {
        List<String> problems = new ArrayList<>();
        List<Topic> sized = present.stream()
                .filter(t -> t.kind() == InternalTopic.REPARTITION || t.kind() == InternalTopic.CHANGELOG)
                .toList();
        if (sized.isEmpty()) {
            return problems;
        }
        Map<String, Integer> actual =
                cluster.partitionCounts(sized.stream().map(Topic::name).toList());
        Set<String> fixed = new HashSet<>();
        model().internalSources().stream()
                .filter(NodeSpec.Source::fixedPartitions)
                .forEach(s -> fixed.addAll(s.topics()));
        for (Topic t : sized) {
            if (actual.get(t.name()) != t.partitions() && fixed.contains(t.name())) {
                problems.add("the repartition topic '" + t.name() + "' has " + actual.get(t.name())
                        + " partitions but the topology fixes " + t.partitions()
                        + " (Repartitioned.withPartitions); the count changed since it was created. Restore a"
                        + " savepoint or reset the application (which recreate its internal topics) to change it.");
            } else if (actual.get(t.name()) != t.partitions()) {
                problems.add("the " + t.kind().name().toLowerCase(java.util.Locale.ROOT) + " topic '" + t.name()
                        + "' has " + actual.get(t.name()) + " partitions but its sub-topology has " + t.partitions()
                        + " tasks; the input topics changed since it was created. Reset the application (delete its"
                        + " internal topics) to start over.");
            }
        }
        problems.addAll(cluster.notCompacted(sized.stream()
                .filter(t -> t.kind() == InternalTopic.CHANGELOG)
                .map(Topic::name)
                .toList()));
        return problems;
    }

    /** The changelogs' topic ids, in one look-up ({@link ClusterTopics#topicIds}). */
    private ChangelogTopicIds changelogTopicIds(List<Topic> plan) {
        List<String> changelogs = new ArrayList<>(plan.stream()
                .filter(t -> t.kind() == InternalTopic.CHANGELOG)
                .map(Topic::name)
                .toList());
        // The source topics tables use as changelogs too: a store that switches between its own
        // changelog and its source topic then sees another topic id and is rebuilt, rather than
        // reading offsets of one topic as offsets of the other.
        model().stores().values().stream()
                .filter(StoreSpec::changelogIsSource)
                .map(StoreSpec::sourceTopic)
                .distinct()
                .forEach(changelogs::add);
        if (changelogs.isEmpty()) {
            return ChangelogTopicIds.UNKNOWN;
        }
        return ChangelogTopicIds.of(cluster.topicIds(changelogs));
    }

    /**
     * Repartition topics keep records without a time limit: records keep their original timestamps
     * when repartitioned, so a replay of old data would have them deleted by time before the
     * downstream task reads them. What the readers committed is deleted instead
     * ({@link RepartitionPurge}); small, time-rolled segments let the broker free it soon.
     */
    static final Map<String, String> REPARTITION_CONFIGS = Map.of(
            "cleanup.policy",
            "delete",
            "retention.ms",
            "-1",
            "segment.bytes",
            Integer.toString(50 << 20),
            "segment.ms",
            Long.toString(java.time.Duration.ofMinutes(10).toMillis()));

    private Optional<Short> replicationFactor() {
        return config.internalTopicReplicationFactor() > 0
                ? Optional.of((short) config.internalTopicReplicationFactor())
                : Optional.empty();
    }
}
