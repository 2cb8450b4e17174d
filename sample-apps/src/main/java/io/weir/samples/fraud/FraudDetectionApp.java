package io.weir.samples.fraud;

import io.weir.samples.common.CommittedTail;
import io.weir.samples.common.RunningApp;
import io.weir.samples.common.SampleConfigs;
import io.weir.samples.common.SampleKafka;
import io.weir.samples.common.SampleMain;
import io.weir.samples.common.SampleOptions;
import io.weir.samples.common.ShutdownSignal;
import io.weir.samples.common.TailRecord;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Runs {@link FraudDetection} end to end with one command: starts an in-process Kafka broker (or
 * uses {@code --bootstrap-servers}), writes the card holders (a compacted topic) and, once the
 * application has loaded them, the payments of a few hours ({@link SampleTransactions}, with
 * frauds put in), reads the alerts back with {@code read_committed} and prints them. Exits 0 when
 * the alerts are exactly those the rules give on the payments (each once, with its reason, figure
 * and holder) and include every fraud put in; 1 otherwise.
 */
@Command(
        name = "fraud-detection",
        mixinStandardHelpOptions = true,
        version = "Weir sample 0.1.0",
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = "Flags card payments that travel faster than a plane or spend far above the card's mean, with the"
                + " card's history in a store and its holder from a table, exactly once.")
