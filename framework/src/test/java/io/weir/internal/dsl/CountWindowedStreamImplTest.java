package io.weir.internal.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.TopologyBuilder;
import io.weir.dsl.CountWindows;
import io.weir.dsl.RecordStream;
import io.weir.errors.TopologyException;
import io.weir.internal.topology.GraphBuilder;
import io.weir.internal.topology.NodeSpec;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.TopologyModel;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import java.util.List;
import org.junit.jupiter.api.Test;

class CountWindowedStreamImplTest {

    private static GraphBuilder graphWithSource() {
        GraphBuilder graph = new GraphBuilder();
        graph.addSource("in", List.of("readings"), null, Serdes.strings(), Serdes.strings());
        return graph;
    }

    @Test
    void addsAChangeloggedStoreAndAnAggregateNodeWhoseOutputHasWindowedKeys() {
        GraphBuilder graph = graphWithSource();
        RecordStream<Windowed<String>, Long> counts = new CountWindowedStreamImpl<>(
                        new GroupedStreamImpl<>(graph, "in", Serdes.strings(), Serdes.strings(), false),
                        CountWindows.of(3))
                .count("counts");
        counts.to("out");
        TopologyModel model = graph.build();

        StoreSpec store = model.stores().get("counts");
        assertThat(store.kind()).isEqualTo(StoreSpec.Kind.KEY_VALUE);
        assertThat(store.logged()).isTrue();
        assertThat(model.nodes().get("counts-aggregate").parents()).containsExactly("in");
        assertThat(((NodeSpec.Processing) model.nodes().get("counts-aggregate")).stores())
                .containsExactly("counts");
        NodeSpec.Sink sink = model.nodes().values().stream()
                .filter(NodeSpec.Sink.class::isInstance)
                .map(NodeSpec.Sink.class::cast)
                .findFirst()
                .orElseThrow();
        @SuppressWarnings("unchecked")
        Serde<Windowed<String>> keys = (Serde<Windowed<String>>) sink.keySerde();
        Windowed<String> key = new Windowed<>("k", 1, 5);
        assertThat(keys.deserialize("out", keys.serialize("out", key))).isEqualTo(key);
        assertThat(sink.valueSerde()).isSameAs(Serdes.longs());
    }

    @Test
    void repartitionsThroughATopicNamedAfterTheStoreWhenTheKeyChanged() {
        GraphBuilder graph = graphWithSource();
        new CountWindowedStreamImpl<>(
                        new GroupedStreamImpl<>(graph, "in", Serdes.strings(), Serdes.strings(), true),
                        CountWindows.of(3))
                .reduce((a, b) -> a + b, "joined");
        TopologyModel model = graph.build();
        assertThat(model.nodes()).containsKeys("joined-repartition-sink", "joined-repartition-source");
        assertThat(model.nodes().get("joined-aggregate").parents()).containsExactly("joined-repartition-source");
    }

    @Test
    void isReachedFromTheDsl() {
        TopologyBuilder b = new TopologyBuilder();
        var windowed = b.stream(Serdes.strings(), Serdes.strings(), "readings")
                .groupByKey()
                .windowedBy(CountWindows.of(3).slideBy(1));
        windowed.aggregate(() -> 0L, (k, v, sum) -> sum + v.length(), Serdes.longs(), "lengths")
                .to("out");
        assertThat(b.build().describe()).contains("lengths-aggregate");
    }

    @Test
    void withoutAKeySerdeItIsAnErrorNamingTheStore() {
        GraphBuilder graph = graphWithSource();
        assertThatThrownBy(() -> new CountWindowedStreamImpl<>(
                                new GroupedStreamImpl<String, String>(graph, "in", null, Serdes.strings(), false),
                                CountWindows.of(3))
                        .count("counts"))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("'counts'");
    }

    @Test
    void reduceWithoutAValueSerdeIsAnErrorNamingTheStore() {
        GraphBuilder graph = graphWithSource();
        assertThatThrownBy(() -> new CountWindowedStreamImpl<>(
                                new GroupedStreamImpl<String, String>(graph, "in", Serdes.strings(), null, false),
                                CountWindows.of(3))
                        .reduce((a, b) -> a + b, "joined"))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("'joined'");
    }
}
