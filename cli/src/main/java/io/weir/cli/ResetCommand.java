package io.weir.cli;

import io.weir.Topology;
import io.weir.common.internal.KafkaCalls;
import io.weir.common.internal.Poll;
import io.weir.config.WeirConfig;
import io.weir.internal.cluster.topics.InternalTopics;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.topology.TopologyAccess;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code weir reset}: prepares an application for a replay. With every instance stopped, it moves
 * the group's committed input offsets (and clears their metadata, where Weir keeps the event-time
 * watermark: event time starts over with the replay), and deletes the application's changelog and
 * repartition topics, which the next start recreates empty. Instances that kept local state see on
 * their next start that each changelog is a new topic (its topic id changed) and wipe their stores:
 * stale state is never reused. Output topics are left alone: the replay appends to them.
 */
@Command(
        name = "reset",
        mixinStandardHelpOptions = true,
        description = "Resets an application for a replay: moves its input offsets, deletes its changelog and"
                + " repartition topics. Refused while the application has running instances.")
final class ResetCommand implements Callable<Integer> {

    private static final Duration DELETION_WAIT = Duration.ofSeconds(30);
    /** How often the deletion is checked: it reaches the brokers' metadata with nothing to wait on. */
    private static final Duration DELETION_RECHECK = Duration.ofMillis(100);

    @Mixin
    AppOptions app;

    @Option(
            names = "--to",
            required = true,
            paramLabel = "POSITION",
            converter = ResetTarget.Converter.class,
            description = "earliest, latest, an ISO-8601 instant (2024-05-01T10:00:00Z) or a duration before now"
                    + " (PT1H, 90m, 1h, 2d)")
    ResetTarget to;

    @Option(
            names = "--topics",
            split = ",",
            paramLabel = "TOPIC",
            description = "input topics to reset (default: the topology's source topics with --topology, else every"
                    + " non-internal topic the group has committed offsets for)")
    List<String> topics;

    @Option(names = "--dry-run", description = "print what would be done; change nothing")
    boolean dryRun;

    @ArgGroup(exclusive = false, heading = "With the topology, its source topics and its exact internal topics:%n")
    TopologyOptions topologyOptions;

    /** One input partition: committed offset before (-1: none) and after. */
    record Move(TopicPartition partition, long before, long after) {}

    @Override
    public Integer call() {
        WeirConfig config = app.config();
        Topology topology = topologyOptions == null ? null : topologyOptions.load();
        PrintWriter out = app.out();
        try (Admin admin = app.admin(config)) {
            requireNoMembers(admin);
            Map<TopicPartition, OffsetAndMetadata> committed = Groups.committed(admin, app.id);
            Set<String> existing = listTopics(admin);
            Set<String> inputs = inputTopics(topology, committed, config, existing);
            List<Move> moves = plan(admin, inputs, committed);
            Set<String> internal =
                    neverInputs(internalTopics(admin, topology, config, existing), inputs, topology, committed, config);
            print(out, moves, internal);
            if (dryRun) {
                out.println("Dry run: nothing was changed.");
                return Weir.OK;
            }
            apply(admin, moves, committed, internal);
            out.printf(
                    "Reset %s to %s: %d partition(s) moved, %d topic(s) deleted.%n",
                    app.id, to, moves.size(), internal.size());
        }
        return Weir.OK;
    }

    private void requireNoMembers(Admin admin) {
        ConsumerGroupDescription group = Groups.describe(admin, app.id).orElse(null);
        if (group != null && !group.members().isEmpty()) {
            List<String> ids = group.members().stream()
                    .map(m -> m.groupInstanceId().orElse(m.consumerId()) + "@" + m.host())
                    .sorted()
                    .toList();
            throw new CommandFailedException("the application " + app.id + " has " + ids.size() + " active member(s) "
                    + ids + "; stop every instance before a reset (a running instance would commit over it)");
        }
    }

