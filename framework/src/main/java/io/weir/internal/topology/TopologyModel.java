package io.weir.internal.topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A finished, validated topology: nodes, the edges between them, and the sub-topologies. Plain
 * data; the runtime instantiates it per task.
 */
public final class TopologyModel {

    private final Map<String, NodeSpec> nodes;
    private final Map<String, StoreSpec> stores;
    private final Map<String, GlobalTableSpec> globalTables;
    private final Map<String, List<String>> children;
    private final List<Subtopology> subtopologies;

    TopologyModel(
            Map<String, NodeSpec> nodes, Map<String, StoreSpec> stores, Map<String, GlobalTableSpec> globalTables) {
        this.nodes = Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
        this.stores = Collections.unmodifiableMap(new LinkedHashMap<>(stores));
        this.globalTables = Collections.unmodifiableMap(new LinkedHashMap<>(globalTables));
        Map<String, List<String>> kids = new HashMap<>();
        nodes.values().forEach(n -> kids.put(n.name(), new ArrayList<>()));
        nodes.values().forEach(n -> n.parents().forEach(p -> kids.get(p).add(n.name())));
        kids.replaceAll((k, v) -> List.copyOf(v));
        this.children = Collections.unmodifiableMap(kids);
        this.subtopologies = List.copyOf(split());
    }

    public Map<String, NodeSpec> nodes() {
        return nodes;
    }

    public List<String> children(String node) {
        return children.get(node);
    }

    public List<Subtopology> subtopologies() {
        return subtopologies;
    }

    public Map<String, StoreSpec> stores() {
        return stores;
    }

    /** The global tables by store name; their stores are not in {@link #stores()}. */
    public Map<String, GlobalTableSpec> globalTables() {
        return globalTables;
    }

    /** The stores the nodes of a sub-topology use, in the order they were added. */
    public List<StoreSpec> storesOf(Subtopology st) {
        Set<String> used = new LinkedHashSet<>();
        for (String name : st.nodeNames()) {
            if (nodes.get(name) instanceof NodeSpec.Processing p) {
                used.addAll(p.stores());
            }
        }
        List<StoreSpec> result = new ArrayList<>();
        stores.values().forEach(s -> {
            if (used.contains(s.name())) {
                result.add(s);
            }
        });
        return result;
    }

    /**
     * The store called {@code name}, which must be of {@code kind}: for the public readers of
     * stores by name ({@code store}, {@code windowStore} and {@code sessionStore}).
     *
     * @throws IllegalArgumentException naming the topology's stores, or the reader that fits the store
     */
    public StoreSpec store(String name, StoreSpec.Kind kind) {
        StoreSpec spec = stores.get(name);
        if (spec == null) {
            throw new IllegalArgumentException(
                    "the topology has no store named '" + name + "'; its stores: " + stores.keySet());
        }
        if (spec.kind() != kind) {
            throw new IllegalArgumentException(
                    "store '" + name + "' is a " + spec.kind().label() + " store, not a "
                            + kind.label() + " store; use "
                            + switch (spec.kind()) {
                                case KEY_VALUE -> "store(name)";
                                case WINDOW -> "windowStore(name)";
                                case SESSION -> "sessionStore(name)";
                            });
        }
        return spec;
    }

    /**
     * This topology for one application: internal (repartition) topic names get the
     * {@code <applicationId>-} prefix. Done at start-up, since a topology is built before the
     * configuration that names the application.
     */
    public TopologyModel resolve(String applicationId) {
        Map<String, NodeSpec> resolved = new LinkedHashMap<>();
        for (NodeSpec n : nodes.values()) {
            if (n instanceof NodeSpec.Source s && s.internal()) {
                resolved.put(
                        s.name(),
                        s.withTopics(s.topics().stream()
                                .map(t -> applicationId + "-" + t)
                                .toList()));
            } else if (n instanceof NodeSpec.Sink s && s.internal()) {
                resolved.put(s.name(), s.withTopic(applicationId + "-" + s.topic()));
            } else {
                resolved.put(n.name(), n);
            }
        }
        return new TopologyModel(resolved, stores, globalTables);
    }

