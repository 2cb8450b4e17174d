package io.weir.samples.fraud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.WeirApp;
import io.weir.config.WeirConfig;
import io.weir.samples.common.SampleCommand;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.testkit.KafkaExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fraud detection on a real broker under exactly-once, checked from the alerts committed to Kafka
 * (read with read_committed): on a handful of hand-written payments, the impossible travels are
 * flagged with their holder and the normal swipes are not; and the sample command's own run, whose
 * committed alerts are compared with the frauds it put in.
 */
class FraudDetectionIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.perClass();

    private static final int PARTITIONS = 3;
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    /** The time of the first payment: recent, as the topics' retention counts from the records' times. */
    private static final long T0 = Instant.now()
            .truncatedTo(ChronoUnit.HOURS)
            .minus(Duration.ofHours(6))
            .toEpochMilli();

    private static final long MINUTE = 60_000;

    private final Serde<String> keys = Serdes.strings();
    private static final Deserializer<FraudAlert> ALERTS =
            (topic, bytes) -> Serdes.json(FraudAlert.class).deserialize(topic, bytes);

    @TempDir
    Path stateDir;

    @Test
    void flagsImpossibleTravelWithItsHolderAndNotTheNormalSwipes() {
        String payments = KAFKA.uniqueTopic("fraud-known-payments", PARTITIONS);
        String holders = KAFKA.uniqueTopic("fraud-known-holders", PARTITIONS);
        String alerts = KAFKA.uniqueTopic("fraud-known-alerts", PARTITIONS);
        String appId = "fraud-known-" + payments;
        // Stamped before every payment: the holders are loaded (waited for below) before the payments are sent.
        KAFKA.client()
                .send(List.of(
                        holder(holders, "card-ann", new CardHolder("Ann", "Lisbon")),
                        holder(holders, "card-bob", new CardHolder("Bob", "Oslo"))));
        List<Transaction> swipes = List.of(
                // Ann: three swipes in Lisbon, then Oslo (about 2,750 km) half an hour later.
                new Transaction("ann-1", "card-ann", 12.00, 38.72, -9.14, T0),
                new Transaction("ann-2", "card-ann", 15.50, 38.71, -9.13, T0 + 20 * MINUTE),
                new Transaction("ann-3", "card-ann", 9.90, 38.72, -9.15, T0 + 60 * MINUTE),
                new Transaction("ann-4", "card-ann", 14.00, 59.91, 10.75, T0 + 90 * MINUTE),
                // Bob: swipes around Oslo only, including a flight-speed hop of 400 km in an hour (below 1,000 km/h).
                new Transaction("bob-1", "card-bob", 30.00, 59.91, 10.75, T0 + 5 * MINUTE),
                new Transaction("bob-2", "card-bob", 25.00, 59.92, 10.74, T0 + 35 * MINUTE),
                new Transaction("bob-3", "card-bob", 28.00, 63.43, 10.39, T0 + 95 * MINUTE),
                // No holder on record: Madrid, then Helsinki ten minutes later.
                new Transaction("eve-1", "card-eve", 40.00, 40.42, -3.70, T0 + 10 * MINUTE),
                new Transaction("eve-2", "card-eve", 45.00, 60.17, 24.94, T0 + 20 * MINUTE));

        try (WeirApp app = start(appId, payments, holders, alerts)) {
            await().atMost(TIMEOUT).until(() -> holdersLoaded(app, Set.of("card-ann", "card-bob")));
            List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
            swipes.forEach(t -> records.add(new ProducerRecord<>(
                    payments,
                    null,
                    t.time(),
                    keys.serialize(payments, t.card()),
                    Serdes.json(Transaction.class).serialize(payments, t))));
            KAFKA.client().send(records);
            // Every payment consumed and committed: under exactly-once their alerts are committed with them.
            awaitAllConsumed(appId, payments);
        }

        List<FraudAlert> received =
                KAFKA.client().readAllCommitted(alerts, new StringDeserializer(), ALERTS, TIMEOUT).stream()
                        .map(ConsumerRecord::value)
                        .toList();
        assertThat(received).extracting(FraudAlert::transaction).containsExactlyInAnyOrder("ann-4", "eve-2");
        FraudAlert ann = received.stream()
                .filter(a -> a.transaction().equals("ann-4"))
                .findFirst()
                .orElseThrow();
        assertThat(ann.card()).isEqualTo("card-ann");
        assertThat(ann.reason()).isEqualTo("impossible-travel");
        assertThat(ann.holder()).isEqualTo("Ann");
        assertThat(ann.amount()).isEqualTo(14.00);
        assertThat(ann.figure()).as("km/h from Lisbon to Oslo in 30 min").isBetween(5_000.0, 6_000.0);
        FraudAlert eve = received.stream()
                .filter(a -> a.transaction().equals("eve-2"))
                .findFirst()
                .orElseThrow();
        assertThat(eve.reason()).isEqualTo("impossible-travel");
        assertThat(eve.holder()).as("no holder on record").isNull();
        assertThat(eve.figure()).as("km/h from Madrid to Helsinki in 10 min").isBetween(17_000.0, 18_500.0);
    }

    @Test
    void sampleCommandCommitsAnAlertForEveryFraudItPutInAndNoneTwice() {
        String payments = KAFKA.uniqueTopic("fraud-payments", PARTITIONS);
        String alerts = payments + "-alerts";
        int exit = SampleCommand.run(
                new FraudDetectionApp(),
                KAFKA,
                "fraud-" + payments,
                stateDir,
                "--transactions-topic",
                payments,
                "--holders-topic",
                payments + "-holders",
                "--alerts-topic",
                alerts,
                "--partitions",
                "3",
                "--cards",
                "200",
                "--payments",
                "20",
                "--seed",
                "42");

        assertThat(exit).isZero();
        // The same payments as the command's (only their base time differs, which no alert depends on).
        SampleTransactions data = new SampleTransactions(42, 200, 20, T0);
        List<FraudAlert> received =
                KAFKA.client().readAllCommitted(alerts, new StringDeserializer(), ALERTS, TIMEOUT).stream()
                        .map(ConsumerRecord::value)
                        .toList();
        Map<String, FraudAlert> byTransaction =
                received.stream().collect(Collectors.toMap(FraudAlert::transaction, a -> a));
        assertThat(byTransaction).as("one alert per transaction").hasSameSizeAs(received);
        assertThat(byTransaction.keySet()).as("every fraud put in is flagged").containsAll(data.injected());
        assertThat(byTransaction).isEqualTo(data.expected());
        assertThat(received.size())
                .as("alerts of %d payments", data.transactions().size())
                .isLessThan(data.transactions().size() / 5);
    }

    private WeirApp start(String appId, String payments, String holders, String alerts) {
        WeirConfig config = SampleCommand.config(KAFKA, appId, stateDir);
        return WeirApp.create(FraudDetection.topology(payments, holders, alerts), config)
                .start();
    }

    private ProducerRecord<byte[], byte[]> holder(String topic, String card, CardHolder holder) {
        return new ProducerRecord<>(
                topic,
                null,
                T0 - MINUTE,
                keys.serialize(topic, card),
                Serdes.json(CardHolder.class).serialize(topic, holder));
    }

    private static boolean holdersLoaded(WeirApp app, Set<String> cards) {
        try {
            var store = app.<String, CardHolder>store("card-holders");
            return cards.stream().allMatch(card -> store.get(card) != null);
        } catch (RuntimeException notYet) { // tasks not assigned yet
            return false;
        }
    }

    /** Waits until the application's committed offsets on {@code topic} reach its end offsets. */
    private static void awaitAllConsumed(String appId, String topic) {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        await().atMost(TIMEOUT).untilAsserted(() -> {
            Map<TopicPartition, OffsetAndMetadata> committed = KAFKA.client()
                    .admin()
                    .listConsumerGroupOffsets(appId)
                    .partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS);
            KAFKA.client()
                    .admin()
                    .listOffsets(latest)
                    .all()
                    .get(30, TimeUnit.SECONDS)
                    .forEach((tp, end) -> assertThat(committed.get(tp))
                            .as("committed offset of %s", tp)
                            .isNotNull()
                            .extracting(OffsetAndMetadata::offset)
                            .isEqualTo(end.offset()));
        });
    }
}
