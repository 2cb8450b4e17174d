package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.common.KeyValue;
import io.weir.testing.JoinsApp;
import io.weir.testing.Outputs;
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

    private static final int PARTITIONS = JoinsModel.PARTITIONS;
    private static final int ORDERS = 30_000;
    private static final int MOVES = 10_000;
    private static final String BAD_CUSTOMER = "c" + (JoinsModel.CUSTOMERS - 1);
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
        JoinsModel model = new JoinsModel(KAFKA.client(), prefix, random);

        model.writeCustomers();
        model.awaitTablesLoaded(stateDir, appId);
        Set<String> topics = KAFKA.client().admin().listTopics().names().get();
        assertThat(topics)
                .as("no second copy of a compacted source topic")
                .doesNotContain(
                        appId + "-customers-changelog", appId + "-limits-changelog", appId + "-region-names-changelog")
                .contains(appId + "-customers-per-region-changelog", appId + "-customer-limits-changelog");

        List<KeyValue<String, String>> moves = new ArrayList<>();
        List<KeyValue<byte[], byte[]>> limitChanges = new ArrayList<>();
        for (int i = 0; i < MOVES; i++) {
            String customer = model.movingCustomer();
            int dice = random.nextInt(100);
            if (i == MOVES / 2) {
                // a limit the table's serde cannot read: dead-lettered, the row keeps its limit
                limitChanges.add(KeyValue.of(
                        BAD_CUSTOMER.getBytes(StandardCharsets.UTF_8), "bad".getBytes(StandardCharsets.UTF_8)));
            } else if (dice < 85) {
                moves.add(model.deleteOrMove(customer, dice < 15));
            } else {
                limitChanges.add(model.changeLimit(customer));
            }
        }
        List<ProducerRecord<byte[], byte[]>> orders = new ArrayList<>();
        List<ProducerRecord<byte[], byte[]>> payments = new ArrayList<>();
        Map<String, String> expectedOrders = new HashMap<>();
        for (int i = 0; i < ORDERS; i++) {
            orders.add(model.order(i, BASE + i * 10L, expectedOrders));
        }
        model.flush(BASE + ORDERS * 10L + 60_000, orders, payments);
        model.writeAndCrashTwice(moves, limitChanges, orders, payments, stateDir, appId, ORDERS);

        Map<String, String> regions = model.regions;
        Map<String, Long> regionCounts = model.regionCounts();
        Map<String, String> customerLimits = model.customerLimits();
        try (ChildJvm app = model.start(stateDir, appId)) {
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

        List<String> duplicates = new ArrayList<>();
        Map<String, String> enriched = CrashRecords.joinedOnce(
                Outputs.committed(KAFKA.client(), prefix + "-enriched", new StringDeserializer()).stream()
                        .filter(r -> !r.key().equals("flush"))
                        .toList(),
                duplicates);
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
        try (ChildJvm app = model.start(fresh, appId)) {
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
}
