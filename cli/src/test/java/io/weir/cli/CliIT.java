package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.testing.CountingApp;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The commands against a real broker: their output and exit codes. */
class CliIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOPOLOGY = CountingApp.class.getName();

    record Outcome(int code, String out, String err) {}

    private static Outcome weir(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of(args));
        if (!all.contains("--help")) {
            all.add("--bootstrap-servers");
            all.add(KAFKA.bootstrapServers());
        }
        int code = Weir.run(new PrintWriter(out), new PrintWriter(err), all.toArray(String[]::new));
        return new Outcome(code, out.toString(), err.toString());
    }

    @BeforeAll
    static void inputAndOutput() {
        KAFKA.createTopic(CountingApp.INPUT, 3, Map.of());
        KAFKA.createTopic(CountingApp.OUTPUT, 3, Map.of());
    }

    @Test
    void topicsPlanPrintsTheRuntimesPlanAndCreateMakesTheMissingOnesThenReportsDifferences() throws Exception {
        String app = "cli-topics-app";
        Outcome plan = weir("topics", "plan", "--app", app, "--topology", TOPOLOGY);
        assertThat(plan.code()).as(plan.err()).isEqualTo(Weir.OK);
        assertThat(plan.out())
                .containsPattern(app + "-counts-changelog\\s+changelog\\s+3\\s+default\\s+cleanup.policy=compact")
                .containsPattern(app + "-dlq\\S*\\s+dead-letter\\s+1\\s+default\\s+max.message.bytes=\\d+");
        JsonNode json = JSON.readTree(weir("topics", "plan", "--app", app, "--topology", TOPOLOGY, "--json")
                .out());
        assertThat(json.get("topics").get(0).get("name").asText()).isEqualTo(app + "-counts-changelog");
        assertThat(json.get("topics").get(0).get("partitions").asInt()).isEqualTo(3);

        Outcome create = weir("topics", "create", "--app", app, "--topology", TOPOLOGY);
        assertThat(create.code()).as(create.err()).isEqualTo(Weir.OK);
        assertThat(create.out()).containsPattern(app + "-counts-changelog\\s+changelog\\s+3.*created");
        assertThat(KAFKA.client().describePartitions(app + "-counts-changelog")).hasSize(3);
        Outcome again = weir("topics", "create", "--app", app, "--topology", TOPOLOGY);
        assertThat(again.code()).isEqualTo(Weir.OK);
        assertThat(again.out()).contains("0 created").containsPattern(app + "-counts-changelog.*exists");

        // A changelog made by hand with the wrong partition count: reported, exit 1.
        String bad = "cli-topics-bad";
        KAFKA.createTopic(bad + "-counts-changelog", 1, Map.of("cleanup.policy", "compact"));
        Outcome differs = weir("topics", "create", "--app", bad, "--topology", TOPOLOGY);
        assertThat(differs.code()).isEqualTo(Weir.FAILED);
        assertThat(differs.out()).containsPattern(bad + "-counts-changelog.*DIFFERS");
        assertThat(differs.err())
                .contains("'" + bad + "-counts-changelog' has 1 partitions but its sub-topology has 3");
    }

    @Test
    void describeShowsMembersTasksLagAndInternalTopics() throws Exception {
        String app = "cli-describe-app";
        List<KeyValue<String, String>> records = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            records.add(KeyValue.of("key" + i % 6, "v"));
        }
        KAFKA.client().produceStrings(CountingApp.INPUT, records);
        try (WeirApp running = Instances.start(
                CountingApp.topology(),
                KAFKA.bootstrapServers(),
                app,
                Files.createTempDirectory("weir-describe-"),
                "desc")) {
            KAFKA.client()
                    .readUntil(
                            CountingApp.OUTPUT,
                            r -> Records.lastLongPerKey(r).getOrDefault("key0", 0L) >= 10,
                            Duration.ofSeconds(40));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                Outcome d = weir("describe", "--app", app);
                assertThat(d.code()).as(d.err()).isEqualTo(Weir.OK);
                assertThat(d.out())
                        .contains("consumer group Stable, 1 member(s)", "Total lag: 0")
                        .containsPattern("desc-0\\s+/\\S+\\s+" + CountingApp.INPUT + "-0, " + CountingApp.INPUT + "-1, "
                                + CountingApp.INPUT + "-2")
                        .containsPattern(app + "-counts-changelog\\s+changelog\\s+3")
                        .containsPattern(CountingApp.INPUT + "\\s+0\\s+\\d+\\s+\\d+\\s+0")
                        // What the instance itself says in its heartbeats: running, its three tasks.
                        .containsPattern("desc\\s+\\d+\\.\\d s ago\\s+RUNNING\\s+0_0,0_1,0_2\\s+-\\s+-");
            });
            Outcome tasks = weir("describe", "--app", app, "--topology", TOPOLOGY);
            assertThat(tasks.out()).containsPattern("desc-0\\s+/\\S+\\s+0_0, 0_1, 0_2");
            JsonNode json = JSON.readTree(weir("describe", "--app", app, "--topology", TOPOLOGY, "--json")
                    .out());
            assertThat(json.get("groupState").asText()).isEqualTo("Stable");
            assertThat(json.get("members").get(0).get("instanceId").asText()).isEqualTo("desc-0");
            assertThat(json.get("members").get(0).get("tasks").toString()).isEqualTo("[\"0_0\",\"0_1\",\"0_2\"]");
            assertThat(json.get("inputLag")).hasSize(3);
            assertThat(json.get("internalTopics").findValuesAsText("topic")).contains(app + "-counts-changelog");
            assertThat(json.get("instances").get(0).get("instance").asText()).isEqualTo("desc");
            assertThat(json.get("instances").get(0).get("state").asText()).isEqualTo("RUNNING");
        }
    }

    @Test
    void diffCountsEqualChangedAndOneSidedKeysWithTombstonesAndExitsOneWhenTheyDiffer() throws Exception {
        String left = KAFKA.uniqueTopic("diff-left", 2);
        String right = KAFKA.uniqueTopic("diff-right", 3);
        List<ProducerRecord<byte[], byte[]>> l = new ArrayList<>();
        List<ProducerRecord<byte[], byte[]>> r = new ArrayList<>();
        for (int i = 0; i < 10; i++) { // 10 equal keys, the right side getting there in two steps
            l.add(rec(left, "same" + i, "x"));
            r.add(rec(right, "same" + i, "old"));
            r.add(rec(right, "same" + i, "x"));
        }
        for (int i = 0; i < 3; i++) { // 3 changed
            l.add(rec(left, "changed" + i, "1"));
            r.add(rec(right, "changed" + i, "2"));
        }
        l.add(rec(left, "left-only", "1"));
        l.add(rec(left, "deleted-left", "1"));
        l.add(rec(left, "deleted-left", null)); // tombstone: gone on the left
        r.add(rec(right, "deleted-left", "1"));
        r.add(rec(right, "right-only0", "1"));
        r.add(rec(right, "right-only1", "1"));
        KAFKA.client().send(l);
        KAFKA.client().send(r);

        Outcome d = weir("diff", "--left", left, "--right", right, "--examples", "1");
        assertThat(d.code()).as(d.err()).isEqualTo(Weir.FAILED);
        assertThat(d.out())
                .containsPattern("equal\\s+10")
                .containsPattern("changed\\s+3")
                .containsPattern("only-left\\s+1")
                .containsPattern("only-right\\s+3")
                .contains("left-only: 1", "The topics differ.");
        JsonNode json = JSON.readTree(
                weir("diff", "--left", left, "--right", right, "--json").out());
        assertThat(json.get("equal").asLong()).isEqualTo(10);
        assertThat(json.get("changed").asLong()).isEqualTo(3);
        assertThat(json.get("onlyLeft").asLong()).isEqualTo(1);
        assertThat(json.get("onlyRight").asLong()).isEqualTo(3);
        assertThat(json.get("examples").get("onlyRight").findValuesAsText("key"))
                .containsExactlyInAnyOrder("deleted-left", "right-only0", "right-only1");

        Outcome same = weir("diff", "--left", left, "--right", left);
        assertThat(same.code()).isEqualTo(Weir.OK);
        assertThat(same.out()).containsPattern("equal\\s+14").contains("The topics are equal by key.");

        Outcome missing = weir("diff", "--left", left, "--right", "no-such-topic-" + left);
        assertThat(missing.code()).isEqualTo(Weir.FAILED);
        assertThat(missing.err()).contains("topic 'no-such-topic-" + left + "' does not exist");
    }

    @Test
    void badArgumentsNameTheOptionAndExitTwo() {
        Outcome noApp = weir("describe");
        assertThat(noApp.code()).isEqualTo(Weir.USAGE);
        assertThat(noApp.err()).contains("Missing required option: '--app=ID'");
        Outcome badTo = weir("reset", "--app", "a", "--to", "last-tuesday");
        assertThat(badTo.code()).isEqualTo(Weir.USAGE);
        assertThat(badTo.err()).contains("--to", "'last-tuesday' is not earliest, latest");
        Outcome badExamples = weir("diff", "--left", "a", "--right", "b", "--examples", "-1");
        assertThat(badExamples.code()).isEqualTo(Weir.USAGE);
        assertThat(badExamples.err()).contains("--examples must be 0 or more");
    }

    @Test
    void describeOfAnApplicationThatNeverRanSaysSo() {
        Outcome o = weir("describe", "--app", "cli-never-ran");
        assertThat(o.code()).as(o.err()).isEqualTo(Weir.OK);
        assertThat(o.out())
                .contains("consumer group none, 0 member(s)", "No active members.", "No committed input offsets.");
    }

    @Test
    void resetOfAnApplicationWithoutOffsetsOrTopicsFailsWithAReason() {
        Outcome o = weir("reset", "--app", "cli-never-ran", "--to", "earliest");
        assertThat(o.code()).isEqualTo(Weir.FAILED);
        assertThat(o.err()).contains("no input topics to reset", "--topics");
        Outcome dry =
                weir("reset", "--app", "cli-never-ran", "--to", "latest", "--topics", CountingApp.INPUT, "--dry-run");
        assertThat(dry.code()).as(dry.err()).isEqualTo(Weir.OK);
        assertThat(dry.out())
                .containsPattern(CountingApp.INPUT + "\\s+2\\s+-\\s+\\d+")
                .contains("No changelog or repartition topics to delete.");
    }

    private static ProducerRecord<byte[], byte[]> rec(String topic, String key, String value) {
        return new ProducerRecord<>(
                topic,
                key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }
}
