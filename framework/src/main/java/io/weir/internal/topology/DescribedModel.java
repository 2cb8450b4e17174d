package io.weir.internal.topology;

import io.weir.processor.ProcessorSupplier;
import io.weir.serde.Serde;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The shape of a topology rebuilt from its {@link TopologyDescription}, without its code: the same
 * nodes, edges, sub-topologies, topics and stores (names, kinds, options, format ids), so that
 * what plans or loads state needs no class of the application (a savepoint restore, the topic
 * plan, {@code weir topology diff}). This is what lets {@code weir ... --topology-file} work from
 * the JSON an application prints with {@code run.mode=describe}, for instance in a container that
 * holds the CLI but not the application.
 *
 * <p>It cannot run: its processors refuse to be instantiated and its serdes to convert anything;
 * they only carry the format ids the description names ({@link Serde#formatId()}). Repartition
 * topics are renamed for the application it is built for when the description was written for
 * another one.
 */
public final class DescribedModel {

    private DescribedModel() {}

    /**
     * @param applicationId the application the model is for (its repartition topics' prefix)
     * @throws IllegalArgumentException if the description lacks the graph (written by a Weir older
     *     than the {@code graph} field) or does not make the sub-topologies it lists
     */
    public static TopologyModel of(TopologyDescription description, String applicationId) {
        String from = description.applicationId() + "-";
        String to = applicationId + "-";
        Map<String, List<String>> parents = new HashMap<>();
        List<TopologyDescription.NodeInfo> ordered = new ArrayList<>();
        // Sub-topology by sub-topology: they are numbered by their first source in node order, so
        // this order numbers them as the description does (checked below).
        for (TopologyDescription.SubtopologyInfo st : description.subtopologies()) {
            if (st.graph().isEmpty() && !st.nodes().isEmpty()) {
                throw new IllegalArgumentException("the description of " + description.applicationId() + " (Weir "
                        + description.weirVersion() + ") has no graph of its nodes; describe the topology with this"
                        + " version of Weir (run.mode=describe)");
            }
            for (TopologyDescription.NodeInfo n : st.graph()) {
                ordered.add(n);
                n.children()
                        .forEach(c -> parents.computeIfAbsent(c, k -> new ArrayList<>())
                                .add(n.name()));
            }
        }
        Map<String, NodeSpec> nodes = new LinkedHashMap<>();
        for (TopologyDescription.NodeInfo n : ordered) {
            List<String> ps = parents.getOrDefault(n.name(), List.of());
            boolean internal = Boolean.TRUE.equals(n.internal());
            NodeSpec spec = switch (n.type()) {
                case "source" ->
                    new NodeSpec.Source(
                            n.name(),
                            n.topics() == null
                                    ? List.of()
                                    : n.topics().stream()
                                            .map(t -> internal ? rename(t, from, to) : t)
                                            .toList(),
                            n.pattern() == null ? null : Pattern.compile(n.pattern()),
                            new Described<>("bytes"),
                            new Described<>("bytes"),
                            internal,
                            null,
                            true,
                            n.partitions() == null ? 0 : n.partitions());
                case "sink" ->
                    new NodeSpec.Sink(
                            n.name(),
                            n.topic() == null ? null : internal ? rename(n.topic(), from, to) : n.topic(),
                            null,
                            new Described<>("bytes"),
                            new Described<>("bytes"),
                            ps,
                            internal,
                            null);
                case "processor" ->
                    new NodeSpec.Processing(
                            n.name(), notRunnable(n.name()), ps, n.stores() == null ? List.of() : n.stores());
                default ->
                    throw new IllegalArgumentException("node " + n.name() + " has an unknown type '" + n.type()
                            + "' (a description written by a newer Weir?)");
            };
            nodes.put(n.name(), spec);
        }
        Map<String, StoreSpec> stores = new LinkedHashMap<>();
        for (TopologyDescription.StoreInfo s : description.stores()) {
            stores.put(s.name(), store(s));
        }
        Map<String, GlobalTableSpec> globals = new LinkedHashMap<>();
        for (TopologyDescription.GlobalTableInfo g : description.globalTables()) {
            globals.put(
                    g.store(),
                    new GlobalTableSpec(
                            g.store(), g.topic(), new Described<>(g.keyFormat()), new Described<>(g.valueFormat())));
        }
        TopologyModel model = new TopologyModel(nodes, stores, globals);
        requireSameSubtopologies(description, model);
        return model;
    }

    private static StoreSpec store(TopologyDescription.StoreInfo s) {
        StoreSpec.Kind kind;
        try {
            kind = StoreSpec.Kind.valueOf(s.kind().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("store " + s.name() + " has an unknown kind '" + s.kind() + "'");
        }
        String sourceTopic = Boolean.TRUE.equals(s.changelogIsSourceTopic()) ? s.changelogTopic() : null;
        return new StoreSpec(
                s.name(),
                new Described<>(s.keyFormat()),
                new Described<>(s.valueFormat()),
                s.persistent(),
                s.logged(),
                s.ttlMs() == null ? null : Duration.ofMillis(s.ttlMs()),
                kind,
                kind == StoreSpec.Kind.WINDOW ? s.windowSizeMs() : 0,
                s.retentionMs() == null ? null : Duration.ofMillis(s.retentionMs()),
                sourceTopic);
    }

    private static String rename(String topic, String from, String to) {
        return topic.startsWith(from) ? to + topic.substring(from.length()) : topic;
    }

    private static void requireSameSubtopologies(TopologyDescription description, TopologyModel model) {
        List<Set<String>> described = description.subtopologies().stream()
                .map(st -> (Set<String>) new TreeSet<>(st.nodes()))
                .toList();
        List<Set<String>> rebuilt = model.subtopologies().stream()
                .map(st -> (Set<String>) new TreeSet<>(st.nodeNames()))
                .toList();
        if (!described.equals(rebuilt)) {
            throw new IllegalArgumentException("the description of " + description.applicationId() + " does not make"
                    + " the sub-topologies it lists: " + described + " described, " + rebuilt + " rebuilt");
        }
    }

    private static ProcessorSupplier<Object, Object, Object, Object> notRunnable(String node) {
        return () -> {
            throw new UnsupportedOperationException("processor " + node + " comes from a topology description"
                    + " and has no code: a described topology is for planning and restoring, not for running");
        };
    }

    /** A serde that only names a format: what a store or topic of a described topology holds. */
    record Described<T>(String formatId) implements Serde<T> {

        @Override
        public byte[] serialize(String topic, T value) {
            throw new UnsupportedOperationException("a described topology has no serde for format " + formatId);
        }

        @Override
        public T deserialize(String topic, byte[] bytes) {
            throw new UnsupportedOperationException("a described topology has no serde for format " + formatId);
        }
    }
}
