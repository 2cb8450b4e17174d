package io.weir.it;

import static org.awaitility.Awaitility.await;

import io.weir.common.KeyValue;
import io.weir.testing.CrashApps;
import io.weir.testing.JoinsApp;
import io.weir.testing.Outputs;
import io.weir.testing.WindowCrashes;
import io.weir.testkit.ChildJvm;
import io.weir.testkit.KafkaTestClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.LongDeserializer;

/**
 * The world of {@link JoinsApp} that its crash tests write and check, in one place: customers
 * {@code c0} to {@code c<CUSTOMERS-1>} in {@value #REGIONS} regions with credit limits; those from
 * {@code c<STABLE>} on move, are deleted and come back while the stable ones place orders. Keeps
 * the model of what the tables must end with ({@link #regions}, {@link #limits}). One test thread.
 */
final class JoinsModel {

    static final int PARTITIONS = 4;
    /** Customers c0 to c(STABLE-1) keep their region and place the orders; the others move. */
    static final int STABLE = 200;

    static final int CUSTOMERS = 400;
    static final int REGIONS = 7;

    final Map<String, String> regions = new TreeMap<>();
    final Map<String, Long> limits = new TreeMap<>();
    private final KafkaTestClient client;
    private final String prefix;
    private final Random random;

    JoinsModel(KafkaTestClient client, String prefix, Random random) {
        this.client = client;
        this.prefix = prefix;
        this.random = random;
    }

    /** Writes every customer, in a random region, and its limit {@code 1000 + i}. */
    void writeCustomers() {
        List<KeyValue<String, String>> customers = new ArrayList<>();
        List<KeyValue<byte[], byte[]>> limitRecords = new ArrayList<>();
        for (int i = 0; i < CUSTOMERS; i++) {
            String region = "r" + random.nextInt(REGIONS);
            regions.put("c" + i, region);
            customers.add(KeyValue.of("c" + i, region));
            limits.put("c" + i, 1_000L + i);
            limitRecords.add(CrashRecords.longRecord("c" + i, 1_000L + i));
        }
        client.produceStrings(prefix + "-customers", customers);
        client.produce(prefix + "-limits", limitRecords);
    }

    /**
     * The orders join a loaded table: starts the application once, waits until it counted every
     * customer, and SIGKILLs it.
     */
    void awaitTablesLoaded(Path stateDir, String appId) {
        try (ChildJvm app = start(stateDir, appId)) {
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() ->
                            Outputs.lastPerKey(client, prefix + "-region-counts", new LongDeserializer())
                                            .values()
                                            .stream()
                                            .mapToLong(Long::longValue)
                                            .sum()
                                    == CUSTOMERS);
            app.kill();
        }
    }

    /** A customer that moves. */
    String movingCustomer() {
        return "c" + (STABLE + random.nextInt(CUSTOMERS - STABLE));
    }

    /** Deletes {@code customer} (its record to write is a tombstone) or moves it to a random region. */
    KeyValue<String, String> deleteOrMove(String customer, boolean delete) {
        if (delete) {
            regions.remove(customer);
            return KeyValue.of(customer, null);
        }
        String region = "r" + random.nextInt(REGIONS);
        regions.put(customer, region);
        return KeyValue.of(customer, region);
    }

    /** Gives {@code customer} a random new limit; returns its record. */
    KeyValue<byte[], byte[]> changeLimit(String customer) {
        long limit = random.nextInt(10_000);
        limits.put(customer, limit);
        return CrashRecords.longRecord(customer, limit);
    }

    /** Order {@code o<i>} of a random stable customer at {@code timestamp}; its region is what it must be joined with. */
    ProducerRecord<byte[], byte[]> order(int i, long timestamp, Map<String, String> expected) {
        String customer = "c" + random.nextInt(STABLE);
        expected.put("o" + i, regions.get(customer));
        return CrashRecords.record(prefix + "-orders", null, timestamp, customer, "o" + i);
    }

    /**
     * A record far later than {@code end} on every partition of the orders and of the payments:
     * moves the watermark past every order's window.
     */
    void flush(long end, List<ProducerRecord<byte[], byte[]>> orders, List<ProducerRecord<byte[], byte[]>> payments) {
        for (int p = 0; p < PARTITIONS; p++) {
            orders.add(CrashRecords.record(prefix + "-orders", p, end, "flush", "flush-o" + p));
            payments.add(CrashRecords.record(prefix + "-payments", p, end, "flush-p" + p, "flush"));
        }
    }

    /**
     * Writes what the application then joins (the customers' moves, the limits' changes, the
     * orders and the payments) and SIGKILLs it twice while it works through them.
     */
    void writeAndCrashTwice(
            List<KeyValue<String, String>> moves,
            List<KeyValue<byte[], byte[]>> limitChanges,
            List<ProducerRecord<byte[], byte[]>> orders,
            List<ProducerRecord<byte[], byte[]>> payments,
            Path stateDir,
            String appId,
            int orderCount) {
        client.produceStrings(prefix + "-customers", moves);
        client.produce(prefix + "-limits", limitChanges);
        client.send(orders);
        client.send(payments);
        WindowCrashes.killWhileWindowsAreOpen(
                () -> start(stateDir, appId), client, prefix + "-enriched", 2, random, orderCount);
    }

    /** The customers per region the count must end with, every region included. */
    Map<String, Long> regionCounts() {
        Map<String, Long> regionCounts = new TreeMap<>();
        for (int i = 0; i < REGIONS; i++) {
            regionCounts.put("r" + i, 0L);
        }
        regions.values().forEach(r -> regionCounts.merge(r, 1L, Long::sum));
        return regionCounts;
    }

    /** The {@code region:limit} per customer the table-table join must end with. */
    Map<String, String> customerLimits() {
        Map<String, String> customerLimits = new TreeMap<>();
        regions.forEach((c, r) -> customerLimits.put(c, r + ":" + limits.get(c)));
        return customerLimits;
    }

    /** Starts {@link JoinsApp} on this world's topics and waits until it is ready. */
    ChildJvm start(Path stateDir, String appId) {
        return CrashApps.start(JoinsApp.class, client.bootstrapServers(), prefix, stateDir.toString(), appId);
    }
}
