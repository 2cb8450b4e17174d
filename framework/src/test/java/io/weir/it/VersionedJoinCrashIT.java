package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.testing.CrashApps;
import io.weir.testing.VersionedJoinApp;
import io.weir.testing.WindowCrashes;
import io.weir.testkit.ChildJvm;
import io.weir.testkit.KafkaExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The as-of stream-table join with a grace period exactly-once across SIGKILLs, on a real broker
 * ({@link VersionedJoinApp}): every product's price changes every second of event time, its records
 * up to 3 s out of order; orders come every 20 ms. The application is SIGKILLed twice mid-way and
 * run to the end. Read committed: every order is priced exactly once, with the price valid at its
 * time (the versioned table's history, the grace buffer and the watermark all restored from
 * Kafka), although a third of the price records arrive after orders they price.
 */
class VersionedJoinCrashIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int PARTITIONS = 4;
    private static final int PRODUCTS = 50;
    private static final int ORDERS = 30_000;
    private static final long ORDER_EVERY_MS = 20;
    private static final long SPAN_MS = ORDERS * ORDER_EVERY_MS;
    private static final long BASE =
            java.time.Instant.now().minus(Duration.ofHours(2)).toEpochMilli();

    @Test
    void everyOrderIsPricedOnceAsOfItsTimeAfterSigkills() throws Exception {
        String prefix = "versioned-" + Long.toHexString(System.nanoTime());
        for (String t : List.of("prices", "orders", "priced")) {
            KAFKA.client().createTopic(prefix + "-" + t, PARTITIONS);
        }
        String appId = "versioned-crash-" + prefix;
        Path stateDir = Files.createTempDirectory("weir-versioned-crash-");
        long seed = System.nanoTime();
        Random random = new Random(seed);

        // a version per product and second, from a second before the first order; sent in the order
        // of time plus up to 3 s of jitter, so a version arrives after records up to 3 s later
        record Sent(ProducerRecord<byte[], byte[]> record, long sortKey) {}
        List<Sent> prices = new ArrayList<>();
        for (long second = -1; second * 1000 <= SPAN_MS; second++) {
            for (int p = 0; p < PRODUCTS; p++) {
                long ts = BASE + second * 1000;
                prices.add(new Sent(
                        CrashRecords.record(prefix + "-prices", null, ts, "product" + p, price(p, second)),
                        ts + random.nextInt(3000)));
            }
        }
        prices.sort(Comparator.comparingLong(Sent::sortKey));
        List<ProducerRecord<byte[], byte[]>> priceRecords =
                new ArrayList<>(prices.stream().map(Sent::record).toList());
        List<ProducerRecord<byte[], byte[]>> orders = new ArrayList<>();
        Map<String, String> expected = new HashMap<>();
        for (int i = 0; i < ORDERS; i++) {
            int product = random.nextInt(PRODUCTS);
            long offset = i * ORDER_EVERY_MS;
            orders.add(CrashRecords.record(prefix + "-orders", null, BASE + offset, "product" + product, "o" + i));
            expected.put("o" + i, price(product, Math.floorDiv(offset, 1000)));
        }
        // far later on every partition of both topics: moves the watermark past every order's grace
        for (int p = 0; p < PARTITIONS; p++) {
            long end = BASE + SPAN_MS + 60_000;
            orders.add(CrashRecords.record(prefix + "-orders", p, end, "flush", "flush-o" + p));
            priceRecords.add(CrashRecords.record(prefix + "-prices", p, end, "flush-p" + p, "flush"));
        }
        KAFKA.client().send(priceRecords);
        KAFKA.client().send(orders);

        WindowCrashes.killWhileWindowsAreOpen(
                () -> start(prefix, stateDir, appId), KAFKA.client(), prefix + "-priced", 2, random, ORDERS);
        try (ChildJvm app = start(prefix, stateDir, appId)) {
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> priced(prefix).size() >= ORDERS);
            app.terminate();
        }

        List<String> twice = new ArrayList<>();
        Map<String, String> priced = CrashRecords.joinedOnce(priced(prefix), twice);
        assertThat(twice).as("orders priced twice (seed %d)", seed).isEmpty();
        assertThat(priced).as("orders priced as of their time (seed %d)", seed).isEqualTo(expected);
    }

    private static String price(int product, long second) {
        return "p" + product + "s" + second;
    }

    private static List<ConsumerRecord<String, String>> priced(String prefix) {
        return KAFKA
                .client()
                .readAllCommitted(
                        prefix + "-priced", new StringDeserializer(), new StringDeserializer(), Duration.ofMinutes(1))
                .stream()
                .filter(r -> !r.key().startsWith("flush"))
                .toList();
    }

    private static ChildJvm start(String prefix, Path stateDir, String appId) {
        return CrashApps.start(VersionedJoinApp.class, KAFKA.bootstrapServers(), prefix, stateDir.toString(), appId);
    }
}
