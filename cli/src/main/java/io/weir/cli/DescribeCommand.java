package io.weir.cli;

import io.weir.Topology;
import io.weir.common.internal.KafkaCalls;
import io.weir.config.WeirConfig;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.json.Json;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
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
 * {@code weir describe}: what Kafka knows about a running application. Its consumer group (state,
 * members with their instance ids and hosts, the partitions each is assigned, and the tasks when
 * the topology is given), the lag of its committed input offsets behind the read_committed ends,
 * and its internal topics. Restore progress is not in Kafka: each instance's {@code /info} and
 * {@code /health/ready} endpoints report it.
 */
@Command(
        name = "describe",
        mixinStandardHelpOptions = true,
        description = "Describes an application: consumer group members (instance ids, hosts, partitions, tasks),"
                + " input lag per partition, internal topics.")
final class DescribeCommand implements Callable<Integer> {

    @Mixin
    AppOptions app;

    @Option(names = "--json", description = "print JSON")
    boolean json;

    @ArgGroup(exclusive = false, heading = "With the topology, partitions are shown as tasks:%n")
    TopologyOptions topologyOptions;

    /** One member: instance id {@code <instance>-<thread>} when static membership is on. */
    record Member(String memberId, String instanceId, String host, List<TopicPartition> partitions) {}

    /**
     * What the command learned, for either output; {@code internal} the application's internal
     * topics, {@code topology} null when not given.
     */
    record Snapshot(
            ConsumerGroupDescription group,
            List<Member> members,
            List<Lag> lags,
            Map<String, TopicDescription> internal,
            Topology topology,
            WeirConfig config,
            Map<String, Heartbeats.Heartbeat> heartbeats) {}

    /** Committed vs end offset of one input partition; committed -1 when none. */
    record Lag(TopicPartition partition, long committed, long end) {
        long lag() {
            return committed < 0 ? end : Math.max(0, end - committed);
        }
    }

