package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.config.WeirConfig;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import io.weir.processor.Stores;
import io.weir.serde.Serdes;
import io.weir.state.KeyValueStore;
import io.weir.state.ReadOnlyKeyValueStore;
import io.weir.testing.TestApps;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Stateful topologies against a real broker: aggregations, repartitioning, restore, aborts. */
class StatefulIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static Topology wordCount(String input, String output) {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .flatMapValues(line -> Arrays.asList(line.toLowerCase().split("\\W+")))
                .filter((k, word) -> !word.isEmpty())
                .groupBy((k, word) -> word, Serdes.strings(), Serdes.strings())
                .count("word-counts")
                .toStream()
                .to(output, Serdes.strings(), Serdes.longs());
        return b.build();
    }

    private static Map<String, Long> modelWordCount(List<String> lines) {
        Map<String, Long> m = new TreeMap<>();
        for (String line : lines) {
            for (String w : line.toLowerCase().split("\\W+")) {
                if (!w.isEmpty()) {
                    m.merge(w, 1L, Long::sum);
                }
            }
        }
        return m;
    }

    private static List<io.weir.common.KeyValue<String, String>> lines(List<String> lines) {
        List<io.weir.common.KeyValue<String, String>> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            out.add(io.weir.common.KeyValue.of("line-" + i, lines.get(i)));
        }
        return out;
    }

    @Test
    void wordCountRepartitionsByWordAndCountsExactlyAcrossARestartWithLostLocalState() throws Exception {
        String input = KAFKA.uniqueTopic("lines", 3);
        String output = KAFKA.uniqueTopic("counts", 3);
        String appId = "wc-" + input;
        Path stateDir = Files.createTempDirectory("weir-wc-");
        List<String> batch1 = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            batch1.add("the quick brown fox " + (i % 7) + " jumps over the lazy dog " + (i % 13));
        }
        KAFKA.client().produceStrings(input, lines(batch1));
        Topology topology = wordCount(input, output);
        WeirConfig config = TestApps.config(KAFKA.bootstrapServers(), appId)
                .stateDir(stateDir)
                .instanceId("one")
                .build();

        Map<String, Long> expected1 = modelWordCount(batch1);
        try (WeirApp app = TestApps.start(topology, config)) {
            KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).equals(expected1), Duration.ofMinutes(1));
            // Local reads see the committed counts, across the instance's tasks, in key order. A commit
            // applies its writes to the stores read here after the transaction (step 5), so a reader of
            // the output can be there first: wait for the stores to catch up.
            ReadOnlyKeyValueStore<String, Long> store = app.store("word-counts");
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(store.get("fox")).isEqualTo(expected1.get("fox"));
                assertThat(store.get("no-such-word")).isNull();
                Map<String, Long> scanned = new java.util.LinkedHashMap<>();
                try (var it = store.all()) {
                    it.forEachRemaining(e -> scanned.put(e.key(), e.value()));
                }
                assertThat(scanned).isEqualTo(expected1);
                assertThat(new ArrayList<>(scanned.keySet())).isSorted();
            });
        }
        // Lose the local state: the store is rebuilt from its changelog and counting goes on exactly.
        deleteRecursively(stateDir.resolve(appId).resolve("one"));
        int changelogRecords = KAFKA.client()
                .readAllCommittedStrings(appId + "-word-counts-changelog", Duration.ofSeconds(30))
                .size();
        assertThat(changelogRecords).isGreaterThanOrEqualTo(expected1.size());
        List<String> batch2 = List.of("the end", "The Fox returns");
        KAFKA.client().produceStrings(input, lines(batch2));
        List<String> all = new ArrayList<>(batch1);
        all.addAll(batch2);
        Map<String, Long> expected2 = modelWordCount(all);
        try (WeirApp app = TestApps.start(topology, config)) {
            KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).equals(expected2), Duration.ofMinutes(1));
            double restored = app.meterRegistry().get("weir.restore.records").counters().stream()
                    .mapToDouble(c -> c.count())
                    .sum();
            assertThat(restored)
                    .as("records restored into the rebuilt store: the whole changelog")
                    .isEqualTo(changelogRecords);
        }
        // The whole output as committed, to its end: a read that stops at its first poll may hold only part of it.
        assertThat(Records.lastLongPerKey(KAFKA.client()
                        .readAllCommitted(
                                output,
                                new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                                new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                                Duration.ofSeconds(30))))
                .isEqualTo(expected2);
    }

    @Test
    void aCleanRestartRestoresNothingItAlreadyHas() throws Exception {
        String input = KAFKA.uniqueTopic("restart-in", 2);
        String output = KAFKA.uniqueTopic("restart-out", 2);
        String appId = "restart-" + input;
        Path stateDir = Files.createTempDirectory("weir-restart-");
        List<String> batch = List.of("a b c", "a b", "a");
        KAFKA.client().produceStrings(input, lines(batch));
        Topology topology = wordCount(input, output);
        WeirConfig config = TestApps.config(KAFKA.bootstrapServers(), appId)
                .stateDir(stateDir)
                .instanceId("one")
                .build();
        try (WeirApp app = TestApps.start(topology, config)) {
            KAFKA.client()
                    .readUntil(
                            output,
                            r -> Records.lastLongPerKey(r).equals(Map.of("a", 3L, "b", 2L, "c", 1L)),
                            Duration.ofMinutes(1));
        }
        KAFKA.client().produceStrings(input, lines(List.of("c")));
        try (WeirApp app = TestApps.start(topology, config)) {
            KAFKA.client()
                    .readUntil(
                            output,
                            r -> Records.lastLongPerKey(r).equals(Map.of("a", 3L, "b", 2L, "c", 2L)),
                            Duration.ofMinutes(1));
            double restored = app.meterRegistry().get("weir.restore.records").counters().stream()
                    .mapToDouble(c -> c.count())
                    .sum();
            assertThat(restored)
                    .as("a clean close flushed the store: nothing to replay")
                    .isZero();
        }
    }

    /**
     * Repartitioned records keep their original timestamps, so a replay of data older than the
     * broker's retention must not lose them to time-based deletion: repartition topics keep records
     * without a time limit, and what the downstream task committed is deleted from them instead.
     */
    @Test
    void repartitionTopicsKeepOldRecordsAndLoseWhatIsCommitted() throws Exception {
        // Input and output keep records without a time limit too, as a topic replayed from must: with the
        // broker's default (a week), its retention check deletes month-old records from them mid-test.
        String input = "purge-in-" + java.util.UUID.randomUUID();
        String output = "purge-out-" + java.util.UUID.randomUUID();
        KAFKA.createTopic(input, 2, Map.of("retention.ms", "-1"));
        KAFKA.createTopic(output, 2, Map.of("retention.ms", "-1"));
        String appId = "purge-" + input;
        long monthAgo =
                System.currentTimeMillis() - java.time.Duration.ofDays(30).toMillis();
        List<org.apache.kafka.clients.producer.ProducerRecord<byte[], byte[]>> old = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            old.add(new org.apache.kafka.clients.producer.ProducerRecord<>(
                    input,
                    null,
                    monthAgo + i,
                    ("line-" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    ("old " + (i % 5)).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
        KAFKA.client().send(old);
        WeirConfig config = TestApps.config(KAFKA.bootstrapServers(), appId)
                .instanceId("one")
                .set("repartition.purge.interval.ms", 200)
                .build();
        String repartition = appId + "-word-counts-repartition";
        try (WeirApp app = TestApps.start(wordCount(input, output), config)) {
            Map<String, Long> expected = modelWordCount(old.stream()
                    .map(r -> new String(r.value(), java.nio.charset.StandardCharsets.UTF_8))
                    .toList());
            KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).equals(expected), Duration.ofMinutes(1));
            var admin = KAFKA.client().admin();
            var resource = new org.apache.kafka.common.config.ConfigResource(
                    org.apache.kafka.common.config.ConfigResource.Type.TOPIC, repartition);
            assertThat(admin.describeConfigs(List.of(resource))
                            .all()
                            .get()
                            .get(resource)
                            .get("retention.ms")
                            .value())
                    .as("retention.ms of " + repartition)
                    .isEqualTo("-1");
            // A later commit (the next record) carries the purge of what the first commits covered.
            KAFKA.client().produceStrings(input, lines(List.of("new")));
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                var earliest = admin.listOffsets(Map.of(
                                new org.apache.kafka.common.TopicPartition(repartition, 0),
                                org.apache.kafka.clients.admin.OffsetSpec.earliest(),
                                new org.apache.kafka.common.TopicPartition(repartition, 1),
                                org.apache.kafka.clients.admin.OffsetSpec.earliest()))
                        .all()
                        .get();
                assertThat(earliest.values().stream().mapToLong(i -> i.offset()).sum())
                        .as("log start offsets of " + repartition + " (records deleted after their commit)")
                        .isPositive();
            });
        }
    }

    /** The worked example's keyed counter: a running sum per key of the second field. */
    @Test
    void keyedCounterEmitsOnlyTrueRunningSums() throws Exception {
        String input = KAFKA.uniqueTopic("counter-in", 3);
        String output = KAFKA.uniqueTopic("counter-out", 3);
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.longs(), input)
                .groupByKey()
                .reduce(Long::sum, "running-sums")
                .toStream()
                .to(output);
        List<io.weir.common.KeyValue<byte[], byte[]>> records = new ArrayList<>();
        Map<String, List<Long>> running = new HashMap<>();
        String[] keys = {"a", "b", "c"};
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 3000; i++) {
            String k = keys[random.nextInt(3)];
            long v = 1 + random.nextInt(3);
            List<Long> sums = running.computeIfAbsent(k, x -> new ArrayList<>());
            sums.add((sums.isEmpty() ? 0 : sums.get(sums.size() - 1)) + v);
            records.add(io.weir.common.KeyValue.of(k.getBytes(), Serdes.longs().serialize("t", v)));
        }
        KAFKA.client().produce(input, records);
        Map<String, Long> finalSums = new TreeMap<>();
        running.forEach((k, sums) -> finalSums.put(k, sums.get(sums.size() - 1)));
        try (WeirApp app = TestApps.start(
                b.build(),
                TestApps.config(KAFKA.bootstrapServers(), "counter-" + input).build())) {
            List<ConsumerRecord<byte[], byte[]>> out = KAFKA.client()
                    .readUntil(output, r -> Records.lastLongPerKey(r).equals(finalSums), Duration.ofMinutes(1));
            Map<String, Long> previous = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> r : out) {
                String k = new String(r.key());
                long sum = ByteBuffer.wrap(r.value()).getLong();
                assertThat(running.get(k))
                        .as("an emitted sum of %s is one of its true running sums", k)
                        .contains(sum);
                assertThat(sum).as("sums of %s only grow", k).isGreaterThan(previous.getOrDefault(k, 0L));
                previous.put(k, sum);
            }
        }
    }

    /** Counts per key in a store by hand, and throws on chosen records after counting them. */
    static final class FailingCounter implements Processor<String, String, String, Long> {
        private ProcessorContext<String, Long> context;
        private KeyValueStore<String, Long> store;

        @Override
        public void init(ProcessorContext<String, Long> context) {
            this.context = context;
            this.store = context.getStateStore("hand-counts");
        }

        @Override
        public void process(Record<String, String> record) {
            Long count = store.get(record.key());
            long updated = count == null ? 1 : count + 1;
            store.put(record.key(), updated);
            if (record.value().startsWith("bad")) {
                throw new IllegalStateException("bad record " + record.value());
            }
            context.forward(record.withValue(updated));
        }
    }

    @Test
    void anAbortedTransactionLeavesTheStoreAtItsCommittedState() throws Exception {
        String input = KAFKA.uniqueTopic("abort-state-in", 2);
        String output = KAFKA.uniqueTopic("abort-state-out", 2);
        TopologyBuilder b = new TopologyBuilder();
        b.addSource("in", Serdes.strings(), Serdes.strings(), input)
                .addProcessor("counter", FailingCounter::new, "in")
                .addStateStore(Stores.keyValueStore("hand-counts", Serdes.strings(), Serdes.longs()), "counter")
                .addSink("out", output, Serdes.strings(), Serdes.longs(), "counter");
        List<io.weir.common.KeyValue<String, String>> records = new ArrayList<>();
        Map<String, Long> expected = new TreeMap<>();
        for (int i = 0; i < 2000; i++) {
            String key = "k" + (i % 20);
            boolean bad = i % 97 == 0;
            records.add(io.weir.common.KeyValue.of(key, (bad ? "bad-" : "ok-") + i));
            if (!bad) {
                expected.merge(key, 1L, Long::sum);
            }
        }
        KAFKA.client().produceStrings(input, records);
        try (WeirApp app = TestApps.start(
                b.build(),
                TestApps.config(KAFKA.bootstrapServers(), "abort-state-" + input)
                        .build())) {
            KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).equals(expected), Duration.ofMinutes(1));
            assertThat(KAFKA.client().readAtLeast(app.config().deadLetterTopic(), 21, Duration.ofSeconds(30)))
                    .hasSize(21);
        }
    }

    private static void deleteRecursively(Path dir) throws java.io.IOException {
        if (!Files.exists(dir)) {
            throw new AssertionError("expected state in " + dir);
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        }
    }
    /** Remembers the last value per key for a while; forwards what it remembered before. */
    static final class Remember implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> context;
        private KeyValueStore<String, String> store;

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
            this.store = context.getStateStore("recent");
        }

        @Override
        public void process(Record<String, String> record) {
            String before = store.get(record.key());
            store.put(record.key(), record.value());
            context.forward(record.withValue(before == null ? "none" : before));
        }
    }

    @Test
    void entriesOfAStoreWithTtlExpireAndTheirRemovalIsLogged() throws Exception {
        String input = KAFKA.uniqueTopic("ttl-in", 1);
        String output = KAFKA.uniqueTopic("ttl-out", 1);
        String appId = "ttl-" + input;
        TopologyBuilder b = new TopologyBuilder();
        b.addSource("in", Serdes.strings(), Serdes.strings(), input)
                .addProcessor("remember", Remember::new, "in")
                .addStateStore(
                        Stores.keyValueStore("recent", Serdes.strings(), Serdes.strings())
                                .inMemory()
                                .withTtl(Duration.ofMillis(300)),
                        "remember")
                .addSink("out", output, Serdes.strings(), Serdes.strings(), "remember");
        try (WeirApp app = TestApps.start(
                b.build(), TestApps.config(KAFKA.bootstrapServers(), appId).build())) {
            KAFKA.client()
                    .produceStrings(
                            input,
                            List.of(io.weir.common.KeyValue.of("k", "v1"), io.weir.common.KeyValue.of("k", "v2")));
            assertThat(KAFKA.client().readStringsAtLeast(output, 2, Duration.ofSeconds(30)))
                    .extracting(ConsumerRecord::value)
                    .containsExactly("none", "v1");
            ReadOnlyKeyValueStore<String, String> recent = app.store("recent");
            await().atMost(Duration.ofSeconds(30)).until(() -> recent.get("k") == null);
            KAFKA.client().produceStrings(input, List.of(io.weir.common.KeyValue.of("k", "v3")));
            assertThat(KAFKA.client().readStringsAtLeast(output, 3, Duration.ofSeconds(30)))
                    .extracting(ConsumerRecord::value)
                    .containsExactly("none", "v1", "none");
            // The sweep deletes expired entries through the changelog: a tombstone follows v2.
            List<ConsumerRecord<String, String>> log = KAFKA.client()
                    .readStringsUntil(
                            appId + "-recent-changelog",
                            r -> r.stream().anyMatch(x -> x.value() == null),
                            Duration.ofSeconds(30));
            assertThat(log).anyMatch(x -> x.value() == null);
        }
    }
}
