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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Tables and joins exactly-once across SIGKILLs, on a real broker ({@link JoinsApp}): a
 * stream-table join, a stream-stream left join of re-keyed orders with their payments, a
 * table-table join, foreign-key inner and left joins of customers with region names (on a topic of
 * {@value #REGION_NAME_PARTITIONS} partitions, the others {@value #PARTITIONS}: not
 * co-partitioned) and a re-keyed table count run while customers move between regions, are
 * deleted and come back, regions are renamed, lose their name and get one, and credit limits
 * change; the application is
 * SIGKILLed twice mid-way and run to the end. Read committed: every order is enriched exactly
 * once with its customer's region and joined exactly once with its payment (or, unpaid, reported
 * once as such), and the last update of every key of the two tables equals a
 * model of the input (a lost or repeated subtraction would leave a region's count off; a lost
 * subscription or response would leave a customer with an old region or name).
 */
class JoinsCrashIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int PARTITIONS = 4;
    private static final int REGION_NAME_PARTITIONS = 3;
    /** Customers c0 to c(STABLE-1) keep their region and place the orders; the others move. */
    private static final int STABLE = 200;

    private static final int CUSTOMERS = 400;
    private static final int REGIONS = 7;
    private static final int ORDERS = 60_000;
    private static final int MOVES = 20_000;
    private static final long BASE =
            java.time.Instant.now().minus(Duration.ofHours(2)).toEpochMilli();

    @Test
    void everyJoinKindIsExactAfterSigkills() throws Exception {
        String prefix = "joins-" + Long.toHexString(System.nanoTime());
        for (String t : List.of(
                "customers",
                "limits",
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
        KAFKA.client().createTopic(prefix + "-region-names", REGION_NAME_PARTITIONS);
        String appId = "joins-crash-" + prefix;
        Path stateDir = Files.createTempDirectory("weir-joins-crash-");
        long seed = System.nanoTime();
        Random random = new Random(seed);

        Map<String, String> regions = new TreeMap<>();
        Map<String, Long> limits = new TreeMap<>();
        List<KeyValue<String, String>> customers = new ArrayList<>();
        List<KeyValue<String, String>> limitRecords = new ArrayList<>();
        for (int i = 0; i < CUSTOMERS; i++) {
            String region = "r" + random.nextInt(REGIONS);
            regions.put("c" + i, region);
            customers.add(KeyValue.of("c" + i, region));
            limits.put("c" + i, 1_000L + i);
            limitRecords.add(KeyValue.of("c" + i, Long.toString(1_000L + i)));
        }
        Map<String, String> regionNames = new TreeMap<>();
        List<KeyValue<String, String>> regionNameRecords = new ArrayList<>();
        for (int i = 0; i < REGIONS - 1; i++) { // the last region has no name yet
            regionNames.put("r" + i, "region-" + i);
            regionNameRecords.add(KeyValue.of("r" + i, "region-" + i));
        }
        KAFKA.client().produceStrings(prefix + "-customers", customers);
        produceLongs(prefix + "-limits", limitRecords);
        KAFKA.client().produceStrings(prefix + "-region-names", regionNameRecords);

        // the orders join a loaded table: start once and wait for every customer to be counted
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

        List<KeyValue<String, String>> moves = new ArrayList<>();
        List<KeyValue<String, String>> limitChanges = new ArrayList<>();
        List<KeyValue<String, String>> regionNameChanges = new ArrayList<>();
        for (int i = 0; i < MOVES; i++) {
            String customer = "c" + (STABLE + random.nextInt(CUSTOMERS - STABLE));
            int dice = random.nextInt(100);
            if (dice < 15) {
                regions.remove(customer);
                moves.add(KeyValue.of(customer, null));
            } else if (dice < 85) {
                String region = "r" + random.nextInt(REGIONS);
                regions.put(customer, region);
                moves.add(KeyValue.of(customer, region));
            } else if (dice < 88) {
                String region = "r" + random.nextInt(REGIONS);
                String name = random.nextInt(4) == 0 ? null : "region-" + region + "-" + i;
                if (name == null) {
                    regionNames.remove(region);
                } else {
                    regionNames.put(region, name);
                }
                regionNameChanges.add(KeyValue.of(region, name));
            } else {
                long limit = random.nextInt(10_000);
                limits.put(customer, limit);
                limitChanges.add(KeyValue.of(customer, Long.toString(limit)));
            }
        }
        // orders 10 ms apart in event time; nine in ten paid 500 ms later (within the join's 2 s)
        List<ProducerRecord<byte[], byte[]>> orders = new ArrayList<>();
        List<ProducerRecord<byte[], byte[]>> payments = new ArrayList<>();
        Map<String, String> expectedOrders = new HashMap<>();
        Map<String, String> expectedPaid = new HashMap<>();
        for (int i = 0; i < ORDERS; i++) {
            String customer = "c" + random.nextInt(STABLE);
            orders.add(record(prefix + "-orders", null, BASE + i * 10L, customer, "o" + i));
            expectedOrders.put("o" + i, regions.get(customer));
            boolean paid = random.nextInt(10) > 0;
            expectedPaid.put("o" + i, paid ? "paid" : "unpaid");
            if (paid) {
                payments.add(record(prefix + "-payments", null, BASE + i * 10L + 500, "o" + i, "p" + i));
            }
        }
        // far later on every partition: moves the watermark past every order's window
        for (int p = 0; p < PARTITIONS; p++) {
            long end = BASE + ORDERS * 10L + 60_000;
            orders.add(record(prefix + "-orders", p, end, "flush", "flush-o" + p));
            payments.add(record(prefix + "-payments", p, end, "flush-p" + p, "flush"));
        }
        KAFKA.client().produceStrings(prefix + "-customers", moves);
        produceLongs(prefix + "-limits", limitChanges);
        KAFKA.client().produceStrings(prefix + "-region-names", regionNameChanges);
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
        Map<String, String> customerRegionNames = new TreeMap<>();
        Map<String, String> customerRegionNamesLeft = new TreeMap<>();
        regions.forEach((c, r) -> {
            customerRegionNamesLeft.put(c, r + "=" + regionNames.get(r));
            if (regionNames.containsKey(r)) {
                customerRegionNames.put(c, r + "=" + regionNames.get(r));
            }
        });
        try (ChildJvm app = start(prefix, stateDir, appId)) {
            awaitOrReport(() -> Outputs.committed(KAFKA.client(), prefix + "-enriched", new StringDeserializer())
                                    .size()
                            >= ORDERS
                    && paidOrders(prefix).size() >= ORDERS
                    && Outputs.lastPerKey(KAFKA.client(), prefix + "-region-counts", new LongDeserializer())
                            .equals(regionCounts)
                    && Outputs.present(Outputs.lastPerKey(
                                    KAFKA.client(), prefix + "-customer-limits", new StringDeserializer()))
                            .equals(customerLimits)
                    && Outputs.present(Outputs.lastPerKey(
                                    KAFKA.client(), prefix + "-customer-region-names", new StringDeserializer()))
                            .equals(customerRegionNames)
                    && Outputs.present(Outputs.lastPerKey(
                                    KAFKA.client(), prefix + "-customer-region-names-left", new StringDeserializer()))
                            .equals(customerRegionNamesLeft));
            app.terminate();
        }

        Map<String, String> enriched = new HashMap<>();
        List<String> duplicates = new ArrayList<>();
        for (ConsumerRecord<String, String> r :
                Outputs.committed(KAFKA.client(), prefix + "-enriched", new StringDeserializer())) {
            String[] orderAtRegion = r.value().split("@");
            if (enriched.put(orderAtRegion[0], orderAtRegion[1]) != null) {
                duplicates.add(orderAtRegion[0]);
            }
        }
        assertThat(duplicates).as("orders enriched twice (seed %d)", seed).isEmpty();
        assertThat(enriched).as("enriched orders (seed %d)", seed).isEqualTo(expectedOrders);
        List<String> paidTwice = new ArrayList<>();
        Map<String, String> paid = new HashMap<>();
        for (ConsumerRecord<String, String> r : paidOrders(prefix)) {
            if (paid.put(r.key(), r.value()) != null) {
                paidTwice.add(r.key());
            }
        }
        assertThat(paidTwice)
                .as("orders joined with payments twice (seed %d)", seed)
                .isEmpty();
        assertThat(paid).as("orders paid or unpaid (seed %d)", seed).isEqualTo(expectedPaid);
        assertThat(Outputs.lastPerKey(KAFKA.client(), prefix + "-region-counts", new LongDeserializer()))
                .as("region counts (seed %d)", seed)
                .isEqualTo(regionCounts);
        Map<String, String> joined =
                Outputs.lastPerKey(KAFKA.client(), prefix + "-customer-limits", new StringDeserializer());
        assertThat(Outputs.present(joined))
                .as("customer limits (seed %d)", seed)
                .isEqualTo(customerLimits);
        assertThat(joined.keySet())
                .as("deleted customers end with a tombstone (seed %d)", seed)
                .allMatch(c -> customerLimits.containsKey(c) || joined.get(c) == null);
        Map<String, String> named =
                Outputs.lastPerKey(KAFKA.client(), prefix + "-customer-region-names", new StringDeserializer());
        assertThat(Outputs.present(named))
                .as("customers with their region's name (seed %d)", seed)
                .isEqualTo(customerRegionNames);
        Map<String, String> namedLeft =
                Outputs.lastPerKey(KAFKA.client(), prefix + "-customer-region-names-left", new StringDeserializer());
        assertThat(Outputs.present(namedLeft))
                .as("every customer with its region's name or null (seed %d)", seed)
                .isEqualTo(customerRegionNamesLeft);
    }

    /**
     * Waits up to 3 minutes for {@code done}; on time-out goes on, so that the assertions after it
     * say which output is short or wrong.
     */
    private static void awaitOrReport(java.util.concurrent.Callable<Boolean> done) {
        try {
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofMillis(500))
                    .until(done);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            System.err.println("JoinsCrashIT: outputs incomplete after 3 minutes; the assertions say which");
        }
    }

    /** The stream-stream join's results, without those of the flush records. */
    private static List<ConsumerRecord<String, String>> paidOrders(String prefix) {
        return Outputs.committed(KAFKA.client(), prefix + "-paid", new StringDeserializer()).stream()
                .filter(r -> !r.key().startsWith("flush"))
                .toList();
    }

    private static ProducerRecord<byte[], byte[]> record(
            String topic, Integer partition, long timestamp, String key, String value) {
        return new ProducerRecord<>(
                topic,
                partition,
                timestamp,
                key.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                value.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** A join of topics with 3 and 2 partitions cannot start: the error names both, with their counts. */
    @Test
    void aJoinOfTopicsThatAreNotCoPartitionedFailsAtStartNamingThem() {
        String orders = KAFKA.uniqueTopic("copart-orders", 3);
        String customers = KAFKA.uniqueTopic("copart-customers", 2);
        io.weir.TopologyBuilder b = new io.weir.TopologyBuilder();
        var table = b.table(io.weir.serde.Serdes.strings(), io.weir.serde.Serdes.strings(), customers, "customers");
        b.stream(io.weir.serde.Serdes.strings(), io.weir.serde.Serdes.strings(), orders)
                .join(table, (o, c) -> o + c)
                .to(orders + "-out", io.weir.serde.Serdes.strings(), io.weir.serde.Serdes.strings());
        KAFKA.client().createTopic(orders + "-out", 1);

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> io.weir.testing.TestApps.start(
                        b.build(),
                        io.weir.testing.TestApps.config(KAFKA.bootstrapServers(), "copart-" + orders)
                                .build()))
                .isInstanceOf(io.weir.errors.TopologyException.class)
                .hasMessageContaining(orders + " has 3 partitions")
                .hasMessageContaining(customers + " has 2 partitions")
                .hasMessageContaining("selectKey");

        // the fix the message gives: the re-keyed orders are repartitioned to the table's count
        io.weir.TopologyBuilder fixed = new io.weir.TopologyBuilder();
        var fixedTable =
                fixed.table(io.weir.serde.Serdes.strings(), io.weir.serde.Serdes.strings(), customers, "customers");
        fixed.stream(io.weir.serde.Serdes.strings(), io.weir.serde.Serdes.strings(), orders)
                .selectKey((k, v) -> k)
                .withSerdes(io.weir.serde.Serdes.strings(), io.weir.serde.Serdes.strings())
                .join(fixedTable, (o, c) -> o + "@" + c)
                .to(orders + "-out", io.weir.serde.Serdes.strings(), io.weir.serde.Serdes.strings());
        KAFKA.client().produceStrings(customers, List.of(KeyValue.of("c1", "north")));
        try (io.weir.WeirApp app = io.weir.testing.TestApps.start(
                fixed.build(),
                io.weir.testing.TestApps.config(KAFKA.bootstrapServers(), "copart-fixed-" + orders)
                        .build())) {
            await().atMost(Duration.ofMinutes(1))
                    .until(() -> "north"
                            .equals(app.<String, String>store("customers").get("c1")));
            KAFKA.client().produceStrings(orders, List.of(KeyValue.of("c1", "o1")));
            assertThat(KAFKA.client().readStringsAtLeast(orders + "-out", 1, Duration.ofMinutes(1)))
                    .extracting(ConsumerRecord::value)
                    .containsExactly("o1@north");
        }
    }

    private static void produceLongs(String topic, List<KeyValue<String, String>> records) {
        List<KeyValue<byte[], byte[]>> bytes = new ArrayList<>();
        for (KeyValue<String, String> kv : records) {
            bytes.add(KeyValue.of(
                    kv.key().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    java.nio.ByteBuffer.allocate(8)
                            .putLong(Long.parseLong(kv.value()))
                            .array()));
        }
        KAFKA.client().produce(topic, bytes);
    }

    private static ChildJvm start(String prefix, Path stateDir, String appId) {
        return CrashApps.start(JoinsApp.class, KAFKA.bootstrapServers(), prefix, stateDir.toString(), appId);
    }
}
