package io.weir.internal.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.TopologyBuilder;
import io.weir.TopologyModels;
import io.weir.internal.topology.TopologyRecord.Level;
import io.weir.internal.topology.TopologyRecord.Outcome;
import io.weir.processor.Stores;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a start-up says about a change of topology: {@link TopologyRecord#judge}. */
class TopologyRecordTest {

    private static TopologyDescription totals(Serde<?> values, boolean filter, boolean withStore) {
        TopologyBuilder b = new TopologyBuilder();
        var s = b.stream(Serdes.strings(), Serdes.strings(), "in");
        if (filter) {
            s = s.filter((k, v) -> v != null);
        }
        s.to("out");
        if (withStore) {
            @SuppressWarnings("unchecked")
            Serde<Object> v = (Serde<Object>) values;
            b.addSource("amounts", Serdes.strings(), Serdes.strings(), "amounts")
                    .addProcessor("sum", () -> record -> {}, List.of("amounts"), List.of())
                    .addStateStore(Stores.keyValueStore("totals", Serdes.strings(), v), "sum");
        }
        return TopologyDescription.of(TopologyModels.resolved(b.build(), "app"), "app", "1.0");
    }

    @Test
    void firstStartAndUnchangedTopologyAreSilent() {
        TopologyDescription v1 = totals(Serdes.longs(), false, true);
        assertThat(TopologyRecord.judge("app", null, v1).level()).isEqualTo(Level.SILENT);
        assertThat(TopologyRecord.judge("app", v1, totals(Serdes.longs(), false, true))
                        .level())
                .isEqualTo(Level.SILENT);
    }

    @Test
    void aSafeChangeIsOneInfoLineListingTheChanges() {
        Outcome o =
                TopologyRecord.judge("app", totals(Serdes.longs(), false, true), totals(Serdes.longs(), true, true));
        assertThat(o.level()).isEqualTo(Level.INFO);
        assertThat(o.message())
                .startsWith(
                        "app: the topology changed since the recorded version; safe for a rolling" + " upgrade: node ")
                .doesNotContain("\n");
    }

    @Test
    void aRemovedStoreIsAWarningThatNamesItAndTheWaysOut() {
        Outcome o =
                TopologyRecord.judge("app", totals(Serdes.longs(), false, true), totals(Serdes.longs(), false, false));
        assertThat(o.level()).isEqualTo(Level.WARN);
        assertThat(o.message())
                .contains("store totals was removed", "--allow-dropped-state", "weir reset", "starting anyway")
                .doesNotContain("\n");
    }

    @Test
    void aStoreWhoseKeptStateTheNewSerdeCannotReadFailsTheStart() {
        Outcome o =
                TopologyRecord.judge("app", totals(Serdes.longs(), false, true), totals(Serdes.strings(), false, true));
        assertThat(o.level()).isEqualTo(Level.FAIL);
        assertThat(o.message())
                .startsWith("app cannot start: the state of store(s) [totals] cannot be read")
                .contains("value format (long -> string)", "weir reset", "--allow-dropped-state", "formatId()");
    }
}
