package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.dsl.Emit;
import io.weir.dsl.TimeWindows;
import io.weir.serde.Serdes;
import io.weir.testing.TestApps;
import io.weir.testkit.KafkaExtension;
import io.weir.time.Timestamps;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Event time against a real broker: a silent partition holds the watermark (and so every window)
 * back until {@code idle.timeout.ms}, late records land in the late-records topic with their
 * window and watermark, and records without a usable time are dead-lettered with the reason.
 */
class TimeAndWindowsIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    // Recent times: records older than the broker's retention (a week) would be deleted mid-test.
    private static final long BASE = java.time.Instant.now()
            .minus(java.time.Duration.ofHours(2))
            .truncatedTo(java.time.temporal.ChronoUnit.HOURS)
            .toEpochMilli();

    /** Counts per key in 1 s tumbling windows, emitted on close, as "key@start" -> count. */
    private static Topology windowedCount(String output, String... inputs) {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), inputs)
                .groupByKey()
                .windowedBy(TimeWindows.of(Duration.ofSeconds(1)))
                .emit(Emit.onWindowClose())
                .count("counts")
                .map((w, c) -> KeyValue.of(w.key() + "@" + (w.start() - BASE), c))
                .to(output, Serdes.strings(), Serdes.longs());
        return b.build();
    }

    private static List<ProducerRecord<byte[], byte[]>> onPartition(String topic, int partition, long... offsetsMs) {
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (long t : offsetsMs) {
            out.add(new ProducerRecord<>(topic, partition, BASE + t, bytes("k"), bytes("v" + t)));
        }
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static Map<String, Long> windows(List<ConsumerRecord<byte[], byte[]>> records) {
        Map<String, Long> m = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            m.put(
                    new String(r.key(), StandardCharsets.UTF_8),
                    java.nio.ByteBuffer.wrap(r.value()).getLong());
        }
        return m;
    }

    /** Waits until the application committed every input record (processed them all). */
    private static void awaitCommitted(String appId, String topic, int partition, long endOffset) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    Map<TopicPartition, OffsetAndMetadata> c = KAFKA.admin()
                            .listConsumerGroupOffsets(appId)
                            .partitionsToOffsetAndMetadata()
                            .get();
                    OffsetAndMetadata o = c.get(new TopicPartition(topic, partition));
                    return o != null && o.offset() >= endOffset;
                });
    }

    @Test
    void aSilentPartitionStallsWindowsUntilItIsIdle() throws Exception {
        // A task reads partition 0 of both topics (as a merge or a join of two topics does); only
        // "clicks" gets records, "views" stays silent.
        String clicks = KAFKA.uniqueTopic("idle-clicks", 1);
        String views = KAFKA.uniqueTopic("idle-views", 1);
        String stalledOut = KAFKA.uniqueTopic("idle-stalled-out", 1);
        String releasedOut = KAFKA.uniqueTopic("idle-released-out", 1);
        KAFKA.client().send(onPartition(clicks, 0, 100, 600, 1200, 2500, 3100));

        // With a long idle timeout the silent partition holds every window back, though the other
        // has moved three windows on and all its records are processed.
        String stalledApp = "idle-stalled-" + clicks;
        try (WeirApp app = TestApps.start(
                windowedCount(stalledOut, clicks, views),
                TestApps.config(KAFKA.bootstrapServers(), stalledApp)
                        .set("idle.timeout.ms", 3_600_000)
                        .build())) {
            awaitCommitted(stalledApp, clicks, 0, 5);
            // The offsets are committed in the same transaction as any output: nothing was emitted.
            assertThat(KAFKA.client()
                            .readAllCommitted(
                                    stalledOut,
                                    new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                                    new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                                    Duration.ofSeconds(30)))
                    .isEmpty();
        }

        // With a short idle timeout the silent partition stops holding it back.
        String releasedApp = "idle-released-" + clicks;
        try (WeirApp app = TestApps.start(
                windowedCount(releasedOut, clicks, views),
                TestApps.config(KAFKA.bootstrapServers(), releasedApp)
                        .set("idle.timeout.ms", 500)
                        .build())) {
            var out = readCommittedAtLeast(releasedOut, 3);
            assertThat(windows(out)).isEqualTo(Map.of("k@0", 2L, "k@1000", 1L, "k@2000", 1L));
        }
    }

    @Test
    void recordsLaterThanTheAllowedLatenessGoToTheLateTopicWithTheirWindowAndWatermark() throws Exception {
        String input = KAFKA.uniqueTopic("late-in", 1);
        String output = KAFKA.uniqueTopic("late-out", 1);
        String appId = "late-" + input;
        // 100 and 1200, then 2300 moves the watermark to 2300: [0,1000) and [1000,2000) close.
        // 900 is late for [0,1000), 1500 late for [1000,2000); 2100 is on time.
        KAFKA.client().send(onPartition(input, 0, 100, 1200, 2300, 900, 1500, 2100, 5000));
        try (WeirApp app = TestApps.start(
                windowedCount(output, input),
                TestApps.config(KAFKA.bootstrapServers(), appId).build())) {
            var out = readCommittedAtLeast(output, 3);
            assertThat(windows(out)).isEqualTo(Map.of("k@0", 1L, "k@1000", 1L, "k@2000", 2L));
            List<ConsumerRecord<String, String>> late =
                    KAFKA.client().readStringsAtLeast(appId + "-late", 2, Duration.ofSeconds(60));
            assertThat(late).extracting(ConsumerRecord::value).containsExactly("v900", "v1500");
            ConsumerRecord<String, String> first = late.get(0);
            assertThat(header(first, "weir.late.window.start")).isEqualTo(Long.toString(BASE));
            assertThat(header(first, "weir.late.window.end")).isEqualTo(Long.toString(BASE + 1000));
            assertThat(header(first, "weir.late.watermark")).isEqualTo(Long.toString(BASE + 2300));
            assertThat(header(first, "weir.late.operator")).isEqualTo("counts");
            assertThat(header(first, "weir.source.offset")).isEqualTo("3");
            assertThat(first.timestamp()).isEqualTo(BASE + 900);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> app.meterRegistry().find("weir.records.late").counters().stream()
                                    .mapToDouble(c -> c.count())
                                    .sum()
                            == 2.0);
            // The watermark is the last record's time, BASE + 5000 (no out-of-orderness allowed), and the
            // gauge is the wall clock at its reading minus it: between the clock before and after the read.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                long before = System.currentTimeMillis();
                double lag =
                        app.meterRegistry().get("weir.watermark.lag").gauge().value();
                long after = System.currentTimeMillis();
                assertThat(lag).isBetween((double) (before - BASE - 5000), (double) (after - BASE - 5000));
            });
        }
    }

    @Test
    void countWindowsEmitWhenFullAndAWindowThatNeverFillsClosesByItsTimeout() throws Exception {
        String input = KAFKA.uniqueTopic("count-windows-in", 1);
        String output = KAFKA.uniqueTopic("count-windows-out", 1);
        String appId = "count-windows-" + input;
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .groupByKey()
                .windowedBy(io.weir.dsl.CountWindows.of(3).timeout(Duration.ofSeconds(10)))
                .count("batches")
                .map((w, c) -> KeyValue.of(w.key() + "@" + (w.start() - BASE) + "-" + (w.end() - BASE), c))
                .to(output, Serdes.strings(), Serdes.longs());
        // Seven records of "k": two full windows, the seventh alone; then a record 20 s later (of
        // another key) moves the watermark past the seventh's time-out.
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(onPartition(input, 0, 0, 1, 2, 3, 4, 5, 6));
        records.add(new ProducerRecord<>(input, 0, BASE + 20_000, bytes("other"), bytes("x")));
        KAFKA.client().send(records);
        try (WeirApp app = TestApps.start(
                b.build(), TestApps.config(KAFKA.bootstrapServers(), appId).build())) {
            var out = readCommittedAtLeast(output, 3);
            assertThat(windows(out)).isEqualTo(Map.of("k@0-2", 3L, "k@3-5", 3L, "k@6-6", 1L));
            assertThat(out).extracting(r -> header(r, "weir.pane")).containsExactly("final", "final", "timeout");
        }
    }

    @Test
    void aRecordWithoutAUsableTimeIsDeadLetteredWithTheReason() throws Exception {
        String input = KAFKA.uniqueTopic("bad-time-in", 1);
        String output = KAFKA.uniqueTopic("bad-time-out", 1);
        String appId = "bad-time-" + input;
        TopologyBuilder b = new TopologyBuilder();
        // Event time from the value: "<millis>"; "-5" is negative, "soon" is not a number. The good
        // times are recent: the output records carry them, and the broker's one-week retention would
        // delete records of 1970 from the output topic before the test reads them.
        b.stream(Serdes.strings(), Serdes.strings(), Timestamps.eventTime(Long::parseLong), input)
                .to(output);
        KAFKA.client()
                .produceStrings(
                        input,
                        List.of(
                                io.weir.common.KeyValue.of("a", Long.toString(BASE + 1000)),
                                io.weir.common.KeyValue.of("b", "-5"),
                                io.weir.common.KeyValue.of("c", "soon"),
                                io.weir.common.KeyValue.of("d", Long.toString(BASE + 2000))));
        try (WeirApp app = TestApps.start(
                b.build(), TestApps.config(KAFKA.bootstrapServers(), appId).build())) {
            var out = KAFKA.client().readStringsAtLeast(output, 2, Duration.ofSeconds(60));
            assertThat(out).extracting(ConsumerRecord::timestamp).containsExactly(BASE + 1000, BASE + 2000);
            var dlq = KAFKA.client().readStringsAtLeast(appId + "-dlq", 2, Duration.ofSeconds(60));
            assertThat(dlq).extracting(ConsumerRecord::key).containsExactly("b", "c");
            assertThat(dlq)
                    .allSatisfy(r -> assertThat(header(r, "weir.error.stage")).isEqualTo("timestamp"));
            assertThat(header(dlq.get(0), "weir.error.message")).contains("-5", "0 or more");
            assertThat(header(dlq.get(1), "weir.error.class")).isEqualTo(NumberFormatException.class.getName());
            assertThat(header(dlq.get(1), "weir.error.message")).contains("soon");
        }
    }

    /** Reads {@code topic} as a downstream consumer would (read committed) until it holds {@code count} records. */
    private static List<ConsumerRecord<byte[], byte[]>> readCommittedAtLeast(String topic, int count) {
        return KAFKA.client()
                .readUntil(
                        topic,
                        new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                        new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                        org.apache.kafka.common.IsolationLevel.READ_COMMITTED,
                        all -> all.size() >= count,
                        Duration.ofSeconds(60));
    }

    private static String header(ConsumerRecord<?, ?> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    @Test
    void closedWindowsKeptForQueriesAreReadOverHttpAndRestoredFromTheChangelog() throws Exception {
        String input = KAFKA.uniqueTopic("retained-in", 1);
        String output = KAFKA.uniqueTopic("retained-out", 1);
        String appId = "retained-" + input;
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .groupByKey()
                .windowedBy(TimeWindows.of(Duration.ofSeconds(1)).retainFor(Duration.ofMinutes(1)))
                .count("counts")
                .to(output);
        Topology topology = b.build();
        // [0,1000) and [1000,2000) close when 5000 arrives; kept for a minute past their ends.
        KAFKA.client().send(onPartition(input, 0, 100, 500, 1200, 5000));
        Map<Long, Long> expected = Map.of(BASE, 2L, BASE + 1000, 1L, BASE + 5000, 1L);

        try (WeirApp app = TestApps.start(
                topology, TestApps.config(KAFKA.bootstrapServers(), appId).build())) {
            awaitCommitted(appId, input, 0, 4);
            assertThat(windowsOverHttp(app)).isEqualTo(expected);
        }
        String changelog = appId + "-counts-changelog";
        var configs = KAFKA.admin()
                .describeConfigs(List.of(new org.apache.kafka.common.config.ConfigResource(
                        org.apache.kafka.common.config.ConfigResource.Type.TOPIC, changelog)))
                .all()
                .get()
                .values()
                .iterator()
                .next();
        assertThat(configs.get("retention.ms").value())
                .as("the retention, the window size and window.changelog.additional.retention.ms (a day)")
                .isEqualTo(Long.toString(60_000 + 1_000 + 86_400_000));

        // Another instance with empty state (a new state directory) restores the kept windows.
        try (WeirApp app = TestApps.start(
                topology, TestApps.config(KAFKA.bootstrapServers(), appId).build())) {
            await().atMost(Duration.ofSeconds(60))
                    .ignoreExceptions()
                    .untilAsserted(() -> assertThat(windowsOverHttp(app)).isEqualTo(expected));
        }
    }

    /** The windows of key "k" in store "counts", start to count, as GET /stores/counts/keys/k/windows answers. */
    private static Map<Long, Long> windowsOverHttp(WeirApp app) {
        io.weir.query.QueryAnswer answer = io.weir.query.StoreQueryClient.builder()
                .endpoint("http://127.0.0.1:" + app.httpPort().orElseThrow())
                .build()
                .windows("counts", "k", BASE, BASE + 60_000);
        Map<Long, Long> windows = new HashMap<>();
        answer.body()
                .path("windows")
                .forEach(w ->
                        windows.put(w.path("start").asLong(), w.path("value").asLong()));
        return windows;
    }
}
