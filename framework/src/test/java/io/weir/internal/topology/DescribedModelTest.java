package io.weir.internal.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.TopologyBuilder;
import io.weir.dsl.JoinWindows;
import io.weir.dsl.SessionWindows;
import io.weir.dsl.TimeWindows;
import io.weir.processor.Stores;
import io.weir.serde.Serdes;
import io.weir.testing.WordCount;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A topology rebuilt from its description describes itself exactly as the original: same
 * sub-topologies, nodes, edges, topics and stores. That is what makes a restore or a diff from
 * {@code --topology-file} the same as one from the application's class.
 */
class DescribedModelTest {

    static List<Consumer<TopologyBuilder>> topologies() {
        return List.of(
                b -> WordCount.addTo(b, "counts"),
                b -> b.stream(Serdes.strings(), Serdes.strings(), "clicks")
                        .groupByKey()
                        .windowedBy(TimeWindows.of(Duration.ofMinutes(1)))
                        .count("per-minute"),
                b -> b.stream(Serdes.strings(), Serdes.strings(), "clicks")
                        .groupByKey()
                        .windowedBy(SessionWindows.withInactivityGap(Duration.ofMinutes(5)))
                        .count("sessions"),
                b -> b.stream(Serdes.strings(), Serdes.strings(), "orders")
                        .join(b.table(Serdes.strings(), Serdes.strings(), "customers", "customers"), (o, c) -> o + c)
                        .to("enriched", Serdes.strings(), Serdes.strings()),
                b -> b.stream(Serdes.strings(), Serdes.strings(), "orders")
                        .join(
                                b.globalTable(Serdes.strings(), Serdes.strings(), "products", "products"),
                                (k, v) -> v,
                                (o, p) -> o + p)
                        .to("priced", Serdes.strings(), Serdes.strings()),
                b -> b.stream(Serdes.strings(), Serdes.strings(), "left")
                        .join(
                                b.stream(Serdes.strings(), Serdes.strings(), "right"),
                                (l, r) -> l + r,
                                JoinWindows.of(Duration.ofSeconds(10)),
                                "pairs")
                        .to("joined", Serdes.strings(), Serdes.strings()),
                b -> b.stream(Serdes.strings(), Serdes.strings(), Pattern.compile("events-.*"))
                        .filter((k, v) -> v != null)
                        .to("all-events", Serdes.strings(), Serdes.strings()),
                b -> b.addSource("in", Serdes.strings(), Serdes.strings(), "input")
                        .addProcessor("totals", () -> record -> {}, List.of("in"), List.of())
                        .addStateStore(
                                Stores.keyValueStore("totals", Serdes.strings(), Serdes.longs())
                                        .withTtl(Duration.ofHours(1)),
                                "totals")
                        .addSink("out", "output", Serdes.strings(), Serdes.longs(), "totals"));
    }

    @ParameterizedTest
    @MethodSource("topologies")
    void aRebuiltTopologyDescribesItselfAsTheOriginal(Consumer<TopologyBuilder> topology) {
        TopologyDescription d = TopologyDiffTest.describe(topology);
        TopologyDescription read = TopologyDescription.parse(d.toJson());
        TopologyModel rebuilt = DescribedModel.of(read, d.applicationId());
        assertThat(TopologyDescription.of(rebuilt, d.applicationId(), d.weirVersion()))
                .isEqualTo(d);
    }

    @Test
    void itsRepartitionTopicsAreRenamedForAnotherApplication() {
        TopologyDescription d = TopologyDiffTest.describe(topologies().get(0));
        TopologyModel forked = DescribedModel.of(d, "wc-v2");
        assertThat(forked.internalSources())
                .flatExtracting(NodeSpec.Source::topics)
                .containsExactly("wc-v2-word-counts-repartition");
        assertThat(forked.stores().get("word-counts").changelogTopic("wc-v2")).isEqualTo("wc-v2-word-counts-changelog");
        assertThat(forked.sourceTopics()).containsExactly("lines");
        assertThat(forked.stores().get("word-counts").valueSerde().formatId()).isEqualTo("long");
    }

    @Test
    void itCannotRun() {
        TopologyModel m =
                DescribedModel.of(TopologyDiffTest.describe(topologies().get(0)), "wc");
        NodeSpec.Processing p = (NodeSpec.Processing) m.nodes().values().stream()
                .filter(n -> n instanceof NodeSpec.Processing)
                .findFirst()
                .orElseThrow();
        assertThatThrownBy(() -> p.supplier().get())
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("has no code");
        assertThatThrownBy(() -> m.stores().get("word-counts").keySerde().serialize("t", null))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aDescriptionWithoutItsGraphIsRefusedWithTheWayOut() {
        String old = """
                {"descriptionVersion": 1, "weirVersion": "0.0.9", "applicationId": "wc",
                 "subtopologies": [{"id": 0, "sourceTopics": ["lines"], "sourcePatterns": [],
                   "repartitionTopicsRead": [], "repartitionTopicsWritten": [], "sinkTopics": [],
                   "nodes": ["source-0"]}],
                 "stores": []}
                """;
        assertThatThrownBy(() -> DescribedModel.of(TopologyDescription.parse(old), "wc"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has no graph")
                .hasMessageContaining("run.mode=describe");
    }
}
