package io.weir.cli;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.config.WeirConfig;
import io.weir.dsl.GroupedStream;
import io.weir.serde.Serdes;
import io.weir.testing.TestApps;
import io.weir.testkit.KafkaExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The word counts of {@link ReplayIT} and {@link SavepointCommandsIT}: the topologies' common
 * parts (the CLI loads them by class name, so their topics come from system properties), the lines
 * they count, the counts a model expects, and an instance on the test's broker.
 */
final class WordCounts {

    private WordCounts() {}

    /** The words of the lines in the topic named by system property {@code inputProperty}, grouped by word. */
    static GroupedStream<String, String> wordsOf(TopologyBuilder b, String inputProperty) {
        return b.stream(Serdes.strings(), Serdes.strings(), System.getProperty(inputProperty))
                .flatMapValues(line -> List.of(line.split(" ")))
                .groupBy((k, word) -> word, Serdes.strings(), Serdes.strings());
    }

    /** A count per word in {@code store}, each new count to the topic named by {@code outputProperty}. */
    static Topology counting(String inputProperty, String store, String outputProperty) {
        TopologyBuilder b = new TopologyBuilder();
        wordsOf(b, inputProperty)
                .count(store)
                .toStream()
                .to(System.getProperty(outputProperty), Serdes.strings(), Serdes.longs());
        return b.build();
    }

    /** Lines {@code from} to {@code to} (excluded): {@code w<i % words> v<i % 7> common}. */
    static List<String> lines(int from, int to, int words) {
        List<String> lines = new ArrayList<>();
        for (int i = from; i < to; i++) {
            lines.add("w" + (i % words) + " v" + (i % 7) + " common");
        }
        return lines;
    }

    /** The count of every word in {@code lines}. */
    static Map<String, Long> counts(List<String> lines) {
        Map<String, Long> m = new TreeMap<>();
        lines.forEach(l -> List.of(l.split(" ")).forEach(w -> m.merge(w, 1L, Long::sum)));
        return m;
    }

    /** The lines as records of distinct keys. */
    static void produce(KafkaExtension kafka, String topic, List<String> lines) {
        List<KeyValue<String, String>> records = new ArrayList<>();
        lines.forEach(l -> records.add(KeyValue.of("k" + records.size(), l)));
        kafka.client().produceStrings(topic, records);
    }

    /** An instance of {@code version} as application {@code app}, without HTTP. */
    static WeirApp start(KafkaExtension kafka, Supplier<Topology> version, String app) {
        WeirConfig config = TestApps.config(kafka.bootstrapServers(), app)
                .set("http.port", -1)
                .build();
        return TestApps.start(version.get(), config);
    }
}
