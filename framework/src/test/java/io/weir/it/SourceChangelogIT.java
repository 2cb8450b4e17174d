package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.common.KeyValue;
import io.weir.testing.CrashApps;
import io.weir.testing.JoinsApp;
import io.weir.testing.Outputs;
import io.weir.testing.WindowCrashes;
import io.weir.testkit.ChildJvm;
import io.weir.testkit.KafkaExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Tables read from compacted topics use them as their changelogs ({@link JoinsApp} with its
 * {@code -customers} and {@code -limits} topics compacted), on a real broker, across SIGKILLs:
 * no {@code <store>-changelog} topic is created for them; every order is enriched exactly once
 * with its customer's region; the re-keyed count of customers per region and the table-table join
 * end equal to a model of the input, which they would not if a restore had read the source topic
 * beyond the committed input offset (a change reprocessed against a store already holding it
 * subtracts the wrong old value); a limit the serde cannot read goes to the dead-letter topic
 * exactly once and never into the store (a restore that took it would fail the join); and a last
 * run on an empty state directory rebuilds the tables from their topics and ends the same.
 */
class SourceChangelogIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int PARTITIONS = 4;
    private static final int STABLE = 200;
    private static final int CUSTOMERS = 400;
    private static final int REGIONS = 7;
    private static final int ORDERS = 30_000;
    private static final int MOVES = 10_000;
    private static final String BAD_CUSTOMER = "c" + (CUSTOMERS - 1);
    private static final long BASE =
            java.time.Instant.now().minus(Duration.ofHours(2)).toEpochMilli();

    @Test
    void tablesOfCompactedTopicsRestoreFromThemExactlyAcrossSigkills() throws Exception {
        String prefix = "srccl-" + Long.toHexString(System.nanoTime());
        Map<String, String> compacted = Map.of("cleanup.policy", "compact");
        KAFKA.client().createTopic(prefix + "-customers", PARTITIONS, compacted);
        KAFKA.client().createTopic(prefix + "-limits", PARTITIONS, compacted);
        KAFKA.client().createTopic(prefix + "-region-names", 3, compacted); // JoinsApp's foreign-key join
        for (String t : List.of(
                "orders",
                "payments",
                "enriched",
                "customer-limits",
                "region-counts",
                "paid",
                "customer-region-names",
                "customer-region-names-left")) {
            KAFKA.client().createTopic(prefix + "-" + t, PARTITIONS);
        }
        String appId = "srccl-" + prefix;
        Path stateDir = Files.createTempDirectory("weir-srccl-");
        long seed = System.nanoTime();
        Random random = new Random(seed);

        Map<String, String> regions = new TreeMap<>();
        Map<String, Long> limits = new TreeMap<>();
        List<KeyValue<String, String>> customers = new ArrayList<>();
        List<KeyValue<byte[], byte[]>> limitRecords = new ArrayList<>();
        for (int i = 0; i < CUSTOMERS; i++) {
            String region = "r" + random.nextInt(REGIONS);
            regions.put("c" + i, region);
            customers.add(KeyValue.of("c" + i, region));
            limits.put("c" + i, 1_000L + i);
            limitRecords.add(longRecord("c" + i, 1_000L + i));
        }
        KAFKA.client().produceStrings(prefix + "-customers", customers);
        KAFKA.client().produce(prefix + "-limits", limitRecords);

        try (ChildJvm app = start(prefix, stateDir, appId)) {
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(200))
                    .until(
                            () -> Outputs.lastPerKey(KAFKA.client(), prefix + "-region-counts", new LongDeserializer())
                                            .values()
                                            .stream()
                                            .mapToLong(Long::longValue)
                                            .sum()
                                    == CUSTOMERS);
            app.kill();
        }
        Set<String> topics = KAFKA.client().admin().listTopics().names().get();
        assertThat(topics)
                .as("no second copy of a compacted source topic")
                .doesNotContain(
                        appId + "-customers-changelog", appId + "-limits-changelog", appId + "-region-names-changelog")
                .contains(appId + "-customers-per-region-changelog", appId + "-customer-limits-changelog");

        List<KeyValue<String, String>> moves = new ArrayList<>();
        List<KeyValue<byte[], byte[]>> limitChanges = new ArrayList<>();
        for (int i = 0; i < MOVES; i++) {
            String customer = "c" + (STABLE + random.nextInt(CUSTOMERS - STABLE));
            int dice = random.nextInt(100);
            if (i == MOVES / 2) {
                // a limit the table's serde cannot read: dead-lettered, the row keeps its limit
                limitChanges.add(KeyValue.of(
                        BAD_CUSTOMER.getBytes(StandardCharsets.UTF_8), "bad".getBytes(StandardCharsets.UTF_8)));
            } else if (dice < 15) {
                regions.remove(customer);
                moves.add(KeyValue.of(customer, null));
            } else if (dice < 85) {
                String region = "r" + random.nextInt(REGIONS);
                regions.put(customer, region);
                moves.add(KeyValue.of(customer, region));
            } else {
                long limit = random.nextInt(10_000);
                limits.put(customer, limit);
                limitChanges.add(longRecord(customer, limit));
            }
        }
        List<ProducerRecord<byte[], byte[]>> orders = new ArrayList<>();
        List<ProducerRecord<byte[], byte[]>> payments = new ArrayList<>();
        Map<String, String> expectedOrders = new HashMap<>();
        for (int i = 0; i < ORDERS; i++) {
            String customer = "c" + random.nextInt(STABLE);
            orders.add(record(prefix + "-orders", null, BASE + i * 10L, customer, "o" + i));
            expectedOrders.put("o" + i, regions.get(customer));
        }
        for (int p = 0; p < PARTITIONS; p++) {
            long end = BASE + ORDERS * 10L + 60_000;
            orders.add(record(prefix + "-orders", p, end, "flush", "flush-o" + p));
            payments.add(record(prefix + "-payments", p, end, "flush-p" + p, "flush"));
        }
        KAFKA.client().produceStrings(prefix + "-customers", moves);
        KAFKA.client().produce(prefix + "-limits", limitChanges);
        KAFKA.client().send(orders);
        KAFKA.client().send(payments);

        WindowCrashes.killWhileWindowsAreOpen(
                () -> start(prefix, stateDir, appId), KAFKA.client(), prefix + "-enriched", 2, random, ORDERS);

        Map<String, Long> regionCounts = new TreeMap<>();
        for (int i = 0; i < REGIONS; i++) {
            regionCounts.put("r" + i, 0L);
        }
        regions.values().forEach(r -> regionCounts.merge(r, 1L, Long::sum));
        Map<String, String> customerLimits = new TreeMap<>();
        regions.forEach((c, r) -> customerLimits.put(c, r + ":" + limits.get(c)));
        try (ChildJvm app = start(prefix, stateDir, appId)) {
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> {
                        assertThat(app.isAlive())
                                .as("the app runs:\n%s", app.outputTail(40))
                                .isTrue();
                        assertThat(Outputs.committed(KAFKA.client(), prefix + "-enriched", new StringDeserializer()))
                                .as("enriched orders")
                                .hasSizeGreaterThanOrEqualTo(ORDERS);
                        assertThat(Outputs.lastPerKey(
                                        KAFKA.client(), prefix + "-region-counts", new LongDeserializer()))
                                .as("region counts (seed %d)", seed)
                                .isEqualTo(regionCounts);
                        assertThat(Outputs.present(Outputs.lastPerKey(
                                        KAFKA.client(), prefix + "-customer-limits", new StringDeserializer())))
                                .as("customer limits (seed %d)", seed)
                                .isEqualTo(customerLimits);
                    });
            app.terminate();
        }

        Map<String, String> enriched = new HashMap<>();
        List<String> duplicates = new ArrayList<>();
        for (ConsumerRecord<String, String> r :
                Outputs.committed(KAFKA.client(), prefix + "-enriched", new StringDeserializer())) {
            if (r.key().equals("flush")) {
                continue;
            }
            String[] orderAtRegion = r.value().split("@");
            if (enriched.put(orderAtRegion[0], orderAtRegion[1]) != null) {
                duplicates.add(orderAtRegion[0]);
            }
        }
        assertThat(duplicates).as("orders enriched twice (seed %d)", seed).isEmpty();
        assertThat(enriched).as("enriched orders (seed %d)", seed).isEqualTo(expectedOrders);
        assertThat(Outputs.lastPerKey(KAFKA.client(), prefix + "-region-counts", new LongDeserializer()))
                .as("region counts (seed %d)", seed)
                .isEqualTo(regionCounts);
        assertThat(Outputs.present(
                        Outputs.lastPerKey(KAFKA.client(), prefix + "-customer-limits", new StringDeserializer())))
                .as("customer limits (seed %d)", seed)
                .isEqualTo(customerLimits);
        List<ConsumerRecord<byte[], byte[]>> deadLetters = KAFKA.client()
                .readAllCommitted(
                        appId + "-dlq",
                        new ByteArrayDeserializer(),
                        new ByteArrayDeserializer(),
                        Duration.ofMinutes(1));
        assertThat(deadLetters)
                .as("the unreadable limit, dead-lettered once (seed %d)", seed)
                .hasSize(1);
        assertThat(new String(deadLetters.get(0).key(), StandardCharsets.UTF_8)).isEqualTo(BAD_CUSTOMER);

        // An empty state directory: every table rebuilt from its topic up to the committed
        // offsets, the others from their changelogs; new orders join the rebuilt tables.
        Path fresh = Files.createTempDirectory("weir-srccl-fresh-");
        int before = Outputs.committed(KAFKA.client(), prefix + "-enriched", new StringDeserializer())
                .size();
        try (ChildJvm app = start(prefix, fresh, appId)) {
            KAFKA.client()
                    .produceStrings(
                            prefix + "-orders",
                            List.of(KeyValue.of("c0", "late-order"), KeyValue.of("c1", "late-order-2")));
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> Outputs.committed(KAFKA.client(), prefix + "-enriched", new StringDeserializer())
                                    .size()
                            >= before + 2);
            app.terminate();
        }
        Map<String, String> late = new HashMap<>();
        Outputs.committed(KAFKA.client(), prefix + "-enriched", new StringDeserializer()).stream()
                .skip(0)
                .filter(r -> r.value().startsWith("late-order"))
                .forEach(r -> late.put(r.value().split("@")[0], r.value().split("@")[1]));
        assertThat(late)
                .as("orders joined with the rebuilt table (seed %d)", seed)
                .isEqualTo(Map.of("late-order", regions.get("c0"), "late-order-2", regions.get("c1")));
        assertThat(KAFKA.client()
                        .readAllCommitted(
                                appId + "-dlq",
                                new ByteArrayDeserializer(),
                                new ByteArrayDeserializer(),
                                Duration.ofMinutes(1)))
                .as("no new dead letter from the rebuild")
                .hasSize(1);
    }

    private static KeyValue<byte[], byte[]> longRecord(String key, long value) {
        return KeyValue.of(
                key.getBytes(StandardCharsets.UTF_8),
                java.nio.ByteBuffer.allocate(8).putLong(value).array());
    }

    private static ProducerRecord<byte[], byte[]> record(
            String topic, Integer partition, long timestamp, String key, String value) {
        return new ProducerRecord<>(
                topic,
                partition,
                timestamp,
                key.getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8));
    }

    private static ChildJvm start(String prefix, Path stateDir, String appId) {
        return CrashApps.start(JoinsApp.class, KAFKA.bootstrapServers(), prefix, stateDir.toString(), appId);
    }
}
