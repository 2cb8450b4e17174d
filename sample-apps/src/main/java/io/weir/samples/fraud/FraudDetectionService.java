package io.weir.samples.fraud;

import io.weir.samples.common.RecordGenerator;
import io.weir.samples.common.ServedSample;
import io.weir.serde.Serdes;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Fraud detection as a served sample ({@code serve fraud-detection}, {@code load fraud-detection}):
 * reads {@code card-transactions} and the {@code card-holders} table (which {@code load} fills with
 * the holders of its cards first; create it compacted, with as many partitions as the payments),
 * writes {@code fraud-alerts}. The load pays near home, now and then far away or far too much.
 */
public final class FraudDetectionService {

    static final String HOLDERS = "card-holders";
    private static final int CARDS = 1_000;
    private static final long SEED = 42;

    private FraudDetectionService() {}

    public static ServedSample sample() {
        return new ServedSample(
                "fraud-detection",
                "fraud-detection",
                "card-transactions",
                "fraud-alerts",
                (in, out) -> FraudDetection.topology(in, HOLDERS, out),
                () -> payments(System.nanoTime()),
                new ServedSample.Reference(HOLDERS, FraudDetectionService::holders));
    }

    /** Live payments of the served cards, stamped when sent: one in a hundred far away, one in a hundred too large. */
    static RecordGenerator payments(long seed) {
        SampleTransactions cards = new SampleTransactions(SEED, CARDS, 8, 0);
        List<Transaction> homes = new ArrayList<>();
        cards.transactions().stream().filter(t -> t.id().endsWith("-0")).forEach(homes::add);
        Random random = new Random(seed);
        long[] count = {0};
        return (topic, timestamp) -> {
            Transaction home = homes.get(random.nextInt(homes.size()));
            int dice = random.nextInt(100);
            SampleTransactions.City far =
                    SampleTransactions.CITIES.get(random.nextInt(SampleTransactions.CITIES.size()));
            double lat = dice == 0 ? far.lat() : home.lat() + (random.nextDouble() - 0.5) * 0.02;
            double lon = dice == 0 ? far.lon() : home.lon() + (random.nextDouble() - 0.5) * 0.02;
            double amount = home.amount() * (dice == 1 ? 20 : 0.5 + random.nextDouble());
            Transaction t =
                    new Transaction(home.card() + "-live-" + count[0]++, home.card(), amount, lat, lon, timestamp);
            return new ProducerRecord<>(
                    topic,
                    null,
                    timestamp,
                    Serdes.strings().serialize(topic, t.card()),
                    Serdes.json(Transaction.class).serialize(topic, t));
        };
    }

    /** Card to holder, the same every time. */
    static List<ProducerRecord<byte[], byte[]>> holders() {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        new SampleTransactions(SEED, CARDS, 8, 0)
                .holders()
                .forEach((card, h) -> records.add(new ProducerRecord<>(
                        HOLDERS,
                        Serdes.strings().serialize(HOLDERS, card),
                        Serdes.json(CardHolder.class).serialize(HOLDERS, h))));
        return records;
    }
}