    private Set<String> inputTopics(
            Topology topology,
            Map<TopicPartition, OffsetAndMetadata> committed,
            WeirConfig config,
            Set<String> existing) {
        Set<String> inputs = new TreeSet<>();
        if (topics != null && !topics.isEmpty()) {
            inputs.addAll(topics);
        } else if (topology != null) {
            inputs.addAll(topology.sourceTopics());
        } else {
            committed.keySet().stream()
                    .map(TopicPartition::topic)
                    .filter(t -> !AppTopics.isInternal(config, t))
                    .forEach(inputs::add);
        }
        Set<String> missing = new TreeSet<>(inputs);
        missing.removeAll(existing);
        if (!missing.isEmpty()) {
            throw new CommandFailedException("input topic(s) " + missing + " do not exist");
        }
        if (inputs.isEmpty()) {
            throw new CommandFailedException("no input topics to reset: the group " + app.id
                    + " has no committed offsets;" + " name them with --topics or give --topology");
        }
        return inputs;
    }

    /** The new offset of every partition of the inputs. */
    private List<Move> plan(Admin admin, Set<String> inputs, Map<TopicPartition, OffsetAndMetadata> committed) {
        Map<String, TopicDescription> described = KafkaCalls.get(
                admin.describeTopics(inputs).allTopicNames(), ClusterOptions.TIMEOUT, "describe the input topics");
        List<TopicPartition> partitions = new ArrayList<>();
        described.forEach((name, d) ->
                d.partitions().forEach(p -> partitions.add(new TopicPartition(name, p.partition()))));
        partitions.sort(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
        Map<TopicPartition, Long> ends = offsets(admin, partitions, OffsetSpec.latest());
        Map<TopicPartition, Long> targets;
        if (to instanceof ResetTarget.At at) {
            targets =
                    offsets(admin, partitions, OffsetSpec.forTimestamp(at.time().toEpochMilli()));
        } else if (to instanceof ResetTarget.Earliest) {
            targets = offsets(admin, partitions, OffsetSpec.earliest());
        } else {
            targets = ends;
        }
        List<Move> moves = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            long target = targets.get(tp);
            // No record at or after the time: the end.
            long after = target < 0 ? ends.get(tp) : target;
            OffsetAndMetadata before = committed.get(tp);
            moves.add(new Move(tp, before == null ? -1 : before.offset(), after));
        }
        return moves;
    }

