package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.cli.WeirTest.Outcome;
import io.weir.common.KeyValue;
import io.weir.serde.Serdes;
import io.weir.testing.TestApps;
import io.weir.testkit.ChildJvm;
import io.weir.testkit.KafkaExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code weir dlq} against a real broker and a running application whose processor fails on some
 * records until it is "fixed": the dead letters are counted and shown; a resend interrupted half-way
 * (a dead letter whose source topic is missing aborts its transaction) continues on the rerun and
 * every dead letter comes out of the application exactly once; a resent record that fails again is
 * refused without {@code --force}, and nothing goes back into the dead-letter topic itself. A
 * resend SIGKILLed in a child JVM mid-transaction is fenced by the rerun, which resends the rest:
 * every dead letter once.
 */
class DlqIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration WAIT = Duration.ofMinutes(1);

    /** Whether the application still fails on values starting with "bad" (its bug). */
    private static volatile boolean broken = true;

    private static Outcome weir(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--bootstrap-servers");
        all.add(KAFKA.bootstrapServers());
        return WeirTest.runShown(all.toArray(String[]::new));
    }

    private static WeirApp start(String input, String output, String id) {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .mapValues(v -> {
                    if (broken && v.startsWith("bad")) {
                        throw new IllegalStateException("cannot handle " + v);
                    }
                    return v.toUpperCase(java.util.Locale.ROOT);
                })
                .to(output, Serdes.strings(), Serdes.strings());
        return TestApps.start(
                b.build(), TestApps.config(KAFKA.bootstrapServers(), id).build());
    }

    private static void produce(String topic, String prefix, int from, int to) {
        List<KeyValue<String, String>> records = new ArrayList<>();
        for (int i = from; i < to; i++) {
            records.add(KeyValue.of("k" + i, prefix + i));
        }
        KAFKA.client().produceStrings(topic, records);
    }

    private static List<String> committedValues(String topic) {
        return KAFKA.client().readAllCommittedStrings(topic, WAIT).stream()
                .map(ConsumerRecord::value)
                .sorted()
                .toList();
    }

    private static String header(ConsumerRecord<?, ?> r, String key) {
        Header h = r.headers().lastHeader(key);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    @Test
    void resendIsExactlyOnceAcrossAnInterruptedRunAndRefusesToLoop() {
        broken = true;
        String input = KAFKA.uniqueTopic("dlq-in", 2);
        String output = KAFKA.uniqueTopic("dlq-out", 1);
        String later = "dlq-later-" + UUID.randomUUID();
        String id = "dlq-app-" + input;
        String dlq = id + "-dlq";
        produce(input, "ok-", 0, 10);
        produce(input, "bad-", 0, 12);

        try (WeirApp app = start(input, output, id)) {
            assertThat(app.config().deadLetterTopic()).isEqualTo(dlq);
            KAFKA.client().readAtLeast(dlq, 12, WAIT);
            // By hand: a dead letter of a topic that does not exist yet, and one claiming the DLQ as its source.
            KAFKA.client().send(List.of(deadLetterByHand(dlq, later, "later-0"), deadLetterByHand(dlq, dlq, "self-0")));
            produce(input, "bad-", 12, 15);
            KAFKA.client().readAtLeast(dlq, 17, WAIT);

            Outcome list = weir("dlq", "list", "--app", id);
            assertThat(list.code()).as(list.err()).isEqualTo(Weir.OK);
            assertThat(list.out())
                    .containsPattern(input + "\\s+process\\s+java.lang.IllegalStateException\\s+15")
                    .contains("17 dead letters in " + dlq);
            Outcome show = weir("dlq", "show", "--app", id, "--source-topic", input, "--limit", "2");
            assertThat(show.code()).as(show.err()).isEqualTo(Weir.OK);
            assertThat(show.out())
                    .contains("error:   process: java.lang.IllegalStateException: cannot handle bad-")
                    .contains("header:  weir.source.topic=" + input)
                    .doesNotContain("weir.error.stacktrace")
                    .contains("2 shown");
            assertThat(weir("dlq", "show", "--app", id, "--error-class", "NoSuchError")
                            .out())
                    .contains("0 shown");
            assertThat(weir("dlq", "show", "--app", id, "--since", "2d", "--until", "2000-01-01T00:00:00Z")
                            .out())
                    .contains("0 shown");

            broken = false; // the fix is deployed
            // The first ten dead letters go in two transactions; the 11th and 12th are sent in the third,
            // which the missing topic of the 13th (by hand) aborts.
            Outcome interrupted = weir("dlq", "resend", "--app", id, "--transaction-size", "5");
            assertThat(interrupted.code()).isEqualTo(Weir.FAILED);
            assertThat(interrupted.err())
                    .contains("the source topic '" + later + "' does not exist; 10 dead letters before it were resent");

            KAFKA.createTopic(later, 1, Map.of());
            Outcome rerun = weir("dlq", "resend", "--app", id, "--transaction-size", "5");
            assertThat(rerun.code()).as(rerun.err()).isEqualTo(Weir.OK);
            assertThat(rerun.out())
                    .containsPattern(input + "\\s+5")
                    .containsPattern(later + "\\s+1")
                    .contains("6 resent from " + dlq)
                    .contains("refused 1: its source is the dead-letter topic itself");

            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                expected.add("OK-" + i);
            }
            for (int i = 0; i < 15; i++) {
                expected.add("BAD-" + i);
            }
            await().atMost(WAIT).until(() -> committedValues(output).size() >= expected.size());
            assertThat(committedValues(output))
                    .as("every dead letter processed once after the fix, none twice")
                    .containsExactlyInAnyOrderElementsOf(expected);
            // Offsets of a transactional topic count its commit markers too: look the by-hand letter up.
            long laterOffset = KAFKA.client().readAllCommittedStrings(dlq, WAIT).stream()
                    .filter(r -> "later-0".equals(r.value()))
                    .findFirst()
                    .orElseThrow()
                    .offset();
            List<ConsumerRecord<String, String>> resentLater = KAFKA.client().readAllCommittedStrings(later, WAIT);
            assertThat(resentLater).singleElement().satisfies(r -> {
                assertThat(r.value()).isEqualTo("later-0");
                assertThat(header(r, "weir.resent.from")).isEqualTo(dlq + "/0/" + laterOffset);
                assertThat(header(r, "weir.resent.count")).isEqualTo("1");
                assertThat(header(r, "weir.error.class")).isNull();
                assertThat(header(r, "trace")).isEqualTo("t-1");
            });
            assertThat(KAFKA.client().readAllCommittedStrings(input, WAIT).stream()
                            .filter(r -> header(r, "weir.resent.from") != null)
                            .count())
                    .isEqualTo(15);
            Outcome nothingLeft = weir("dlq", "resend", "--app", id);
            assertThat(nothingLeft.out()).contains("0 resent");

            // The bug is back: a resent record that fails again returns with its resend count and is refused.
            broken = true;
            produce(input, "bad-", 15, 16);
            KAFKA.client().readAtLeast(dlq, 18, WAIT);
            assertThat(weir("dlq", "resend", "--app", id).out()).contains("1 resent");
            KAFKA.client().readAtLeast(dlq, 19, WAIT);
            Outcome refused = weir("dlq", "resend", "--app", id);
            assertThat(refused.code()).isEqualTo(Weir.OK);
            assertThat(refused.out())
                    .contains("0 resent")
                    .contains("refused 1: resent 1 times already and failed again (--max-resends, --force)");
            assertThat(KAFKA.client().readAllCommittedStrings(dlq, WAIT)).hasSize(19);
        }
    }

    @Test
    void aResendKilledMidTransactionIsFencedAndTheRerunResendsEachDeadLetterOnce() {
        String id = "dlq-crash-" + UUID.randomUUID();
        String dlq = id + "-dlq";
        String source = KAFKA.uniqueTopic("dlq-crash-src", 1);
        KAFKA.createTopic(dlq, 1, Map.of());
        int n = 20_000;
        List<ProducerRecord<byte[], byte[]>> letters = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            letters.add(deadLetterByHand(dlq, source, "v" + i));
        }
        KAFKA.client().send(letters);

        // Small transactions make the run long (thousands of commits): it is killed well inside it.
        long atKill;
        try (ChildJvm resend = ChildJvm.builder(Weir.class)
                .args("dlq", "resend", "--app", id, "-b", KAFKA.bootstrapServers(), "--transaction-size", "10")
                .jvmOptions("-Xmx256m", "-XX:+UseSerialGC")
                .quietLogging()
                .start()) {
            await().atMost(WAIT)
                    .until(() ->
                            KAFKA.client().readAllCommittedStrings(source, WAIT).size() >= 300);
            resend.kill();
            assertThat(resend.exitCode()).as("killed, not finished").isNotEqualTo(java.util.OptionalInt.of(0));
        }
        // The kill left a transaction open: read_committed readers stop at it until the rerun fences it.
        Outcome rerun = weir("dlq", "resend", "--app", id);
        assertThat(rerun.code()).as(rerun.err()).isEqualTo(Weir.OK);
        List<ConsumerRecord<String, String>> resent = KAFKA.client().readAllCommittedStrings(source, WAIT);
        atKill = n - Long.parseLong(rerun.out().replaceAll("(?s).*?(\\d+) resent from.*", "$1"));
        assertThat(atKill)
                .as("resent before the kill")
                .isGreaterThanOrEqualTo(300)
                .isLessThan(n);
        assertThat(resent).hasSize(n);
        assertThat(resent.stream().map(r -> header(r, "weir.resent.from")).distinct())
                .as("every dead letter once")
                .hasSize(n);
        assertThat(resent.stream().map(ConsumerRecord::value).distinct()).hasSize(n);
    }

    /** A dead letter as Weir writes it, of {@code source}, with an own header of the input. */
    private static ProducerRecord<byte[], byte[]> deadLetterByHand(String dlq, String source, String value) {
        List<Header> headers = List.of(
                new RecordHeader("trace", bytes("t-1")),
                new RecordHeader("weir.error.class", bytes(IllegalStateException.class.getName())),
                new RecordHeader("weir.error.stage", bytes("process")),
                new RecordHeader("weir.source.topic", bytes(source)),
                new RecordHeader("weir.source.partition", bytes("0")),
                new RecordHeader("weir.source.offset", bytes("0")));
        return new ProducerRecord<>(dlq, 0, System.currentTimeMillis(), bytes("k"), bytes(value), headers);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
