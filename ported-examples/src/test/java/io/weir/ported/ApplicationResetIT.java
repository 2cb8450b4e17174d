package io.weir.ported;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.BoundedRunSummary;
import io.weir.Topology;
import io.weir.WeirApp;
import io.weir.cli.Weir;
import io.weir.common.KeyValue;
import io.weir.config.WeirConfig;
import io.weir.testkit.KafkaExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The application-reset port on a real broker, with the inputs and expected outputs of Confluent's
 * {@code ApplicationResetIntegrationTest}: a run, a reset of the application to the beginning of its
 * input ({@code weir reset}, run in-process, where the original runs Kafka's {@code StreamsResetter}),
 * and a second run that recomputes the same counts from scratch, here as a bounded run.
 */
class ApplicationResetIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration WAIT = Duration.ofSeconds(60);

    private static final List<String> INPUT =
            List.of("Hello World", "Hello Kafka Streams", "All streams lead to Kafka");
    private static final List<KeyValue<String, Long>> EXPECTED =
            List.of(KeyValue.of("Hello", 1L), KeyValue.of("Hello", 2L), KeyValue.of("All", 1L));

    private static List<KeyValue<String, Long>> output(String topic) {
        return KAFKA.client().readAllCommitted(topic, new StringDeserializer(), new LongDeserializer(), WAIT).stream()
                .map(r -> KeyValue.of(r.key(), r.value()))
                .toList();
    }

    private static Map<String, Long> lastPerKey(List<KeyValue<String, Long>> pairs) {
        Map<String, Long> last = new LinkedHashMap<>();
        pairs.forEach(p -> last.put(p.key(), p.value()));
        return last;
    }

    @Test
    void reprocessesTheInputAfterAReset() throws Exception {
        String input = KAFKA.uniqueTopic("my-input-topic", 1);
        String output = KAFKA.uniqueTopic("my-output-topic", 1);
        String appId = "application-reset-" + input;
        Topology topology = ApplicationReset.topology(input, output);

        // 1. The first run. Each line goes in once the count of the one before is out: a table
        //    writes each changed key once per commit (docs/tables-and-joins.md, "Updates"), so
        //    two lines of one first word in one commit would show only the second count, where the
        //    original, without a record cache, writes both.
        try (WeirApp app = WeirApp.create(
                        topology, Apps.config(KAFKA.bootstrapServers(), appId).build())
                .start()) {
            for (int i = 0; i < INPUT.size(); i++) {
                KAFKA.client().produceStrings(input, List.of(KeyValue.of(null, INPUT.get(i))));
                int expectedSoFar = i + 1;
                await().atMost(WAIT).until(() -> output(output).size() >= expectedSoFar);
            }
            assertThat(output(output)).isEqualTo(EXPECTED);
            app.close(Duration.ofSeconds(30), true); // leave the group: a reset needs none left
        }
        await().atMost(WAIT)
                .until(() -> KAFKA.admin()
                        .describeConsumerGroups(List.of(appId))
                        .all()
                        .get()
                        .get(appId)
                        .members()
                        .isEmpty());

        // 2. The reset: input offsets back to the beginning, the store's changelog deleted.
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Weir.run(
                new PrintWriter(out),
                new PrintWriter(err),
                "reset",
                "--bootstrap-servers",
                KAFKA.bootstrapServers(),
                "--app",
                appId,
                "--to",
                "earliest",
                "--topics",
                input);
        assertThat(code).as(out + "\n" + err).isEqualTo(Weir.OK);
        assertThat(out.toString()).contains(appId + "-" + ApplicationReset.STORE + "-changelog");

        // 3. The re-run, bounded: it reads the input to its end and stops. The counts start again
        //    from nothing. All three lines are there at once now, so whether "Hello" shows 1 before
        //    2 depends on whether the two lines fall in one commit (the rule above): the re-run's
        //    output is the original's expected output, or it without that intermediate count.
        WeirConfig bounded = Apps.config(KAFKA.bootstrapServers(), appId)
                .set("run.mode", "bounded")
                .build();
        try (WeirApp rerun = WeirApp.create(topology, bounded)) {
            BoundedRunSummary summary = rerun.runBounded();
            assertThat(summary.inputRecords()).isEqualTo(INPUT.size());
        }
        List<KeyValue<String, Long>> all = output(output);
        List<KeyValue<String, Long>> rerunOutput = all.subList(EXPECTED.size(), all.size());
        assertThat(EXPECTED).containsSubsequence(rerunOutput);
        assertThat(lastPerKey(rerunOutput)).isEqualTo(lastPerKey(EXPECTED));
    }
}