    private static Map<TopicPartition, Long> offsets(Admin admin, List<TopicPartition> partitions, OffsetSpec spec) {
        Map<TopicPartition, OffsetSpec> request = new LinkedHashMap<>();
        partitions.forEach(tp -> request.put(tp, spec));
        Map<TopicPartition, ListOffsetsResultInfo> result = KafkaCalls.get(
                admin.listOffsets(request, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                        .all(),
                ClusterOptions.TIMEOUT,
                "look up offsets");
        Map<TopicPartition, Long> offsets = new HashMap<>();
        result.forEach((tp, info) -> offsets.put(tp, info.offset()));
        return offsets;
    }

    /**
     * {@code toDelete} without any topic the application reads: the inputs being reset, its
     * topology's source topics, and the topics its group committed offsets for, repartition topics aside (the group reads no
     * changelog of its own). A table's compacted source topic serves as its store's changelog
     * (Weir creates no {@code <store>-changelog} then): it is the user's data, never deleted, even
     * when its name looks like an internal topic's.
     */
    static Set<String> neverInputs(
            Set<String> toDelete,
            Set<String> inputs,
            Topology topology,
            Map<TopicPartition, OffsetAndMetadata> committed,
            WeirConfig config) {
        Set<String> kept = new TreeSet<>(toDelete);
        kept.removeAll(inputs);
        if (topology != null) {
            kept.removeAll(topology.sourceTopics());
        }
        committed.keySet().stream()
                .map(TopicPartition::topic)
                .filter(t -> AppTopics.kindOf(config, t)
                        .filter(k -> k == InternalTopic.REPARTITION)
                        .isEmpty())
                .forEach(kept::remove);
        return kept;
    }

    /** The changelog and repartition topics to delete: the topology's, or those named like the application's. */
    private Set<String> internalTopics(Admin admin, Topology topology, WeirConfig config, Set<String> existing) {
        Set<String> internal = new TreeSet<>();
        if (topology != null) {
            for (InternalTopics.Topic t : TopicsCommand.run(
                    () -> InternalTopics.plan(TopologyAccess.model(topology, config.applicationId()), config, admin))) {
                if ((t.kind() == InternalTopic.CHANGELOG || t.kind() == InternalTopic.REPARTITION)
                        && existing.contains(t.name())) {
                    internal.add(t.name());
                }
            }
        } else {
            existing.stream()
                    .filter(t -> AppTopics.kindOf(config, t)
                            .filter(k -> k == InternalTopic.CHANGELOG || k == InternalTopic.REPARTITION)
                            .isPresent())
                    .forEach(internal::add);
        }
        // The recorded topology goes too: the replay usually runs changed code, which the start-up check
        // would otherwise compare with (and, for a store whose format changed, refuse to start on).
        String record = InternalTopic.TOPOLOGY.of(app.id);
        if (existing.contains(record)) {
            internal.add(record);
        }
        return internal;
    }

    private void print(PrintWriter out, List<Move> moves, Set<String> internal) {
        out.printf("Reset of %s to %s%s%n%n", app.id, to, dryRun ? " (dry run)" : "");
        Table table = new Table("TOPIC", "PARTITION", "COMMITTED BEFORE", "AFTER");
        moves.forEach(m -> table.row(
                m.partition().topic(), m.partition().partition(), m.before() < 0 ? "-" : m.before(), m.after()));
        table.print(out);
        out.println();
        if (internal.isEmpty()) {
            out.println("No changelog or repartition topics to delete.");
        } else {
            out.println("Topics to delete (the next start recreates them empty):");
            internal.forEach(t -> out.println("  " + t));
        }
        out.println("Committed offset metadata (the event-time watermark) is cleared.");
        out.println();
    }

    private void apply(
            Admin admin, List<Move> moves, Map<TopicPartition, OffsetAndMetadata> committed, Set<String> internal) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new LinkedHashMap<>();
        // Empty metadata: no watermark carried over; event time starts again with the replay.
        moves.forEach(m -> offsets.put(m.partition(), new OffsetAndMetadata(m.after(), "")));
        KafkaCalls.get(
                admin.alterConsumerGroupOffsets(app.id, offsets).all(),
                ClusterOptions.TIMEOUT,
                "reset the committed offsets of " + app.id);
        Set<TopicPartition> stale = new java.util.HashSet<>();
        committed.keySet().stream().filter(tp -> internal.contains(tp.topic())).forEach(stale::add);
        if (!stale.isEmpty()) {
            // Offsets into repartition topics about to be deleted must not apply to their successors.
            KafkaCalls.get(
                    admin.deleteConsumerGroupOffsets(app.id, stale).all(),
                    ClusterOptions.TIMEOUT,
                    "delete the offsets of repartition topics");
        }
        if (internal.isEmpty()) {
            return;
        }
        KafkaCalls.get(
                admin.deleteTopics(internal).all(), ClusterOptions.TIMEOUT, "delete the internal topics " + internal);
        awaitDeleted(admin, internal);
    }

    /** A start right after the reset must not find a topic still being deleted (and then lose it). */
    static void awaitDeleted(Admin admin, Set<String> topics) {
        Set<String> left = new TreeSet<>();
        boolean gone;
        try {
            gone = Poll.until(
                    () -> {
                        left.clear();
                        left.addAll(topics);
                        left.retainAll(listTopics(admin));
                        return left.isEmpty();
                    },
                    DELETION_WAIT,
                    DELETION_RECHECK);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandFailedException("interrupted while waiting for the deletion of " + topics, e);
        }
        if (!gone) {
            throw new CommandFailedException("topics " + left + " are still listed " + DELETION_WAIT.toSeconds()
                    + " s after their deletion; check the cluster before starting the application");
        }
    }

    private static Set<String> listTopics(Admin admin) {
        return KafkaCalls.get(admin.listTopics().names(), ClusterOptions.TIMEOUT, "list topics");
    }
}