public final class FraudDetectionApp implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(FraudDetectionApp.class);
    private static final Duration POLL = Duration.ofMillis(100);

    @Mixin
    SampleOptions options;

    @Option(names = "--cards", defaultValue = "500", description = "Cards (default: ${DEFAULT-VALUE}).")
    int cards;

    @Option(
            names = "--payments",
            defaultValue = "20",
            description = "Payments per card, at least 8 (default:" + " ${DEFAULT-VALUE}).")
    int payments;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the payments (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--transactions-topic",
            defaultValue = "card-transactions",
            description = "Topic of payments, keyed" + " by card (default: ${DEFAULT-VALUE}).")
    String transactionsTopic;

    @Option(
            names = "--holders-topic",
            defaultValue = "card-holders",
            description = "Compacted topic of card holders," + " keyed by card (default: ${DEFAULT-VALUE}).")
    String holdersTopic;

    @Option(
            names = "--alerts-topic",
            defaultValue = "fraud-alerts",
            description = "Topic of alerts (default:" + " ${DEFAULT-VALUE}).")
    String alertsTopic;

    private final Serde<String> keys = Serdes.strings();

    public static void main(String[] args) {
        SampleMain.exit(new FraudDetectionApp(), args);
    }

    @Override
    public Integer call() {
        if (cards < 1 || payments < 8 || options.partitions < 1) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this), "--cards and --partitions must be at least 1," + " --payments at least 8");
        }
        return options.run(this::run);
    }

    private int run(SampleKafka kafka, ShutdownSignal signal) {
        kafka.ensureTopics(List.of(transactionsTopic, alertsTopic), options.partitions);
        kafka.ensureTopics(List.of(holdersTopic), options.partitions, Map.of("cleanup.policy", "compact"));
        kafka.requireFresh(List.of(transactionsTopic, alertsTopic, holdersTopic), options.applicationId());
        long base = Instant.now()
                .truncatedTo(ChronoUnit.HOURS)
                .minus(Duration.ofHours(6))
                .toEpochMilli();
        SampleTransactions data = new SampleTransactions(seed, cards, payments, base);
        Map<String, FraudAlert> expected = data.expected();
        List<ProducerRecord<byte[], byte[]>> holders = new ArrayList<>();
        // Stamped before every payment: the task takes its inputs in timestamp order.
        data.holders()
                .forEach((card, h) -> holders.add(new ProducerRecord<>(
                        holdersTopic,
                        null,
                        base - 60_000,
                        keys.serialize(holdersTopic, card),
                        Serdes.json(CardHolder.class).serialize(holdersTopic, h))));
        kafka.client().send(holders);

        String bootstrap = kafka.bootstrapServers();
        Map<String, FraudAlert> alerts = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        try (CommittedTail<String, FraudAlert> tail =
                        CommittedTail.fromBeginning(bootstrap, alertsTopic, keys, Serdes.json(FraudAlert.class));
                RunningApp app = RunningApp.start(
                        FraudDetection.topology(transactionsTopic, holdersTopic, alertsTopic),
                        dir -> SampleConfigs.exactlyOnce(options.applicationId(), bootstrap, dir)
                                .build(),
                        options.stateDir,
                        "weir-fraud-")) {
            String lastCard =
                    data.holders().keySet().stream().reduce((a, b) -> b).orElseThrow();
            // polling the (still empty) alerts tail paces the wait for the holders, without a sleep
            app.await(
                    () -> allHoldersLoaded(app, data),
                    () -> receive(tail.poll(POLL), alerts, problems),
                    options.timeout(),
                    signal,
                    () -> "the card holders to be loaded (" + lastCard + ")");
            List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
            for (Transaction t : data.transactions()) {
                records.add(new ProducerRecord<>(
                        transactionsTopic,
                        null,
                        t.time(),
                        keys.serialize(transactionsTopic, t.card()),
                        Serdes.json(Transaction.class).serialize(transactionsTopic, t)));
            }
            kafka.client().send(records);
            log.info(
                    "Fed {} payments of {} cards ({} frauds put in); expecting {} alerts",
                    records.size(),
                    cards,
                    data.injected().size(),
                    expected.size());
            app.await(
                    () -> alerts.size() >= expected.size(),
                    () -> receive(tail.poll(POLL), alerts, problems),
                    options.timeout(),
                    signal,
                    () -> (expected.size() - alerts.size()) + " alerts missing");
            Optional<Throwable> failure = app.stop();
            receive(tail.drainToEnd(RunningApp.SHUTDOWN_TIMEOUT), alerts, problems);

            alerts.values()
                    .forEach(a -> System.out.printf(
                            "ALERT %s %s (%s) %s %.1f%s, paid %.2f%n",
                            a.transaction(),
                            a.card(),
                            a.holder() == null ? "no holder on record" : a.holder(),
                            a.reason(),
                            a.figure(),
                            a.reason().equals("impossible-travel") ? " km/h" : "x the card's mean",
                            a.amount()));
            expected.forEach((id, a) -> {
                if (!a.equals(alerts.get(id))) {
                    problems.add(id + ": expected " + a + ", got " + alerts.get(id));
                }
            });
            alerts.keySet().stream()
                    .filter(id -> !expected.containsKey(id))
                    .forEach(id -> problems.add(id + ": an alert the rules do not give: " + alerts.get(id)));
            data.injected().stream()
                    .filter(id -> !alerts.containsKey(id))
                    .forEach(id -> problems.add(id + ": a fraud put in was not flagged"));
            problems.stream().limit(20).forEach(p -> System.out.println("PROBLEM " + p));
            System.out.println("SUMMARY fraud-detection: " + data.transactions().size() + " payments of " + cards
                    + " cards, " + data.injected().size() + " frauds put in; " + alerts.size() + " alerts of "
                    + expected.size() + " expected: " + (problems.isEmpty() ? "PASSED" : "FAILED"));
            failure.ifPresent(e -> System.out.println("The application failed: " + e));
            return failure.isEmpty() && problems.isEmpty() ? 0 : 1;
        }
    }

    private static boolean allHoldersLoaded(RunningApp app, SampleTransactions data) {
        try {
            var store = app.app().<String, CardHolder>store("card-holders");
            return data.holders().keySet().stream().allMatch(card -> store.get(card) != null);
        } catch (RuntimeException notYet) { // tasks not assigned yet
            return false;
        }
    }

    private static void receive(
            List<TailRecord<String, FraudAlert>> records, Map<String, FraudAlert> alerts, List<String> problems) {
        for (TailRecord<String, FraudAlert> r : records) {
            if (alerts.put(r.value().transaction(), r.value()) != null) {
                problems.add(r.value().transaction() + ": alerted twice");
            }
        }
    }
}
