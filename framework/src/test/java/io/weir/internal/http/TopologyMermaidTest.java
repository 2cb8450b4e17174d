package io.weir.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.TopologyBuilder;
import io.weir.TopologyModels;
import io.weir.internal.topology.NodeSpec;
import io.weir.internal.topology.TopologyModel;
import io.weir.serde.Serdes;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class TopologyMermaidTest {

    private static final Pattern DECLARATION = Pattern.compile("^\\s*([A-Za-z0-9_]+)(\\[\\(|\\(\\[|\\[)\"([^\"]*)\"");
    private static final Pattern EDGE = Pattern.compile("^\\s*([A-Za-z0-9_]+) (-->|-\\.-) ([A-Za-z0-9_]+)$");

    private final TopologyModel model = OpsTopologies.mixed();
    private final String mermaid = TopologyMermaid.render(model);
    private final List<String> lines = mermaid.lines().toList();

    @Test
    void drawsOneSubgraphPerSubtopology() {
        assertThat(lines.get(0)).isEqualTo("graph TD");
        assertThat(lines.stream().filter(l -> l.trim().startsWith("subgraph ")))
                .hasSize(model.subtopologies().size());
        assertThat(lines.stream().filter(l -> l.trim().equals("end")))
                .hasSize(model.subtopologies().size());
    }

    @Test
    void declaresEveryNodeTopicAndStoreOnce() {
        Set<String> labels = new HashSet<>();
        Set<String> ids = new HashSet<>();
        for (String line : lines) {
            Matcher m = DECLARATION.matcher(line);
            if (m.find()) {
                assertThat(ids.add(m.group(1))).as("declared once: %s", line).isTrue();
                labels.add(m.group(3));
            }
        }
        assertThat(labels).containsAll(model.nodes().keySet());
        assertThat(labels).containsAll(model.stores().keySet());
        assertThat(labels).contains("lines", "counts", "all-metrics", "audit", "audited", "/metrics-.*/");
        model.internalSources().forEach(s -> assertThat(labels).containsAll(s.topics()));
        assertThat(mermaid).contains("[(\"word-counts\")]").contains("[(\"seen.keys\")]");
    }

    @Test
    void everyEdgeJoinsDeclaredIdsAndEveryParentChildPairHasOne() {
        Set<String> declared = new HashSet<>();
        lines.forEach(l -> {
            Matcher m = DECLARATION.matcher(l);
            if (m.find()) {
                declared.add(m.group(1));
            }
        });
        long edges = 0;
        for (String line : lines) {
            Matcher m = EDGE.matcher(line);
            if (m.matches()) {
                edges++;
                assertThat(declared).contains(m.group(1), m.group(3));
            }
        }
        long parentEdges = model.nodes().values().stream()
                .mapToLong(n -> n.parents().size())
                .sum();
        long topicEdges = model.nodes().values().stream()
                .filter(n -> !(n instanceof NodeSpec.Processing))
                .count();
        long storeEdges = model.nodes().values().stream()
                .filter(n -> n instanceof NodeSpec.Processing)
                .mapToLong(n -> ((NodeSpec.Processing) n).stores().size())
                .sum();
        assertThat(edges).isEqualTo(parentEdges + topicEdges + storeEdges);
        assertThat(mermaid).contains("n_audit_log_v2 --> n_audit_out").contains("n_audit_log_v2 -.- s_seen_keys");
    }

    @Test
    void sanitizesIdsWithoutCollisionsAndEscapesLabels() {
        assertThat(lines).allSatisfy(l -> assertThat(l).doesNotContain("n_audit log"));
        assertThat(mermaid).contains("n_audit_in[\"audit.in\"]");
        TopologyBuilder b = new TopologyBuilder();
        b.addSource("in", Serdes.strings(), Serdes.strings(), "in")
                .addProcessor("a-b", () -> r -> {}, "in")
                .addProcessor("a.b", () -> r -> {}, "in")
                .addProcessor("a b", () -> r -> {}, "in");
        String drawn = TopologyMermaid.render(TopologyModels.resolved(b.build(), "app"));
        assertThat(drawn)
                .contains(
                        "n_a_b[\"a-b\"]",
                        "n_a_b_2[\"a.b\"]",
                        "n_a_b_3[\"a b\"]",
                        "n_in --> n_a_b\n",
                        "n_in --> n_a_b_2\n",
                        "n_in --> n_a_b_3\n");
        assertThat(TopologyMermaid.label("a \"b\" <c> #1")).isEqualTo("a #quot;b#quot; #lt;c#gt; #35;1");
    }

    @Test
    void aRepartitionTopicOfFixedCountIsLabelledWithIt() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .repartition(io.weir.dsl.Repartitioned.<String, String>named("by-key")
                        .withPartitions(6))
                .to("out");
        String drawn = TopologyMermaid.render(TopologyModels.resolved(b.build(), "app"));
        assertThat(drawn).contains("t_app_by_key_repartition([\"app-by-key-repartition (6 partitions)\"])");
    }
}
