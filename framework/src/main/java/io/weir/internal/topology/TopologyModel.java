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
    private final Map<String, List<String>> children;
    private final List<Subtopology> subtopologies;

    TopologyModel(Map<String, NodeSpec> nodes) {
        this.nodes = Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
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

    /** The sub-topology reading {@code topic}, or null. */
    public Subtopology subtopologyFor(String topic) {
        for (Subtopology s : subtopologies) {
            if (s.reads(topic)) {
                return s;
            }
        }
        return null;
    }

    /** Every fixed input topic (sources with a pattern are not listed). */
    public Set<String> sourceTopics() {
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

    /** Every fixed output topic. */
    public Set<String> sinkTopics() {
        Set<String> topics = new LinkedHashSet<>();
        for (NodeSpec n : nodes.values()) {
            if (n instanceof NodeSpec.Sink s && s.topic() != null) {
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
                    sb.append(" (topics: ").append(s.describeInput()).append(')');
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
        nodes.values().forEach(n -> n.parents().forEach(p -> {
            undirected.get(p).add(n.name());
            undirected.get(n.name()).add(p);
        }));
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
