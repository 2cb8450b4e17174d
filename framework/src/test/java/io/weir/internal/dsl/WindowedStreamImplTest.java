package io.weir.internal.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.TopologyBuilder;
import io.weir.dsl.Emit;
import io.weir.dsl.SessionWindowedStream;
import io.weir.dsl.SessionWindows;
import io.weir.dsl.TimeWindows;
import io.weir.dsl.WindowedStream;
import io.weir.errors.TopologyException;
import io.weir.internal.topology.GraphBuilder;
import io.weir.internal.topology.NodeSpec;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.TopologyModel;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class WindowedStreamImplTest {

    private static final TimeWindows HOPPING = TimeWindows.of(Duration.ofMinutes(1))
            .advanceBy(Duration.ofSeconds(30))
            .allowedLateness(Duration.ofSeconds(10));
    private static final SessionWindows SESSIONS =
            SessionWindows.withInactivityGap(Duration.ofMinutes(30)).allowedLateness(Duration.ofMinutes(5));

    private static GraphBuilder graphWithSource() {
        GraphBuilder graph = new GraphBuilder();
        graph.addSource("in", List.of("readings"), null, Serdes.strings(), Serdes.integers());
        return graph;
    }

    private static GroupedStreamImpl<String, Integer> grouped(GraphBuilder graph, boolean repartition) {
        return new GroupedStreamImpl<>(graph, "in", Serdes.strings(), Serdes.integers(), repartition);
    }

    private static NodeSpec.Sink onlySink(TopologyModel model) {
        return model.nodes().values().stream()
                .filter(NodeSpec.Sink.class::isInstance)
                .map(NodeSpec.Sink.class::cast)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void timeWindowsAddAWindowStoreKeptForTheLatenessAndAnAggregateNodeWhoseOutputNeedsNoSerdes() {
        GraphBuilder graph = graphWithSource();
        grouped(graph, false).windowedBy(HOPPING).count("counts").to("out");
        TopologyModel model = graph.build();

        StoreSpec store = model.stores().get("counts");
        assertThat(store.kind()).isEqualTo(StoreSpec.Kind.WINDOW);
        assertThat(store.windowSizeMs()).isEqualTo(60_000);
        assertThat(store.retention()).isEqualTo(Duration.ofSeconds(10));
        assertThat(store.persistent()).isTrue();
        assertThat(store.logged()).isTrue();
        assertThat(model.nodes().get("counts-aggregate").parents()).containsExactly("in");
        assertThat(((NodeSpec.Processing) model.nodes().get("counts-aggregate")).stores())
                .containsExactly("counts");
        NodeSpec.Sink sink = onlySink(model);
        @SuppressWarnings("unchecked")
        Serde<Windowed<String>> keys = (Serde<Windowed<String>>) sink.keySerde();
        Windowed<String> key = new Windowed<>("sensor-1", 0, 60_000);
        assertThat(keys.deserialize("out", keys.serialize("out", key))).isEqualTo(key);
        assertThat(sink.valueSerde()).isSameAs(Serdes.longs());
    }

    @Test
    void sessionsAddASessionStoreKeptWhileASessionCanStillJoinARecordOrFireAndAStoreOfTheLastClosedOnes() {
        GraphBuilder graph = graphWithSource();
        grouped(graph, false)
                .windowedBy(SESSIONS)
                .reduce(Integer::sum, "visits")
                .to("out");
        TopologyModel model = graph.build();

        StoreSpec store = model.stores().get("visits");
        assertThat(store.kind()).isEqualTo(StoreSpec.Kind.SESSION);
        assertThat(store.retention()).as("gap + lateness").isEqualTo(Duration.ofMinutes(35));
        StoreSpec lastClosed = model.stores().get("visits-last-closed");
        assertThat(lastClosed.kind()).isEqualTo(StoreSpec.Kind.KEY_VALUE);
        assertThat(lastClosed.logged()).isTrue();
        assertThat(lastClosed.persistent()).isTrue();
        assertThat(lastClosed.ttl()).as("never expires").isNull();
        assertThat(lastClosed.valueSerde().formatId()).isEqualTo("closed-session");
        assertThat(((NodeSpec.Processing) model.nodes().get("visits-aggregate")).stores())
                .containsExactly("visits", "visits-last-closed");
        assertThat(onlySink(model).valueSerde()).isSameAs(Serdes.integers());
    }

    @Test
    void repartitionsThroughATopicNamedAfterTheStoreWhenTheKeyChanged() {
        GraphBuilder graph = graphWithSource();
        grouped(graph, true).windowedBy(HOPPING).reduce(Integer::sum, "sums");
        grouped(graph, true)
                .windowedBy(SESSIONS)
                .aggregate(() -> 0L, (k, v, a) -> a + v, (k, a, b) -> a + b, Serdes.longs(), "sessions");
        TopologyModel model = graph.build();
        assertThat(model.nodes())
                .containsKeys(
                        "sums-repartition-sink",
                        "sums-repartition-source",
                        "sessions-repartition-sink",
                        "sessions-repartition-source");
        assertThat(model.nodes().get("sums-aggregate").parents()).containsExactly("sums-repartition-source");
        assertThat(model.nodes().get("sessions-aggregate").parents()).containsExactly("sessions-repartition-source");
    }

    @Test
    void emitReturnsACopyAndLeavesTheOriginalTrigger() {
        GroupedStreamImpl<String, Integer> grouped = grouped(graphWithSource(), false);
        WindowedStream<String, Integer> windowed = grouped.windowedBy(HOPPING);
        assertThat(windowed.emit(Emit.onWindowClose())).isNotSameAs(windowed);
        SessionWindowedStream<String, Integer> sessions = grouped.windowedBy(SESSIONS);
        assertThat(sessions.emit(Emit.everyUpdate())).isNotSameAs(sessions);
        assertThatThrownBy(() -> windowed.emit(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void missingSerdesAreAnErrorNamingTheStore() {
        GraphBuilder graph = graphWithSource();
        GroupedStreamImpl<String, Integer> noValueSerde =
                new GroupedStreamImpl<>(graph, "in", Serdes.strings(), null, false);
        assertThatThrownBy(() -> noValueSerde.windowedBy(HOPPING).reduce(Integer::sum, "sums"))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("'sums'");
        assertThatThrownBy(() -> noValueSerde.windowedBy(SESSIONS).reduce(Integer::sum, "visits"))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("'visits'");
        GroupedStreamImpl<String, Integer> noKeySerde =
                new GroupedStreamImpl<>(graph, "in", null, Serdes.integers(), false);
        assertThatThrownBy(() -> noKeySerde.windowedBy(HOPPING).count("counts"))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("'counts'");
    }

    @Test
    void isReachedFromTheDsl() {
        TopologyBuilder b = new TopologyBuilder();
        var grouped = b.stream(Serdes.strings(), Serdes.integers(), "readings").groupByKey();
        grouped.windowedBy(HOPPING).emit(Emit.onWindowClose()).count("sums").to("sums-out");
        grouped.windowedBy(SESSIONS).emit(Emit.earlyEvery(10)).count("visits").to("visits-out");
        String described = b.build().describe();
        assertThat(described).contains("sums-aggregate").contains("visits-aggregate");
    }
}
