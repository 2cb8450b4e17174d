package io.weir.internal.http;

import io.weir.internal.topology.DescribedStep;
import io.weir.internal.topology.NodeSpec;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.Subtopology;
import io.weir.internal.topology.TopologyModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A topology as a Mermaid flowchart ({@code graph TD}), to paste into a Markdown file or
 * mermaid.live. One {@code subgraph} per sub-topology holds its nodes (rectangles) and stores
 * (cylinders, joined to their processors by dotted lines); topics are stadium shapes outside the
 * sub-graphs, since a repartition topic links two of them. Node ids are derived from the names
 * (any character other than a letter, digit or {@code _} becomes {@code _}, with a prefix per
 * kind and a suffix when two names collide); labels keep the names as written.
 *
 * <pre>
 * graph TD
 *   subgraph st_0 ["sub-topology 0"]
 *     n_source_0["source-0"]
 *     ...
 *   end
 *   t_lines(["lines"])
 *   t_lines --> n_source_0
 *   n_count_4 -.- s_word_counts
 * </pre>
 *
 * <p>Stateless and thread-safe: the model is immutable and every call builds a new text.
 */
public final class TopologyMermaid {

    private TopologyMermaid() {}

    /**
     * The topology as Mermaid text, one statement per line.
     *
     * <p>Changelog topics are not drawn: the stores stand for them.
     *
     * @param model a model resolved for its application (internal topics prefixed)
     */
    public static String render(TopologyModel model) {
        return new Drawing(model).draw();
    }

    /** One rendering: the ids handed out so far and the lines written. */
    private static final class Drawing {

        private final TopologyModel model;
        private final StringBuilder out = new StringBuilder("graph TD\n");
        private final Map<String, String> ids = new HashMap<>();
        private final Set<String> usedIds = new HashSet<>();
        private final Map<String, String> topics = new LinkedHashMap<>(); // id -> label
        private final List<String> edges = new ArrayList<>();

        Drawing(TopologyModel model) {
            this.model = model;
        }

        String draw() {
            for (Subtopology st : model.subtopologies()) {
                out.append("  subgraph ")
                        .append(id("st", Integer.toString(st.id())))
                        .append(" [\"sub-topology ")
                        .append(st.id())
                        .append("\"]\n");
                model.nodes().values().stream()
                        .filter(n -> st.nodeNames().contains(n.name()))
                        .forEach(this::node);
                for (StoreSpec s : model.storesOf(st)) {
                    out.append("    ")
                            .append(id("s", s.name()))
                            .append("[(\"")
                            .append(label(s.name()))
                            .append("\")]\n");
                }
                out.append("  end\n");
            }
            topics.forEach((id, label) ->
                    out.append("  ").append(id).append("([\"").append(label).append("\"])\n"));
            edges.forEach(e -> out.append("  ").append(e).append('\n'));
            return out.toString();
        }

        private void node(NodeSpec node) {
            String id = id("n", node.name());
            // An asynchronous step is drawn as a parallelogram: records leave it later, not in turn.
            boolean async = node instanceof NodeSpec.Processing p && p.supplier() instanceof DescribedStep;
            out.append("    ")
                    .append(id)
                    .append(async ? "[/\"" : "[\"")
                    .append(label(node.name()))
                    .append(async ? "\"/]\n" : "\"]\n");
            if (node instanceof NodeSpec.Source s) {
                s.topics().forEach(t -> edges.add(topic(t, t) + " --> " + id));
                if (s.fixedPartitions()) { // the count the topology fixes, whoever drew the topic first
                    s.topics().forEach(t -> topics.put(id("t", t), label(t + " (" + s.partitions() + " partitions)")));
                }
                if (s.pattern() != null) {
                    String pattern = "/" + s.pattern().pattern() + "/";
                    edges.add(topic("pattern:" + s.name(), pattern) + " --> " + id);
                }
            } else if (node instanceof NodeSpec.Processing p) {
                p.stores().forEach(store -> edges.add(id + " -.- " + id("s", store)));
            } else if (node instanceof NodeSpec.Sink s) {
                edges.add(id + " --> "
                        + (s.topic() != null
                                ? topic(s.topic(), s.topic())
                                : topic("extracted:" + s.name(), "topic chosen per record")));
            }
            model.children(node.name()).forEach(child -> edges.add(id + " --> " + id("n", child)));
        }

        /** The id of a topic node, declared on first use. */
        private String topic(String key, String label) {
            String id = id("t", key);
            topics.putIfAbsent(id, label(label));
            return id;
        }

        /** A stable Mermaid id for a name of one kind; distinct names always get distinct ids. */
        private String id(String kind, String name) {
            return ids.computeIfAbsent(kind + ":" + name, k -> {
                String base = kind + "_" + name.replaceAll("[^A-Za-z0-9_]", "_");
                String id = base;
                for (int n = 2; !usedIds.add(id); n++) {
                    id = base + "_" + n;
                }
                return id;
            });
        }
    }

    /** Text safe inside a quoted Mermaid label: quotes and markup as entity codes. */
    static String label(String text) {
        return text.replace("#", "#35;")
                .replace("\"", "#quot;")
                .replace("<", "#lt;")
                .replace(">", "#gt;")
                .replace("\n", " ");
    }
}
