package io.weir.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.TopologyBuilder;
import io.weir.TopologyModels;
import io.weir.internal.config.WeirVersion;
import io.weir.internal.topology.NodeSpec;
import io.weir.internal.topology.Subtopology;
import io.weir.internal.topology.TopologyDescription;
import io.weir.internal.topology.TopologyModel;
import io.weir.serde.Serdes;
import io.weir.testkit.HttpProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The topology's one JSON document, as {@code GET /topology} answers it and the topology record holds it. */
class TopologyJsonTest {

    private final TopologyModel model = OpsTopologies.mixed();
    private final TopologyDescription description = TopologyDescription.of(model, OpsTopologies.APP, "0.1.0");
    private final JsonNode json = parse(description.toJson());

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
    void theEndpointTheRecordAndTheCommandLineShowTheSameDocument() {
        FakeView view = new FakeView();
        view.topology = () -> model;
        String served;
        try (OpsHttpServer server = OpsHttpServer.start("127.0.0.1", 0, view)) {
            served = HttpProbe.localhost(server.port()).get("/topology").body();
        }
        // What TopologyRecord writes, and what weir topology show prints of it once read back.
        String recorded = TopologyDescription.of(model, view.info().applicationId(), WeirVersion.current())
                .toJson();
        String shown = TopologyDescription.parse(recorded).toJson();

        assertThat(served).isEqualTo(recorded).isEqualTo(shown);
        assertThat(parse(served).get("applicationId").asText())
                .isEqualTo(view.info().applicationId());
    }

    @Test
    void listsEverySubtopologyWithItsNodesInTheOrderTheyWereAdded() {
        assertThat(json.get("descriptionVersion").asInt()).isEqualTo(TopologyDescription.CURRENT_VERSION);
        assertThat(json.get("weirVersion").asText()).isEqualTo("0.1.0");
        assertThat(json.get("applicationId").asText()).isEqualTo("wc");
        assertThat(json.get("subtopologies"))
                .hasSize(model.subtopologies().size())
                .hasSize(4);
        for (Subtopology st : model.subtopologies()) {
            JsonNode sub = json.get("subtopologies").get(st.id());
            assertThat(sub.get("id").asInt()).isEqualTo(st.id());
            List<String> expected = model.nodes().keySet().stream()
                    .filter(st.nodeNames()::contains)
                    .toList();
            assertThat(texts(sub.get("nodes"))).containsExactlyElementsOf(expected);
            List<String> names = new ArrayList<>();
            sub.get("graph").forEach(n -> names.add(n.get("name").asText()));
            assertThat(names).containsExactlyElementsOf(expected);
            sub.get("graph")
                    .forEach(n -> assertThat(texts(n.get("children")))
                            .containsExactlyElementsOf(
                                    model.children(n.get("name").asText())));
        }
    }

    @Test
    void describesSourcesProcessorsAndSinksByType() {
        for (JsonNode sub : json.get("subtopologies")) {
            for (JsonNode node : sub.get("graph")) {
                NodeSpec spec = model.nodes().get(node.get("name").asText());
                switch (node.get("type").asText()) {
                    case "source" -> {
                        NodeSpec.Source s = (NodeSpec.Source) spec;
                        assertThat(texts(node.get("topics"))).isEqualTo(s.topics());
                        assertThat(node.get("internal").asBoolean()).isEqualTo(s.internal());
                        assertThat(texts(sub.get(s.internal() ? "repartitionTopicsRead" : "sourceTopics")))
                                .containsAll(s.topics());
                        assertThat(node.has("stores")).isFalse();
                    }
                    case "processor" -> {
                        assertThat(texts(node.get("stores"))).isEqualTo(((NodeSpec.Processing) spec).stores());
                        assertThat(node.has("topic") || node.has("topics") || node.has("internal"))
                                .isFalse();
                    }
                    case "sink" -> {
                        NodeSpec.Sink s = (NodeSpec.Sink) spec;
                        assertThat(node.get("topic").asText()).isEqualTo(s.topic());
                        assertThat(texts(sub.get(s.internal() ? "repartitionTopicsWritten" : "sinkTopics")))
                                .contains(s.topic());
                    }
                    default -> throw new AssertionError("unknown type in " + node);
                }
            }
        }
        JsonNode words = json.get("subtopologies").get(0);
        assertThat(texts(words.get("sourceTopics"))).containsExactly("lines");
        JsonNode pattern = json.get("subtopologies").get(2);
        assertThat(texts(pattern.get("sourcePatterns"))).containsExactly("metrics-.*");
        assertThat(pattern.get("graph").get(0).get("pattern").asText()).isEqualTo("metrics-.*");
        assertThat(pattern.get("graph").get(0).get("topics")).isEmpty();
    }

    @Test
    void aSinkWhoseTopicIsChosenPerRecordHasNoTopic() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "readings").to(r -> "readings-" + r.key());
        JsonNode sub = TopologyDescription.of(TopologyModels.resolved(b.build(), "app"), "app", "0.1.0")
                .toJsonTree()
                .get("subtopologies")
                .get(0);
        JsonNode sink = sub.get("graph").get(1);
        assertThat(sink.get("type").asText()).isEqualTo("sink");
        assertThat(sink.has("topic")).isFalse();
        assertThat(sink.get("internal").asBoolean()).isFalse();
        assertThat(sub.get("sinkTopics")).isEmpty();
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
        List<String> repartition = model.internalSources().stream()
                .flatMap(s -> s.topics().stream())
                .toList();
        assertThat(repartition).hasSize(1).allMatch(t -> t.startsWith("wc-") && t.endsWith("-repartition"));
        List<Map.Entry<String, String>> topics = new ArrayList<>();
        json.get("internalTopics")
                .forEach(t -> topics.add(
                        Map.entry(t.get("name").asText(), t.get("kind").asText())));
        assertThat(topics)
                .containsExactly(
                        Map.entry(repartition.get(0), "repartition"),
                        Map.entry("wc-word-counts-changelog", "changelog"));
        assertThat(json.get("internalTopics").get(0).get("subtopology").asInt()).isEqualTo(1);
        assertThat(json.get("internalTopics").get(0).has("store")).isFalse();
        assertThat(json.get("internalTopics").get(1).get("store").asText()).isEqualTo("word-counts");
        assertThat(json.get("internalTopics").get(1).get("subtopology").asInt()).isEqualTo(1);
    }

    @Test
    void readsBackWhatItWrote() {
        assertThat(TopologyDescription.parse(description.toJson())).isEqualTo(description);
        assertThat(TopologyDescription.parse(description.toJson()).toJsonTree()).isEqualTo(json);
    }
}
