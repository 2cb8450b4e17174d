package io.weir.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.internal.topology.NodeSpec;
import io.weir.internal.topology.Subtopology;
import io.weir.internal.topology.TopologyModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopologyJsonTest {

    private final TopologyModel model = OpsTopologies.mixed();
    private final JsonNode json = parse(TopologyJson.render(model, OpsTopologies.APP));

    private static JsonNode parse(String text) {
        try {
            return new ObjectMapper().readTree(text);
        } catch (Exception e) {
            throw new AssertionError(text, e);
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.isNull() ? null : n.asText()));
        return out;
    }

    @Test
    void listsEverySubtopologyWithItsNodesInTheOrderTheyWereAdded() {
        assertThat(json.get("applicationId").asText()).isEqualTo("wc");
        assertThat(json.get("subtopologies")).hasSize(model.subtopologies().size()).hasSize(4);
        for (Subtopology st : model.subtopologies()) {
            JsonNode sub = json.get("subtopologies").get(st.id());
            assertThat(sub.get("id").asInt()).isEqualTo(st.id());
            List<String> expected = model.nodes().keySet().stream().filter(st.nodeNames()::contains).toList();
            List<String> names = new ArrayList<>();
            sub.get("nodes").forEach(n -> names.add(n.get("name").asText()));
            assertThat(names).containsExactlyElementsOf(expected);
            sub.get("nodes").forEach(n ->
                    assertThat(texts(n.get("children"))).containsExactlyElementsOf(model.children(n.get("name").asText())));
        }
    }

    @Test
    void describesSourcesProcessorsAndSinksByType() {
        for (JsonNode sub : json.get("subtopologies")) {
            for (JsonNode node : sub.get("nodes")) {
                NodeSpec spec = model.nodes().get(node.get("name").asText());
                switch (node.get("type").asText()) {
                    case "source" -> {
                        NodeSpec.Source s = (NodeSpec.Source) spec;
                        assertThat(texts(node.get("topics"))).isEqualTo(s.topics());
                        assertThat(node.get("internal").asBoolean()).isEqualTo(s.internal());
                        assertThat(texts(sub.get("sourceTopics"))).containsAll(s.topics());
                    }
                    case "processor" -> assertThat(texts(node.get("stores")))
                            .isEqualTo(((NodeSpec.Processing) spec).stores());
                    case "sink" -> assertThat(node.get("topic").asText()).isEqualTo(((NodeSpec.Sink) spec).topic());
                    default -> throw new AssertionError("unknown type in " + node);
                }
            }
        }
        JsonNode words = json.get("subtopologies").get(0);
        assertThat(texts(words.get("sourceTopics"))).containsExactly("lines");
        JsonNode pattern = json.get("subtopologies").get(2);
        assertThat(texts(pattern.get("sourcePatterns"))).containsExactly("metrics-.*");
        assertThat(pattern.get("nodes").get(0).get("pattern").asText()).isEqualTo("metrics-.*");
        assertThat(pattern.get("nodes").get(0).get("topics")).isEmpty();
    }

    @Test
    void describesStoresWithTheirChangelogTopics() {
        JsonNode stores = json.get("stores");
        assertThat(stores).hasSize(2);
        JsonNode counts = stores.get(0);
        assertThat(counts.get("name").asText()).isEqualTo("word-counts");
        assertThat(counts.get("kind").asText()).isEqualTo("key_value");
        assertThat(counts.get("persistent").asBoolean()).isTrue();
        assertThat(counts.get("logged").asBoolean()).isTrue();
        assertThat(counts.get("changelogTopic").asText()).isEqualTo("wc-word-counts-changelog");
        assertThat(counts.get("subtopology").asInt()).isEqualTo(1);
        JsonNode seen = stores.get(1);
        assertThat(seen.get("name").asText()).isEqualTo("seen.keys");
        assertThat(seen.get("persistent").asBoolean()).isFalse();
        assertThat(seen.get("logged").asBoolean()).isFalse();
        assertThat(seen.has("changelogTopic")).isFalse();
        assertThat(seen.get("subtopology").asInt()).isEqualTo(3);
    }

    @Test
    void listsTheRepartitionAndChangelogTopicsWeirOwns() {
        List<String> repartition = model.internalSources().stream().flatMap(s -> s.topics().stream()).toList();
        assertThat(repartition).hasSize(1).allMatch(t -> t.startsWith("wc-") && t.endsWith("-repartition"));
        List<Map.Entry<String, String>> topics = new ArrayList<>();
        json.get("internalTopics").forEach(t -> topics.add(Map.entry(t.get("name").asText(), t.get("kind").asText())));
        assertThat(topics).containsExactly(
                Map.entry(repartition.get(0), "repartition"),
                Map.entry("wc-word-counts-changelog", "changelog"));
        assertThat(json.get("internalTopics").get(0).get("subtopology").asInt()).isEqualTo(1);
        assertThat(json.get("internalTopics").get(1).get("store").asText()).isEqualTo("word-counts");
    }
}