    /** This topology with each store replaced by what {@code change} makes of it (same names). */
    public TopologyModel withStores(java.util.function.UnaryOperator<StoreSpec> change) {
        Map<String, StoreSpec> changed = new LinkedHashMap<>();
        stores.forEach((name, s) -> changed.put(name, change.apply(s)));
        return new TopologyModel(nodes, changed, globalTables);
    }

    /** Topics Weir creates and owns: repartition topics, read by the given sources. */
    public List<NodeSpec.Source> internalSources() {
        List<NodeSpec.Source> result = new ArrayList<>();
        for (NodeSpec n : nodes.values()) {
            if (n instanceof NodeSpec.Source s && s.internal()) {
                result.add(s);
            }
        }
        return result;
    }

    /**
     * Two sub-topologies that feed each other through repartition topics (a foreign-key join's
     * subscriptions and responses), described for an error message; empty when the repartition
     * topics make no cycle. Savepoints and bounded runs drain repartition topics in their writers'
     * order, which a cycle does not have.
     */
    public java.util.Optional<String> repartitionCycle() {
        for (Subtopology writer : subtopologies()) {
            for (String topic : repartitionTopicsWrittenBy(writer)) {
                Subtopology reader = subtopologyFor(topic);
                if (reader == null || reader.id() == writer.id()) {
                    continue;
                }
                for (String back : repartitionTopicsWrittenBy(reader)) {
                    Subtopology again = subtopologyFor(back);
                    if (again != null && again.id() == writer.id()) {
                        return java.util.Optional.of("sub-topologies " + writer.id() + " and " + reader.id()
                                + " feed each other through " + topic + " and " + back);
                    }
                }
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * The repartition topics the sinks of {@code st} write to that carry event time (see
     * {@link NodeSpec.Source#eventTime}): those its tasks announce their watermark into.
     */
    public List<String> eventTimeTopicsWrittenBy(Subtopology st) {
        return repartitionTopicsWrittenBy(st).stream()
                .filter(topic -> nodes.values().stream()
                        .noneMatch(n -> n instanceof NodeSpec.Source s && !s.eventTime() && s.reads(topic)))
                .toList();
    }

    /** The repartition topics the sinks of {@code st} write to, in topology order, each once. */
    public List<String> repartitionTopicsWrittenBy(Subtopology st) {
        List<String> topics = new ArrayList<>();
        for (String name : st.nodeNames()) {
            if (nodes.get(name) instanceof NodeSpec.Sink s && s.internal() && !topics.contains(s.topic())) {
                topics.add(s.topic());
            }
        }
        return topics;
    }

    /** The sub-topology reading {@code topic}, or null. */
    public Subtopology subtopologyFor(String topic) {
        for (Subtopology s : subtopologies) {
            if (s.reads(topic)) {
                return s;
            }
        }
        return null;
    }

    /** Every fixed user input topic (pattern sources and internal topics are not listed). */
    public Set<String> sourceTopics() {
        Set<String> topics = new LinkedHashSet<>();
        for (NodeSpec n : nodes.values()) {
            if (n instanceof NodeSpec.Source s && s.pattern() == null && !s.internal()) {
                topics.addAll(s.topics());
            }
        }
        return topics;
    }

    /** Every fixed topic the consumers subscribe to: user inputs and repartition topics. */
    public Set<String> subscriptionTopics() {
        Set<String> topics = new LinkedHashSet<>();
        for (NodeSpec n : nodes.values()) {
            if (n instanceof NodeSpec.Source s && s.pattern() == null) {
                topics.addAll(s.topics());
            }
        }
        return topics;
    }

    /** One pattern matching every input topic, or null when all inputs are fixed topics. */
    public Pattern subscriptionPattern() {
        List<String> parts = new ArrayList<>();
        boolean anyPattern = false;
        for (NodeSpec n : nodes.values()) {
            if (n instanceof NodeSpec.Source s) {
                if (s.pattern() != null) {
                    anyPattern = true;
                    parts.add("(?:" + s.pattern().pattern() + ")");
                } else {
                    s.topics().forEach(t -> parts.add(Pattern.quote(t)));
                }
            }
        }
        return anyPattern ? Pattern.compile(String.join("|", parts)) : null;
    }

    /** Every fixed user output topic (internal topics are not listed). */
    public Set<String> sinkTopics() {
        Set<String> topics = new LinkedHashSet<>();
        for (NodeSpec n : nodes.values()) {
            if (n instanceof NodeSpec.Sink s && s.topic() != null && !s.internal()) {
                topics.add(s.topic());
            }
        }
        return topics;
    }

    /** A readable description: sub-topologies, their nodes and edges. */
    public String describe() {
        StringBuilder sb = new StringBuilder("Topology\n");
        for (Subtopology st : subtopologies) {
            sb.append("  Sub-topology ").append(st.id()).append('\n');
            for (String name : nodes.keySet()) {
                if (!st.nodeNames().contains(name)) {
                    continue;
                }
                NodeSpec n = nodes.get(name);
                sb.append("    ").append(kind(n)).append(' ').append(name);
                if (n instanceof NodeSpec.Source s) {
                    sb.append(" (topics: ").append(s.describeInput());
                    if (s.fixedPartitions()) {
                        sb.append(", partitions: ").append(s.partitions());
                    }
                    sb.append(')');
                } else if (n instanceof NodeSpec.Sink s) {
                    sb.append(" (topic: ").append(s.describeOutput()).append(')');
                }
                List<String> kids = children.get(name);
                if (!kids.isEmpty()) {
                    sb.append(" --> ").append(String.join(", ", kids));
                }
                sb.append('\n');
            }
        }
        for (GlobalTableSpec g : globalTables.values()) {
            sb.append("  Global table ")
                    .append(g.storeName())
                    .append(" (topic: ")
                    .append(g.topic())
                    .append(")\n");
        }
        return sb.toString();
    }

    private static String kind(NodeSpec n) {
        if (n instanceof NodeSpec.Source) {
            return "Source:";
        }
        return n instanceof NodeSpec.Sink ? "Sink:" : "Processor:";
    }

    /** Connected components, each started from its sources, numbered in source order. */
    private List<Subtopology> split() {
        Map<String, Set<String>> undirected = new HashMap<>();
        nodes.keySet().forEach(n -> undirected.put(n, new LinkedHashSet<>()));
        nodes.values()
                .forEach(n -> n.parents().forEach(p -> {
                    undirected.get(p).add(n.name());
                    undirected.get(n.name()).add(p);
                }));
        // Processors sharing a store must run in the same task.
        Map<String, List<String>> usersOfStore = new HashMap<>();
        nodes.values().forEach(n -> {
            if (n instanceof NodeSpec.Processing p) {
                // a global table is on every instance, outside the tasks: it ties no processors together
                p.stores().stream()
                        .filter(st -> !globalTables.containsKey(st))
                        .forEach(st -> usersOfStore
                                .computeIfAbsent(st, k -> new ArrayList<>())
                                .add(p.name()));
            }
        });
        usersOfStore.values().forEach(users -> {
            for (String u : users) {
                undirected.get(u).addAll(users);
            }
        });
        List<Subtopology> result = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (NodeSpec n : nodes.values()) {
            if (!(n instanceof NodeSpec.Source) || seen.contains(n.name())) {
                continue;
            }
            Set<String> component = new LinkedHashSet<>();
            Deque<String> todo = new ArrayDeque<>(List.of(n.name()));
            while (!todo.isEmpty()) {
                String cur = todo.pop();
                if (component.add(cur)) {
                    todo.addAll(undirected.get(cur));
                }
            }
            seen.addAll(component);
            List<NodeSpec.Source> sources = new ArrayList<>();
            for (String name : component) {
                if (nodes.get(name) instanceof NodeSpec.Source s) {
                    sources.add(s);
                }
            }
            result.add(new Subtopology(result.size(), List.copyOf(sources), Collections.unmodifiableSet(component)));
        }
        return result;
    }
}
