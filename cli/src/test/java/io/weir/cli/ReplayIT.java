package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.config.WeirConfig;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Replay after a code change, end to end with the CLI: v1 of a word count runs while input flows;
 * {@code weir savepoint create} takes a savepoint of it; {@code weir savepoint restore} loads it
 * into v2 (a changed aggregation) as a new application writing to a shadow topic; {@code weir diff}
 * shows exactly the keys the change affects; v1's output is untouched.
 */
class ReplayIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration CATCH_UP = Duration.ofMinutes(1);

    record Outcome(int code, String out, String err) {}

    private static Outcome weir(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Weir.run(new PrintWriter(out), new PrintWriter(err), args);
        System.out.println("$ weir " + String.join(" ", args) + "\n" + out + err + "(exit " + code + ")");
        return new Outcome(code, out.toString(), err.toString());
    }

    @AfterEach
    void clearProperties() {
        System.clearProperty(ReplayTopologies.INPUT);
        System.clearProperty(ReplayTopologies.OUTPUT);
        System.clearProperty(ReplayTopologies.SHADOW);
    }

    private static List<String> lines(int from, int to) {
        List<String> lines = new ArrayList<>();
        for (int i = from; i < to; i++) {
            lines.add("w" + (i % 50) + " v" + (i % 7) + " common");
        }
        return lines;
    }

    private static Map<String, Long> counts(List<String> lines) {
        Map<String, Long> m = new TreeMap<>();
        lines.forEach(l -> List.of(l.split(" ")).forEach(w -> m.merge(w, 1L, Long::sum)));
        return m;
    }

    private static void produce(String topic, List<String> lines) {
        List<KeyValue<String, String>> records = new ArrayList<>();
        lines.forEach(l -> records.add(KeyValue.of("k" + records.size(), l)));
        KAFKA.client().produceStrings(topic, records);
    }

    private static WeirApp start(java.util.function.Supplier<io.weir.Topology> version, String app) throws Exception {
        WeirConfig config = WeirConfig.builder()
                .applicationId(app)
                .bootstrapServers(KAFKA.bootstrapServers())
                .stateDir(Files.createTempDirectory("weir-replay-"))
                .set("http.port", -1)
                .environment(Map.of())
                .build();
        return WeirApp.create(version.get(), config).start();
    }

    @Test
    void aChangedAggregationReplayedFromASavepointBesideProductionDiffersExactlyWhereItShould() throws Exception {
        String input = KAFKA.uniqueTopic("replay-lines", 3);
        String output = KAFKA.uniqueTopic("replay-counts", 3);
        String shadow = output + "-shadow";
        KAFKA.createTopic(shadow, 3, Map.of());
        System.setProperty(ReplayTopologies.INPUT, input);
        System.setProperty(ReplayTopologies.OUTPUT, output);
        System.setProperty(ReplayTopologies.SHADOW, shadow);
        String v1 = "replay-v1-" + input;
        String v2 = "replay-v2-" + input;
        String bootstrap = KAFKA.bootstrapServers();
        List<String> all = lines(0, 3000);
        produce(input, all.subList(0, 1000));

        try (WeirApp production = start(new ReplayTopologies.V1(), v1)) {
            KAFKA.client().readUntil(output, r -> !r.isEmpty(), CATCH_UP);
            CompletableFuture<Void> flowing = CompletableFuture.runAsync(() -> {
                for (int i = 1000; i < all.size(); i += 100) {
                    produce(input, all.subList(i, i + 100));
                }
            });
            Outcome created = weir("savepoint", "create", "--app", v1, "-b", bootstrap, "--id", "before-v2");
            assertThat(created.code()).isEqualTo(Weir.OK);
            assertThat(created.out()).contains("cut complete: 6 tasks paused", "savepoint before-v2 complete: 6 tasks");
            flowing.get();

            Outcome listed = weir("savepoint", "list", "--app", v1, "-b", bootstrap);
            assertThat(listed.code()).isEqualTo(Weir.OK);
            assertThat(listed.out()).contains("before-v2");
            Outcome described = weir("savepoint", "describe", "--app", v1, "-b", bootstrap, "--id", "before-v2");
            assertThat(described.out())
                    .contains(
                            "savepoint before-v2 of " + v1,
                            "store word-counts (key_value, key string," + " value long)");

            // v2 starts from the savepoint as a new application beside production.
            Outcome restored = weir(
                    "savepoint",
                    "restore",
                    "--app",
                    v2,
                    "--from-app",
                    v1,
                    "--id",
                    "before-v2",
                    "--topology",
                    ReplayTopologies.V2.class.getName(),
                    "-b",
                    bootstrap);
            assertThat(restored.code()).as(restored.err()).isEqualTo(Weir.OK);
            try (WeirApp candidate = start(new ReplayTopologies.V2(), v2)) {
                // Every word once more: every key shows up in both outputs.
                List<String> last = List.of(String.join(" ", counts(all).keySet()));
                produce(input, last);
                List<String> everything = new ArrayList<>(all);
                everything.addAll(last);
                Map<String, Long> production1 = counts(everything);
                KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).equals(production1), CATCH_UP);
                // v2 agrees on every key but the v-words, which it weighs twice since the savepoint.
                KAFKA.client()
                        .readUntil(
                                shadow,
                                r -> {
                                    Map<String, Long> v2Counts = Records.lastLongPerKey(r);
                                    return v2Counts.keySet().equals(production1.keySet())
                                            && production1.entrySet().stream()
                                                    .allMatch(e -> e.getKey().startsWith("v")
                                                            ? v2Counts.get(e.getKey()) > e.getValue()
                                                            : v2Counts.get(e.getKey())
                                                                    .equals(e.getValue()));
                                },
                                CATCH_UP);

                Outcome diff = weir(
                        "diff",
                        "--left",
                        output,
                        "--right",
                        shadow,
                        "--value-deserializer",
                        "long",
                        "-b",
                        bootstrap,
                        "--json");
                assertThat(diff.code()).as("diff exits 1 when the sides differ").isEqualTo(Weir.FAILED);
                assertThat(diff.out().replace(" ", ""))
                        .contains("\"equal\":51", "\"changed\":7", "\"onlyLeft\":0", "\"onlyRight\":0");
                // Production's output is untouched: exactly the counts of v1 over every record. Read to its
                // end: readAtLeast(1) would stop after its first poll, at most max.poll.records of it.
                assertThat(Records.lastLongPerKey(KAFKA.client()
                                .readAllCommitted(
                                        output,
                                        new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                                        new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                                        CATCH_UP)))
                        .isEqualTo(production1);
            }
        }
    }

    @Test
    void savepointCommandsGiveClearErrors() {
        String bootstrap = KAFKA.bootstrapServers();
        Outcome missing = weir("savepoint", "describe", "--app", "no-such-app", "--id", "nope", "-b", bootstrap);
        assertThat(missing.code()).isEqualTo(Weir.FAILED);
        assertThat(missing.err()).contains("no complete savepoint nope of no-such-app");
        Outcome badId = weir("savepoint", "create", "--app", "x", "--id", "a/b", "-b", bootstrap);
        assertThat(badId.code()).isEqualTo(Weir.USAGE);
        assertThat(badId.err()).contains("--id must be 1 to 100 letters");
        Outcome noApp = weir("savepoint", "list", "-b", bootstrap);
        assertThat(noApp.code()).isEqualTo(Weir.USAGE);
        assertThat(noApp.err()).contains("Missing required option: '--app=ID'");
        Outcome stopWithout = weir("stop", "--app", "x", "-b", bootstrap);
        assertThat(stopWithout.code()).isEqualTo(Weir.USAGE);
        assertThat(stopWithout.err()).contains("--savepoint");
        Outcome nobodyRunning =
                weir("savepoint", "create", "--app", "nobody-" + System.nanoTime(), "--timeout", "3", "-b", bootstrap);
        assertThat(nobodyRunning.code()).isEqualTo(Weir.FAILED);
        assertThat(nobodyRunning.err()).contains("has never run against");
    }
}
