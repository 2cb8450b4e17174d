package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.WeirApp;
import io.weir.cli.WeirTest.Outcome;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

    private static Outcome weir(String... args) {
        return WeirTest.runShown(args);
    }

    @AfterEach
    void clearProperties() {
        System.clearProperty(ReplayTopologies.INPUT);
        System.clearProperty(ReplayTopologies.OUTPUT);
        System.clearProperty(ReplayTopologies.SHADOW);
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
        List<String> all = WordCounts.lines(0, 3000, 50);
        WordCounts.produce(KAFKA, input, all.subList(0, 1000));

        try (WeirApp production = WordCounts.start(KAFKA, new ReplayTopologies.V1(), v1)) {
            KAFKA.client().readUntil(output, r -> !r.isEmpty(), CATCH_UP);
            CompletableFuture<Void> flowing = CompletableFuture.runAsync(() -> {
                for (int i = 1000; i < all.size(); i += 100) {
                    WordCounts.produce(KAFKA, input, all.subList(i, i + 100));
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
            try (WeirApp candidate = WordCounts.start(KAFKA, new ReplayTopologies.V2(), v2)) {
                // Every word once more: every key shows up in both outputs.
                List<String> last =
                        List.of(String.join(" ", WordCounts.counts(all).keySet()));
                WordCounts.produce(KAFKA, input, last);
                List<String> everything = new ArrayList<>(all);
                everything.addAll(last);
                Map<String, Long> production1 = WordCounts.counts(everything);
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
