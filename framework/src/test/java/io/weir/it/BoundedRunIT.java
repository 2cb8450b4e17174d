package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.weir.BoundedRunSummary;
import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.dsl.RecordStream;
import io.weir.dsl.TimeWindows;
import io.weir.serde.Serdes;
import io.weir.testing.BoundedApp;
import io.weir.testing.TestApps;
import io.weir.testkit.ChildJvm;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bounded runs ({@code run.mode=bounded}) against a real broker: the committed output equals a
 * streaming run's on the same input (a repartitioned windowed count and a plain count), an empty
 * range ends at once, {@code bounded.until} stops each partition at its first later record, and a
 * main ending in {@code runUntilShutdown()} exits 0.
 */
class BoundedRunIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    /**
     * Event time starts two hours ago, on a whole hour (windows are aligned to the epoch). Not a
     * fixed date: a topic deletes segments whose newest record is older than its {@code retention.ms}
     * (a week by default) whenever the broker's retention check runs, first 30 s after it starts,
     * so records timestamped years ago vanished from the input, repartition and output topics
     * part-way through the test. Two hours back, the markers an hour later are still in the past.
     */
    private static final long BASE = Instant.now()
            .minus(Duration.ofHours(2))
            .truncatedTo(ChronoUnit.HOURS)
            .toEpochMilli();

    private static final Duration DEADLINE = Duration.ofSeconds(40);

    /** Counts per key (plain) and per value in 1 s windows (through a repartition topic). */
    private static Topology countsAndWindows(String input, String plainOut, String windowOut) {
        TopologyBuilder b = new TopologyBuilder();
        RecordStream<String, String> in = b.stream(Serdes.strings(), Serdes.strings(), input);
        in.groupByKey().count("plain").toStream().to(plainOut, Serdes.strings(), Serdes.longs());
        in.groupBy((k, v) -> v, Serdes.strings())
                .windowedBy(TimeWindows.of(Duration.ofSeconds(1)))
                .count("windows")
                .map((w, c) -> KeyValue.of(w.key() + "@" + (w.start() - BASE), c))
                .to(windowOut, Serdes.strings(), Serdes.longs());
        return b.build();
    }

    /**
     * Records reach a repartition partition from several upstream tasks, interleaved as they run:
     * with no out-of-orderness allowed some would be late, differently in each run. Allowing more
     * than the input's event-time span makes the results depend on the input alone.
     */
    private static io.weir.config.WeirConfig.Builder config(String appId) {
        return TestApps.config(KAFKA.bootstrapServers(), appId).set("max.out.of.orderness.ms", 60_000);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static Map<String, Long> committed(String topic) {
        return Records.lastLongPerKey(KAFKA.client()
                .readAllCommitted(topic, new ByteArrayDeserializer(), new ByteArrayDeserializer(), DEADLINE));
    }

    private static Map<String, Long> withoutMarkers(Map<String, Long> results) {
        Map<String, Long> m = new TreeMap<>(results);
        m.keySet().removeIf(k -> k.startsWith("marker"));
        return m;
    }

    @Test
    void boundedOutputEqualsAStreamingRunOfTheSameTopologyWindowsIncluded() throws Exception {
        String input = KAFKA.uniqueTopic("bounded-in", 3);
        String plain = KAFKA.uniqueTopic("bounded-plain", 3);
        String windows = KAFKA.uniqueTopic("bounded-windows", 3);
        Map<String, Long> plainModel = new TreeMap<>();
        Map<String, Long> windowModel = new TreeMap<>();
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        int n = 3000;
        for (int i = 0; i < n; i++) {
            String key = "u" + (i % 50);
            String word = "w" + (i * 7 % 20);
            long t = i * 10L; // 30 s of event time: 30 windows of 1 s per word
            records.add(new ProducerRecord<>(input, null, BASE + t, bytes(key), bytes(word)));
            plainModel.merge(key, 1L, Long::sum);
            windowModel.merge(word + "@" + (t / 1000 * 1000), 1L, Long::sum);
        }
        KAFKA.client().send(records);

        String boundedApp = "bounded-" + input;
        BoundedRunSummary summary;
        try (WeirApp app = WeirApp.create(
                countsAndWindows(input, plain, windows),
                config(boundedApp)
                        .set("run.mode", "bounded")
                        .set("num.stream.threads", 2)
                        .build())) {
            summary = app.runBounded();
            assertThat(app.state()).isEqualTo(WeirApp.State.STOPPED);
        }
        assertThat(summary.inputRecords()).isEqualTo(n);
        assertThat(summary.repartitionRecords()).isEqualTo(n);
        // The watermark trails the input by 60 s: every window fired only when the input ended.
        assertThat(summary.sentAtEnd()).isEqualTo(windowModel.size());
        assertThat(summary.endOffsets().get(input).stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .isEqualTo(n);
        Map<String, Long> boundedPlain = committed(plain);
        Map<String, Long> boundedWindows = committed(windows);
        assertThat(boundedPlain).isEqualTo(plainModel);
        assertThat(boundedWindows).isEqualTo(windowModel);
        // Each thread's consumer leaves on close, and the close removes any member whose consumer was
        // still joining: once runBounded returned, the group is empty (well before a session timeout).
        assertThat(KAFKA.admin()
                        .describeConsumerGroups(List.of(boundedApp))
                        .all()
                        .get()
                        .get(boundedApp)
                        .members())
                .as("the bounded run left the group")
                .isEmpty();

        // Again, bounded, under the same id: nothing between the committed offsets and the ends, so
        // the run returns without waiting for input (the deadline only fails a run that hangs).
        long start = System.nanoTime();
        try (WeirApp app = WeirApp.create(
                countsAndWindows(input, plain, windows),
                config(boundedApp).set("run.mode", "bounded").build())) {
            BoundedRunSummary empty = assertTimeoutPreemptively(Duration.ofMinutes(2), app::runBounded);
            assertThat(empty.inputRecords()).isZero();
            assertThat(empty.repartitionRecords()).isZero();
            assertThat(empty.sentAtEnd()).isZero();
        }
        System.out.printf(
                "FIGURE bounded_rerun_with_nothing_to_do_ms=%d%n",
                Duration.ofNanos(System.nanoTime() - start).toMillis());
        assertThat(committed(plain)).isEqualTo(boundedPlain);
        assertThat(committed(windows)).isEqualTo(boundedWindows);

        // Streaming, same topology and input: once it has processed the whole input, far later
        // records (the markers) move its watermarks past every window, as the end of input does in
        // the bounded run. They come last so that no record of the input is late; they are left out
        // of the comparison.
        String streamingPlain = KAFKA.uniqueTopic("streaming-plain", 3);
        String streamingWindows = KAFKA.uniqueTopic("streaming-windows", 3);
        String streamingApp = "streaming-" + input;
        try (WeirApp app = TestApps.start(
                countsAndWindows(input, streamingPlain, streamingWindows),
                config(streamingApp).build())) {
            awaitInputCommitted(streamingApp, input);
            List<ProducerRecord<byte[], byte[]>> markers = new ArrayList<>();
            for (int j = 0; j < 12; j++) { // values spread over every repartition partition
                markers.add(
                        new ProducerRecord<>(input, j % 3, BASE + 3_600_000, bytes("marker" + j), bytes("marker" + j)));
            }
            KAFKA.client().send(markers);
            await().atMost(DEADLINE).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
                assertThat(withoutMarkers(committed(streamingPlain))).isEqualTo(boundedPlain);
                assertThat(withoutMarkers(committed(streamingWindows))).isEqualTo(boundedWindows);
            });
        }
        // Closing commits nothing that changes them.
        assertThat(withoutMarkers(committed(streamingPlain))).isEqualTo(boundedPlain);
        assertThat(withoutMarkers(committed(streamingWindows))).isEqualTo(boundedWindows);
    }

    /**
     * Until the app has committed every input partition at its end offset: every record of the
     * input is processed, and what it sent to the repartition topic is committed ahead of anything
     * sent later. (The input is written without transactions: no commit marker follows its last
     * record, so the committed offset reaches the end offset exactly.)
     */
    private static void awaitInputCommitted(String appId, String input) {
        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
            Map<TopicPartition, OffsetAndMetadata> offsets = KAFKA.admin()
                    .listConsumerGroupOffsets(appId)
                    .partitionsToOffsetAndMetadata()
                    .get();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < 3; p++) {
                latest.put(new TopicPartition(input, p), OffsetSpec.latest());
            }
            Map<Integer, Long> ends = new TreeMap<>();
            Map<Integer, Long> committed = new TreeMap<>();
            KAFKA.admin().listOffsets(latest).all().get().forEach((tp, info) -> {
                ends.put(tp.partition(), info.offset());
                committed.put(
                        tp.partition(),
                        offsets.containsKey(tp) ? offsets.get(tp).offset() : -1L);
            });
            assertThat(committed)
                    .as("committed offsets of the input partitions")
                    .isEqualTo(ends);
        });
    }

    @Test
    void aBoundedRunOverAnEmptyTopicReturnsWithoutWaitingForInput() throws Exception {
        String input = KAFKA.uniqueTopic("bounded-empty-in", 2);
        String plain = KAFKA.uniqueTopic("bounded-empty-plain", 2);
        String windows = KAFKA.uniqueTopic("bounded-empty-windows", 2);
        long start = System.nanoTime();
        try (WeirApp app = WeirApp.create(
                countsAndWindows(input, plain, windows),
                TestApps.config(KAFKA.bootstrapServers(), "bounded-empty-" + input)
                        .set("run.mode", "bounded")
                        .build())) {
            // The deadline only fails a run that hangs waiting for input that never comes.
            BoundedRunSummary summary = assertTimeoutPreemptively(Duration.ofMinutes(2), app::runBounded);
            assertThat(summary.inputRecords()).isZero();
            assertThat(summary.endOffsets().get(input)).containsExactly(0L, 0L);
        }
        System.out.printf(
                "FIGURE bounded_run_over_empty_topic_ms=%d%n",
                Duration.ofNanos(System.nanoTime() - start).toMillis());
    }

    @Test
    void recordsAfterBoundedUntilAreNeitherProcessedNorCommitted() throws Exception {
        String input = KAFKA.uniqueTopic("bounded-until-in", 1);
        String plain = KAFKA.uniqueTopic("bounded-until-plain", 1);
        String windows = KAFKA.uniqueTopic("bounded-until-windows", 1);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            records.add(new ProducerRecord<>(input, 0, BASE + i * 1000L, bytes("k"), bytes("w")));
        }
        KAFKA.client().send(records);
        String appId = "bounded-until-" + input;
        BoundedRunSummary summary;
        try (WeirApp app = WeirApp.create(
                countsAndWindows(input, plain, windows),
                TestApps.config(KAFKA.bootstrapServers(), appId)
                        .set("run.mode", "bounded")
                        .set("bounded.until", Instant.ofEpochMilli(BASE + 4500).toString())
                        .build())) {
            summary = app.runBounded();
        }
        // 0..4000 are processed; 5000 is the first later record: the partition ends there.
        assertThat(summary.inputRecords()).isEqualTo(5);
        assertThat(summary.endOffsets().get(input)).containsExactly(5L);
        assertThat(committed(plain)).isEqualTo(Map.of("k", 5L));
        // Event time ends at the instant: [4000, 5000) is still open, the earlier windows fired.
        assertThat(committed(windows)).isEqualTo(Map.of("w@0", 1L, "w@1000", 1L, "w@2000", 1L, "w@3000", 1L));
        OffsetAndMetadata offset = KAFKA.admin()
                .listConsumerGroupOffsets(appId)
                .partitionsToOffsetAndMetadata()
                .get()
                .get(new TopicPartition(input, 0));
        assertThat(offset.offset()).isEqualTo(5);
    }

    @Test
    void aMainEndingInRunUntilShutdownExitsZeroWhenBounded() throws Exception {
        String input = KAFKA.uniqueTopic("bounded-main-in", 2);
        String output = KAFKA.uniqueTopic("bounded-main-out", 2);
        List<io.weir.common.KeyValue<String, String>> records = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            records.add(io.weir.common.KeyValue.of("k" + i, "v" + (i % 5)));
        }
        KAFKA.client().produceStrings(input, records);
        try (ChildJvm main = ChildJvm.builder(BoundedApp.class)
                .args(
                        KAFKA.bootstrapServers(),
                        input,
                        output,
                        Files.createTempDirectory("weir-bounded-main-").toString(),
                        "bounded-main-" + input)
                .env("WEIR_RUN_MODE", "bounded")
                .jvmOptions("-Xmx256m", "-XX:+UseSerialGC")
                .quietLogging()
                .start()) {
            assertThat(main.awaitExit(DEADLINE)).as(main.outputTail(30)).isZero();
            assertThat(main.output()).contains("MAIN RETURNED");
        }
        assertThat(committed(output)).isEqualTo(Map.of("v0", 100L, "v1", 100L, "v2", 100L, "v3", 100L, "v4", 100L));
    }
}
