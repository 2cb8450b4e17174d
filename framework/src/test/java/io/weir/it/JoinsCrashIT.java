package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.common.KeyValue;
import io.weir.testing.JoinsApp;
import io.weir.testing.Outputs;
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

    private static final int PARTITIONS = JoinsModel.PARTITIONS;
    private static final int REGION_NAME_PARTITIONS = 3;
    private static final int REGIONS = JoinsModel.REGIONS;
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
        JoinsModel model = new JoinsModel(KAFKA.client(), prefix, random);

        model.writeCustomers();
        Map<String, String> regionNames = new TreeMap<>();
        List<KeyValue<String, String>> regionNameRecords = new ArrayList<>();
        for (int i = 0; i < REGIONS - 1; i++) { // the last region has no name yet
            regionNames.put("r" + i, "region-" + i);
            regionNameRecords.add(KeyValue.of("r" + i, "region-" + i));
        }
        KAFKA.client().produceStrings(prefix + "-region-names", regionNameRecords);
        model.awaitTablesLoaded(stateDir, appId);

        List<KeyValue<String, String>> moves = new ArrayList<>();
        List<KeyValue<byte[], byte[]>> limitChanges = new ArrayList<>();
        List<KeyValue<String, String>> regionNameChanges = new ArrayList<>();
        for (int i = 0; i < MOVES; i++) {
            String customer = model.movingCustomer();
            int dice = random.nextInt(100);
            if (dice < 85) {
                moves.add(model.deleteOrMove(customer, dice < 15));
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
                limitChanges.add(model.changeLimit(customer));
            }
        }
        // orders 10 ms apart in event time; nine in ten paid 500 ms later (within the join's 2 s)
        List<ProducerRecord<byte[], byte[]>> orders = new ArrayList<>();
        List<ProducerRecord<byte[], byte[]>> payments = new ArrayList<>();
        Map<String, String> expectedOrders = new HashMap<>();
        Map<String, String> expectedPaid = new HashMap<>();
        for (int i = 0; i < ORDERS; i++) {
            orders.add(model.order(i, BASE + i * 10L, expectedOrders));
            boolean paid = random.nextInt(10) > 0;
            expectedPaid.put("o" + i, paid ? "paid" : "unpaid");
            if (paid) {
                payments.add(CrashRecords.record(prefix + "-payments", null, BASE + i * 10L + 500, "o" + i, "p" + i));
            }
        }
        model.flush(BASE + ORDERS * 10L + 60_000, orders, payments);
        KAFKA.client().produceStrings(prefix + "-region-names", regionNameChanges);
        model.writeAndCrashTwice(moves, limitChanges, orders, payments, stateDir, appId, ORDERS);

        Map<String, String> regions = model.regions;
        Map<String, Long> regionCounts = model.regionCounts();
        Map<String, String> customerLimits = model.customerLimits();
        Map<String, String> customerRegionNames = new TreeMap<>();
        Map<String, String> customerRegionNamesLeft = new TreeMap<>();
        regions.forEach((c, r) -> {
            customerRegionNamesLeft.put(c, r + "=" + regionNames.get(r));
            if (regionNames.containsKey(r)) {
                customerRegionNames.put(c, r + "=" + regionNames.get(r));
            }
        });
        try (ChildJvm app = model.start(stateDir, appId)) {
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

        List<String> duplicates = new ArrayList<>();
        Map<String, String> enriched = CrashRecords.joinedOnce(
                Outputs.committed(KAFKA.client(), prefix + "-enriched", new StringDeserializer()), duplicates);
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
}
