package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.errors.ClusterException;
import io.weir.errors.ConfigException;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import io.weir.serde.Serdes;
import io.weir.testing.CountingApp;
import io.weir.testing.CrashTestApp;
import io.weir.testing.TestApps;
import io.weir.testkit.ChildJvm;
import io.weir.testkit.KafkaExtension;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Start-up checks, failure modes, punctuations and pattern subscriptions against a real broker. */
class LifecycleIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    @Test
    void badConfigurationStopsTheProcessAtStartWithTheSettingNamed() throws Exception {
        String input = KAFKA.uniqueTopic("cfg-in", 1);
        String output = KAFKA.uniqueTopic("cfg-out", 1);
        try (ChildJvm app = ChildJvm.builder(CrashTestApp.class)
                .args(
                        KAFKA.bootstrapServers(),
                        input,
                        output,
                        Files.createTempDirectory("weir-cfg").toString(),
                        "cfg")
                .env("WEIR_COMMIT_INTERVAL_MS", "-1")
                .quietLogging()
                .start()) {
            assertThat(app.awaitExit(Duration.ofSeconds(60))).isNotZero();
            assertThat(app.output())
                    .contains("invalid setting 'commit.interval.ms'")
                    .doesNotContain("READY");
        }
    }

    @Test
    void missingInputTopicFailsTheStartNamingTheTopic() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "no-such-topic").to(KAFKA.uniqueTopic("out", 1));
        WeirApp app = WeirApp.create(
                b.build(), TestApps.config(KAFKA.bootstrapServers(), "missing").build());
        assertThatThrownBy(app::start).isInstanceOf(ClusterException.class).hasMessageContaining("no-such-topic");
        assertThat(app.state()).isEqualTo(WeirApp.State.FAILED);
    }

    @Test
    void unreachableClusterFailsTheStartNamingBootstrapServers() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in").to("out");
        WeirApp app = WeirApp.create(
                b.build(),
                TestApps.config("localhost:1", "unreachable")
                        .set("admin.default.api.timeout.ms", 3000)
                        .set("admin.request.timeout.ms", 2000)
                        .build());
        assertThatThrownBy(app::start)
                .isInstanceOf(ClusterException.class)
                .hasMessageContaining("bootstrap.servers=localhost:1");
    }

    @Test
    void twoInstancesCannotShareOneStateDirectory() throws Exception {
        String input = KAFKA.uniqueTopic("lock-in", 1);
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input).to(KAFKA.uniqueTopic("lock-out", 1));
        var config = TestApps.config(KAFKA.bootstrapServers(), "lock-" + input).build();
        var topology = b.build();
        try (WeirApp first = TestApps.start(topology, config)) {
            WeirApp second = WeirApp.create(topology, config);
            assertThatThrownBy(second::start)
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("state.dir");
            // Nothing has waited for the first instance's threads yet: RUNNING comes after its first
            // join of the group, its assignment and its producer's initTransactions, each slower on a
            // loaded machine. A generous deadline costs nothing when it comes early.
            await().atMost(Duration.ofSeconds(60)).until(() -> first.state() == WeirApp.State.RUNNING);
        }
    }

    @Test
    void failModeStopsTheAppAndCommitsNothingOfTheFailedTransaction() throws Exception {
        String input = KAFKA.uniqueTopic("fail-in", 1);
        String output = KAFKA.uniqueTopic("fail-out", 1);
        KAFKA.client()
                .produceStrings(input, List.of(KeyValue.of("k", "1"), KeyValue.of("k", "boom"), KeyValue.of("k", "3")));
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .mapValues(v -> Integer.toString(Integer.parseInt(v) * 2))
                .to(output, Serdes.strings(), Serdes.strings());
        WeirApp app = TestApps.start(
                b.build(),
                TestApps.config(KAFKA.bootstrapServers(), "fail-" + input)
                        .set("error.mode", "fail")
                        .build());
        assertThat(app.awaitTermination(Duration.ofMinutes(1))).isTrue();
        assertThat(app.state()).isEqualTo(WeirApp.State.FAILED);
        assertThat(app.failure()).get().asString().contains("boom");
        List<ConsumerRecord<String, String>> out =
                KAFKA.client().readAllCommittedStrings(output, Duration.ofSeconds(30));
        assertThat(out).isEmpty();
        app.close();
    }

    /** Counts records and emits the count every 50 ms of wall-clock time. */
    static final class Ticker implements Processor<String, String, String, String> {
        private int count;

        @Override
        public void init(ProcessorContext<String, String> context) {
            context.schedule(Duration.ofMillis(50), now -> {
                if (count > 0) {
                    context.forward(new Record<>("count-" + context.taskId(), Integer.toString(count), now));
                    count = 0;
                }
            });
        }

        @Override
        public void process(Record<String, String> record) {
            count++;
        }
    }

    @Test
    void wallClockPunctuationsForwardRecordsThatAreCommitted() throws Exception {
        String input = KAFKA.uniqueTopic("tick-in", 2);
        String output = KAFKA.uniqueTopic("tick-out", 1);
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .process(Ticker::new, "ticker")
                .to(output, Serdes.strings(), Serdes.strings());
        KAFKA.client()
                .produceStrings(
                        input,
                        List.of(
                                KeyValue.of("a", "1"),
                                KeyValue.of("b", "2"),
                                KeyValue.of("c", "3"),
                                KeyValue.of("d", "4")));
        try (WeirApp app = TestApps.start(
                b.build(),
                TestApps.config(KAFKA.bootstrapServers(), "tick-" + input).build())) {
            List<ConsumerRecord<String, String>> out = KAFKA.client()
                    .readStringsUntil(
                            output,
                            l -> l.stream()
                                            .mapToInt(r -> Integer.parseInt(r.value()))
                                            .sum()
                                    >= 4,
                            Duration.ofMinutes(1));
            assertThat(out.stream().mapToInt(r -> Integer.parseInt(r.value())).sum())
                    .isEqualTo(4);
            assertThat(out).extracting(ConsumerRecord::key).allMatch(k -> k.startsWith("count-0_"));
        }
    }

    @Test
    void anInstanceClosedWhileItsThreadsJoinLeavesNoMemberBehind() throws Exception {
        String input = KAFKA.uniqueTopic("joining-in", 6);
        String app = "joining-" + input;
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .to(KAFKA.uniqueTopic("joining-out", 1), Serdes.strings(), Serdes.strings());
        var topology = b.build();
        // Closed as soon as the first thread is a member: the others are still joining, and a consumer
        // closed while joining sends no leave request of its own.
        for (int round = 0; round < 3; round++) {
            try (WeirApp instance = WeirApp.create(
                    topology,
                    TestApps.config(KAFKA.bootstrapServers(), app)
                            .set("num.stream.threads", 3)
                            .build())) {
                instance.start();
                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(10))
                        .until(() -> !members(app).isEmpty());
            }
            assertThat(members(app))
                    .as("members after round %d's close returned", round)
                    .isEmpty();
        }
    }

    /** The group's members; none before the group exists or after the coordinator dropped it empty. */
    private static java.util.Collection<org.apache.kafka.clients.admin.MemberDescription> members(String group)
            throws InterruptedException {
        try {
            return KAFKA.admin()
                    .describeConsumerGroups(List.of(group))
                    .all()
                    .get()
                    .get(group)
                    .members();
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.GroupIdNotFoundException) {
                return List.of();
            }
            throw new IllegalStateException(e);
        }
    }

    @Test
    void patternSourcesPickUpTopicsCreatedWhileRunning() throws Exception {
        String prefix = "pattern-" + System.nanoTime() + "-";
        String first = prefix + "a";
        KAFKA.createTopic(first, 2, Map.of());
        String output = KAFKA.uniqueTopic("pattern-out", 1);
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), Pattern.compile(Pattern.quote(prefix) + ".*"))
                .mapValues((k, v) -> v + "@" + k)
                .to(output, Serdes.strings(), Serdes.strings());
        KAFKA.client().produceStrings(first, List.of(KeyValue.of("x", "1")));
        try (WeirApp app = TestApps.start(
                b.build(),
                TestApps.config(KAFKA.bootstrapServers(), "pattern-app")
                        .set("consumer.metadata.max.age.ms", 500)
                        .build())) {
            KAFKA.client().readStringsAtLeast(output, 1, Duration.ofMinutes(1));
            String second = prefix + "b";
            KAFKA.createTopic(second, 1, Map.of());
            KAFKA.client().produceStrings(second, List.of(KeyValue.of("y", "2")));
            List<ConsumerRecord<String, String>> out =
                    KAFKA.client().readStringsAtLeast(output, 2, Duration.ofMinutes(1));
            assertThat(out).extracting(ConsumerRecord::value).containsExactlyInAnyOrder("1@x", "2@y");
            // The new topic's partition came with a rebalance; RUNNING follows on a tick of the monitor
            // once the thread is done with it (a generous deadline: a follow-up rebalance may run).
            await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == WeirApp.State.RUNNING);
        }
    }

    @Test
    void aChangelogTopicWithTheWrongShapeFailsTheStartSayingWhatIsWrong() throws Exception {
        String input = KAFKA.uniqueTopic("shape-in", 3);
        String output = KAFKA.uniqueTopic("shape-out", 1);
        var topology = CountingApp.topology(input, output);

        String wrongCount = "shape-a-" + input;
        KAFKA.createTopic(wrongCount + "-counts-changelog", 2, Map.of("cleanup.policy", "compact"));
        WeirApp app = WeirApp.create(
                topology, TestApps.config(KAFKA.bootstrapServers(), wrongCount).build());
        assertThatThrownBy(app::start)
                .isInstanceOf(ClusterException.class)
                .hasMessageContaining(wrongCount + "-counts-changelog")
                .hasMessageContaining("has 2 partitions")
                .hasMessageContaining("3 tasks");

        String notCompacted = "shape-b-" + input;
        KAFKA.createTopic(notCompacted + "-counts-changelog", 3, Map.of("cleanup.policy", "delete"));
        WeirApp app2 = WeirApp.create(
                topology,
                TestApps.config(KAFKA.bootstrapServers(), notCompacted).build());
        assertThatThrownBy(app2::start)
                .isInstanceOf(ClusterException.class)
                .hasMessageContaining("cleanup.policy=delete")
                .hasMessageContaining("compact");
    }

    @Test
    void internalTopicsAreCreatedWithTheRightShape() throws Exception {
        String input = KAFKA.uniqueTopic("internal-in", 3);
        String output = KAFKA.uniqueTopic("internal-out", 1);
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .groupBy((k, v) -> v, Serdes.strings())
                .count("by-value")
                .toStream()
                .to(output, Serdes.strings(), Serdes.longs());
        String appId = "internal-" + input;
        try (WeirApp app = TestApps.start(
                b.build(), TestApps.config(KAFKA.bootstrapServers(), appId).build())) {
            var topics = KAFKA.admin()
                    .describeTopics(List.of(appId + "-by-value-repartition", appId + "-by-value-changelog"))
                    .allTopicNames()
                    .get();
            assertThat(topics.get(appId + "-by-value-repartition").partitions()).hasSize(3);
            assertThat(topics.get(appId + "-by-value-changelog").partitions()).hasSize(3);
            var resource = new org.apache.kafka.common.config.ConfigResource(
                    org.apache.kafka.common.config.ConfigResource.Type.TOPIC, appId + "-by-value-changelog");
            assertThat(KAFKA.admin()
                            .describeConfigs(List.of(resource))
                            .all()
                            .get()
                            .get(resource)
                            .get("cleanup.policy")
                            .value())
                    .isEqualTo("compact");
        }
    }
}
