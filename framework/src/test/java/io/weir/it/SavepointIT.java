package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.TopologyModels;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.config.WeirConfig;
import io.weir.internal.savepoint.Manifest;
import io.weir.internal.savepoint.SavepointCatalog;
import io.weir.internal.savepoint.SavepointRequest;
import io.weir.internal.savepoint.SavepointRestore;
import io.weir.serde.Serdes;
import io.weir.testing.TestApps;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Savepoints of a repartitioning topology (word count: split, repartition by word, count) against
 * a real broker: taken while input flows, restored into a new application with another number of
 * instances, the counts come out exact (the cut drained the repartition topic, so nothing in flight
 * was lost or doubled).
 */
class SavepointIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration CATCH_UP = Duration.ofMinutes(1);

    static Topology wordCount(String input, String output) {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .flatMapValues(line -> List.of(line.split(" ")))
                .groupBy((k, word) -> word, Serdes.strings(), Serdes.strings())
                .count("word-counts")
                .toStream()
                .to(output, Serdes.strings(), Serdes.longs());
        return b.build();
    }

    static Map<String, Long> model(List<String> lines) {
        Map<String, Long> m = new TreeMap<>();
        for (String line : lines) {
            for (String w : line.split(" ")) {
                m.merge(w, 1L, Long::sum);
            }
        }
        return m;
    }

    static List<String> lines(int from, int to) {
        List<String> lines = new ArrayList<>();
        for (int i = from; i < to; i++) {
            lines.add("w" + (i % 50) + " v" + (i % 7) + " common");
        }
        return lines;
    }

    static void produce(String topic, List<String> lines) {
        List<KeyValue<String, String>> records = new ArrayList<>();
        for (String l : lines) {
            records.add(KeyValue.of("k" + records.size(), l));
        }
        KAFKA.client().produceStrings(topic, records);
    }

    @Test
    void aSavepointTakenWhileInputFlowsForksIntoANewApplicationWithOtherInstancesExactly() throws Exception {
        String input = KAFKA.uniqueTopic("sp-lines", 3);
        String out1 = KAFKA.uniqueTopic("sp-v1", 3);
        String out2 = KAFKA.uniqueTopic("sp-fork", 3);
        String v1 = "sp-v1-" + input;
        String fork = "sp-fork-" + input;
        List<String> all = lines(0, 4000);
        produce(input, all.subList(0, 1500));
        WeirConfig v1Config =
                TestApps.config(KAFKA.bootstrapServers(), v1).instanceId("one").build();

        Manifest manifest;
        try (WeirApp app = TestApps.start(wordCount(input, out1), v1Config)) {
            KAFKA.client().readUntil(out1, r -> !r.isEmpty(), CATCH_UP);
            CompletableFuture<Void> flowing = CompletableFuture.runAsync(() -> {
                for (int i = 1500; i < all.size(); i += 100) {
                    produce(input, all.subList(i, i + 100));
                }
            });
            manifest = new SavepointRequest(v1Config, System.out::println)
                    .take(SavepointRequest.newId(), false, Duration.ofSeconds(60), null);
            flowing.get();
            Map<String, Long> expected = model(all);
            KAFKA.client().readUntil(out1, r -> Records.lastLongPerKey(r).equals(expected), CATCH_UP);
        }
        assertThat(manifest.tasks()).as("tasks of both sub-topologies").hasSize(6);
        assertThat(manifest.records()).as("words counted at the cut").isPositive();
        assertThat(new SavepointCatalog(v1Config).list())
                .extracting(Manifest::id)
                .containsExactly(manifest.id());

        WeirConfig.Builder forkConfig = TestApps.config(KAFKA.bootstrapServers(), fork);
        Topology forkTopology = wordCount(input, out2);
        SavepointRestore.Result restored = new SavepointRestore(
                        forkConfig.build(), TopologyModels.resolved(forkTopology, fork), System.out::println)
                .restore(new SavepointCatalog(v1Config), manifest, new SavepointRestore.Options(false, Map.of()));
        assertThat(restored.entries()).isEqualTo(manifest.records());

        // Every word once more, so every count shows up in the fork's output.
        List<String> last = List.of(String.join(" ", model(all).keySet()));
        produce(input, last);
        List<String> everything = new ArrayList<>(all);
        everything.addAll(last);
        Map<String, Long> expected = model(everything);
        try (WeirApp a = TestApps.start(
                        forkTopology,
                        TestApps.config(KAFKA.bootstrapServers(), fork)
                                .instanceId("a")
                                .build());
                WeirApp b = TestApps.start(
                        forkTopology,
                        TestApps.config(KAFKA.bootstrapServers(), fork)
                                .instanceId("b")
                                .build())) {
            KAFKA.client().readUntil(out2, r -> Records.lastLongPerKey(r).equals(expected), CATCH_UP);
        }
    }
}
