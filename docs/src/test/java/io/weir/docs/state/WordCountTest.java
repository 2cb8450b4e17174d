package io.weir.docs.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** docs/state.md: an aggregation, its store and its repartition topic. */
class WordCountTest {

    static Topology topology() {
        TopologyBuilder b = new TopologyBuilder();
        // tag::word-count[]
        b.stream(Serdes.strings(), Serdes.strings(), "lines")
                .flatMapValues(line -> Arrays.asList(line.toLowerCase().split("\\W+")))
                .groupBy((k, word) -> word, Serdes.strings(), Serdes.strings()) // repartition by word
                .count("word-counts") // a table in a store
                .toStream()
                .to("word-counts", Serdes.strings(), Serdes.longs());
        // end::word-count[]
        return b.build();
    }

    @Test
    void countsEveryWordInItsStore() {
        try (TestDriver driver =
                TestDriver.builder(topology()).partitions("lines", 3).build()) {
            driver.pipe("lines", "l1", "The fox and the dog", 1_000);
            driver.pipe("lines", "l2", "the end", 2_000);

            assertThat(driver.<String, Long>store("word-counts").get("the")).isEqualTo(3L);
            assertThat(driver.<String, Long>store("word-counts").get("fox")).isEqualTo(1L);
        }
    }
}