    @Override
    public Integer call() {
        WeirConfig config = app.config();
        Topology topology = topologyOptions == null ? null : topologyOptions.load();
        try (Admin admin = app.admin(config)) {
            ConsumerGroupDescription group = Groups.describe(admin, app.id).orElse(null);
            Map<TopicPartition, OffsetAndMetadata> committed = Groups.committed(admin, app.id);
            Set<String> topics = KafkaCalls.get(admin.listTopics().names(), ClusterOptions.TIMEOUT, "list topics");
            Set<String> internal = AppTopics.internal(config, topics);
            Map<String, TopicDescription> described = internal.isEmpty()
                    ? Map.of()
                    : KafkaCalls.get(
                            admin.describeTopics(internal).allTopicNames(),
                            ClusterOptions.TIMEOUT,
                            "describe the internal topics");
            List<Lag> lags = lags(admin, committed, config);
            Map<String, Heartbeats.Heartbeat> heartbeats = Heartbeats.read(config);
            List<Member> members = new ArrayList<>();
            for (MemberDescription m : group == null ? List.<MemberDescription>of() : group.members()) {
                List<TopicPartition> parts = new ArrayList<>(m.assignment().topicPartitions());
                parts.sort(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
                members.add(new Member(m.consumerId(), m.groupInstanceId().orElse("-"), m.host(), parts));
            }
            members.sort(Comparator.comparing(Member::instanceId).thenComparing(Member::memberId));
            PrintWriter out = app.out();
            Snapshot snapshot = new Snapshot(group, members, lags, described, topology, config, heartbeats);
            if (json) {
                printJson(out, snapshot);
            } else {
                printText(out, snapshot);
            }
        }
        return Weir.OK;
    }

    /** Lag of every committed partition that is not an internal topic. */
    private static List<Lag> lags(Admin admin, Map<TopicPartition, OffsetAndMetadata> committed, WeirConfig config) {
        Map<TopicPartition, OffsetSpec> request = new LinkedHashMap<>();
        committed.keySet().stream()
                .filter(tp -> !AppTopics.isInternal(config, tp.topic()))
                .forEach(tp -> request.put(tp, OffsetSpec.latest()));
        if (request.isEmpty()) {
            return List.of();
        }
        var ends = KafkaCalls.get(
                admin.listOffsets(request, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                        .all(),
                ClusterOptions.TIMEOUT,
                "read the end offsets");
        List<Lag> lags = new ArrayList<>();
        for (TopicPartition tp : request.keySet()) {
            OffsetAndMetadata c = committed.get(tp);
            lags.add(new Lag(tp, c == null ? -1 : c.offset(), ends.get(tp).offset()));
        }
        lags.sort(Comparator.comparing((Lag l) -> l.partition().topic())
                .thenComparingInt(l -> l.partition().partition()));
        return lags;
    }

    /** The group's state; {@code none} before the application's first start. */
    private static String state(ConsumerGroupDescription group) {
        return group == null ? "none" : group.groupState().toString();
    }

    /** Tasks ({@code <subtopology>_<partition>}) of the partitions, when the topology is known. */
    private String assignment(Member m, Topology topology) {
        if (topology == null) {
            return m.partitions().stream().map(TopicPartition::toString).collect(Collectors.joining(", "));
        }
        return String.join(", ", tasks(m, topology));
    }

    private Set<String> tasks(Member m, Topology topology) {
        Set<String> tasks = new TreeSet<>();
        for (TopicPartition tp : m.partitions()) {
            OptionalInt st = topology.subtopologyReading(app.id, tp.topic());
            tasks.add(st.isPresent() ? st.getAsInt() + "_" + tp.partition() : tp.toString());
        }
        return tasks;
    }

    private void printText(PrintWriter out, Snapshot s) {
        out.printf(
                "Application %s: consumer group %s, %d member(s)%n%n",
                app.id, state(s.group()), s.members().size());
        Table m = new Table("INSTANCE (group.instance.id)", "HOST", s.topology() == null ? "PARTITIONS" : "TASKS");
        s.members().forEach(mb -> m.row(mb.instanceId(), mb.host(), assignment(mb, s.topology())));
        if (m.isEmpty()) {
            out.println("No active members.");
        } else {
            m.print(out);
        }
        out.println();
        out.println("Input lag (committed offset vs read_committed end):");
        Table l = new Table("TOPIC", "PARTITION", "COMMITTED", "END", "LAG");
        s.lags()
                .forEach(x -> l.row(
                        x.partition().topic(),
                        x.partition().partition(),
                        x.committed() < 0 ? "-" : x.committed(),
                        x.end(),
                        x.lag()));
        if (l.isEmpty()) {
            out.println("No committed input offsets.");
        } else {
            l.print(out);
            out.printf("Total lag: %d%n", s.lags().stream().mapToLong(Lag::lag).sum());
        }
        out.println();
        out.println("Internal topics:");
        Table t = new Table("TOPIC", "KIND", "PARTITIONS");
        new TreeMap<>(s.internal())
                .forEach((name, d) -> t.row(
                        name, AppTopics.label(s.config(), name), d.partitions().size()));
        if (t.isEmpty()) {
            out.println("None.");
        } else {
            t.print(out);
        }
        out.println();
        out.println("Instances, as their last heartbeats say ("
                + InternalTopic.LIVENESS.of(s.config().applicationId()) + "):");
        Table h = new Table(
                "INSTANCE", "HEARD", "STATE", "ACTIVE", "STANDBY", "RESTORING (task:store:records left)", "HTTP PORT");
        long now = System.currentTimeMillis();
        s.heartbeats()
                .values()
                .forEach(b -> h.row(
                        b.instance(),
                        heard(now, b),
                        status(b, "state"),
                        status(b, "active"),
                        status(b, "standby"),
                        status(b, "restoring"),
                        status(b, "http")));
        if (h.isEmpty()) {
            out.println("None heard (failure.detection.ms=0 turns heartbeats off; each instance also reports on its"
                    + " HTTP port: GET /info and /health/ready).");
        } else {
            h.print(out);
        }
    }

    /** How long ago the heartbeat was written, or what the instance said when it stopped. */
    private static String heard(long now, Heartbeats.Heartbeat b) {
        String kind = b.status().get("kind");
        String ago = String.format(java.util.Locale.ROOT, "%.1f s ago", Math.max(0, now - b.timestamp()) / 1000.0);
        return "alive".equals(kind) ? ago : ago + " (" + ("left".equals(kind) ? "left the group" : "restarting") + ")";
    }

    private static String status(Heartbeats.Heartbeat b, String key) {
        if (!"alive".equals(b.status().get("kind"))) {
            return "-";
        }
        String v = b.status().get(key);
        return v == null || v.isEmpty() ? "-" : v;
    }

    private void printJson(PrintWriter out, Snapshot s) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("application", app.id);
        root.put("groupState", state(s.group()));
        List<Object> ms = new ArrayList<>();
        for (Member mb : s.members()) {
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("instanceId", mb.instanceId());
            j.put("memberId", mb.memberId());
            j.put("host", mb.host());
            j.put(
                    "partitions",
                    mb.partitions().stream().map(TopicPartition::toString).toList());
            if (s.topology() != null) {
                j.put("tasks", List.copyOf(tasks(mb, s.topology())));
            }
            ms.add(j);
        }
        root.put("members", ms);
        List<Object> ls = new ArrayList<>();
        for (Lag x : s.lags()) {
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("topic", x.partition().topic());
            j.put("partition", x.partition().partition());
            j.put("committed", x.committed() < 0 ? null : x.committed());
            j.put("end", x.end());
            j.put("lag", x.lag());
            ls.add(j);
        }
        root.put("inputLag", ls);
        List<Object> ts = new ArrayList<>();
        new TreeMap<>(s.internal()).forEach((name, d) -> {
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("topic", name);
            j.put("kind", AppTopics.label(s.config(), name));
            j.put("partitions", d.partitions().size());
            ts.add(j);
        });
        root.put("internalTopics", ts);
        List<Object> hs = new ArrayList<>();
        s.heartbeats().values().forEach(b -> {
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("instance", b.instance());
            j.put("heardAt", java.time.Instant.ofEpochMilli(b.timestamp()).toString());
            j.putAll(b.status());
            hs.add(j);
        });
        root.put("instances", hs);
        out.println(Json.pretty(root));
    }
}
