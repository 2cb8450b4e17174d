package io.weir.samples.alerts;

import io.weir.WeirApp;
import io.weir.common.internal.Deadline;
import io.weir.config.WeirConfig;
import io.weir.samples.common.CommittedTail;
import io.weir.samples.common.SampleConfigs;
import io.weir.samples.common.SampleKafka;
import io.weir.samples.common.SampleMain;
import io.weir.samples.common.SampleOptions;
import io.weir.samples.common.ShutdownSignal;
import io.weir.samples.common.StateDirs;
import io.weir.samples.common.TailRecord;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Runs the {@link TemperatureAlerts} topology end to end with one command: starts an in-process
 * Kafka broker (or uses the cluster given by {@code --bootstrap-servers} /
 * {@code WEIR_BOOTSTRAP_SERVERS}), creates the topics, feeds seeded sample readings, runs the
 * application with exactly-once processing, and prints each alert once it is committed to the
 * alerts topic. It ends with a summary line and exit code 0 when every expected alert arrived
 * exactly once, 1 otherwise; {@code --follow} keeps feeding and printing until SIGINT/SIGTERM.
 *
 * <p>Alerts and the summary go to stdout; progress and library logs go to stderr.
 */
@Command(
        name = "temperature-alerts",
        mixinStandardHelpOptions = true,
        version = "Weir sample 0.1.0",
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = "Emits an alert for every sensor reading above a threshold, exactly once.")
public final class TemperatureAlertsApp implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(TemperatureAlertsApp.class);
    private static final Duration ROUND_INTERVAL = Duration.ofSeconds(1);
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);
    /** After the last reading is fed in --follow mode, how long its alerts may take to arrive. */
    private static final Duration FINAL_ALERTS_TIMEOUT = Duration.ofSeconds(20);

    @Mixin
    SampleOptions options;

    @Option(
            names = "--threshold",
            defaultValue = "90",
            description = "Alert above this temperature, °F (default: ${DEFAULT-VALUE}).")
    double threshold;

    @Option(names = "--sensors", defaultValue = "10", description = "Number of sensors (default: ${DEFAULT-VALUE}).")
    int sensors;

    @Option(
            names = "--readings-per-sensor",
            defaultValue = "100",
            description = "Readings per sensor fed at start (default: ${DEFAULT-VALUE}).")
    int readingsPerSensor;

    @Option(
            names = "--follow",
            description =
                    "Keep running: feed a reading per sensor every second and print" + " alerts until Ctrl-C/SIGTERM.")
    boolean follow;

    @Option(
            names = "--seed",
            defaultValue = "42",
            description = "Seed of the sample temperatures (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--input-topic",
            defaultValue = "readings",
            description = "Topic of readings (default: ${DEFAULT-VALUE}).")
    String inputTopic;

    @Option(
            names = "--output-topic",
            defaultValue = "alerts",
            description = "Topic of alerts (default: ${DEFAULT-VALUE}).")
    String outputTopic;

    private final Serde<String> keys = Serdes.strings();
    private final Serde<Reading> readingSerde = Serdes.json(Reading.class);
    private final Serde<Alert> alertSerde = Serdes.json(Alert.class);

    /** Runs the sample and exits with its status: 0 when the exactly-once check passed. */
    public static void main(String[] args) {
        SampleMain.exit(new TemperatureAlertsApp(), args);
    }

    @Override
    public Integer call() throws Exception {
        if (sensors < 1 || readingsPerSensor < 0 || options.partitions < 1) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--sensors and --partitions must be at least 1, --readings-per-sensor at least 0");
        }
        return options.run(this::run);
    }

    private int run(SampleKafka kafka, ShutdownSignal signal) {
        String bootstrap = kafka.bootstrapServers();
        Path dir = options.stateDir != null ? options.stateDir : StateDirs.createTemp("weir-temperature-alerts-");
        AlertLedger ledger = new AlertLedger(threshold);
        // Rounds one second apart ending now, then continuing in real time under --follow.
        long now = System.currentTimeMillis() / 1000 * 1000;
        SampleReadings samples = new SampleReadings(
                seed, sensors, now - readingsPerSensor * ROUND_INTERVAL.toMillis(), ROUND_INTERVAL.toMillis());
        WeirApp app = null;
        try {
            kafka.ensureTopics(List.of(inputTopic, outputTopic), options.partitions);
            try (CommittedTail<String, Alert> tail = CommittedTail.fromEnd(bootstrap, outputTopic, keys, alertSerde)) {
                feed(kafka, samples.nextRounds(readingsPerSensor), ledger);
                log.info(
                        "Fed {} readings from {} sensors to '{}'; {} are above {}°F",
                        ledger.readingsFed(),
                        sensors,
                        inputTopic,
                        ledger.alertsExpected(),
                        format(threshold));
                app = WeirApp.create(
                                TemperatureAlerts.topology(inputTopic, outputTopic, threshold), config(bootstrap, dir))
                        .start();
                log.info(
                        "Started '{}' with exactly-once processing; printing alerts from '{}' (read_committed){}",
                        options.applicationId(),
                        outputTopic,
                        app.httpPort().isPresent()
                                ? "; health, metrics and topology on" + " http://localhost:"
                                        + app.httpPort().getAsInt()
                                : "");

                awaitAlerts(tail, ledger, app, options.timeout(), signal);
                if (follow) {
                    followUntilSignal(kafka, samples, tail, ledger, app, signal);
                    awaitAlerts(tail, ledger, app, FINAL_ALERTS_TIMEOUT, null);
                }
                boolean failed = app.state() == WeirApp.State.FAILED;
                WeirApp stopping = app;
                app = null; // closed here, not again in finally
                stopping.close(SHUTDOWN_TIMEOUT);
                // Count what was committed up to the stop, so a late duplicate would not go unseen.
                show(tail.drainToEnd(SHUTDOWN_TIMEOUT), ledger);
                System.out.println("SUMMARY " + ledger.summary());
                if (failed) {
                    System.out.println("The application failed: "
                            + stopping.failure().map(String::valueOf).orElse("unknown error"));
                }
                return !failed && ledger.exactlyOnce() ? 0 : 1;
            }
        } finally {
            if (app != null) {
                app.close(SHUTDOWN_TIMEOUT);
            }
            if (options.stateDir == null) {
                StateDirs.deleteRecursively(dir);
            }
        }
    }

    private WeirConfig config(String bootstrap, Path dir) {
        return SampleConfigs.exactlyOnce(options.applicationId(), bootstrap, dir)
                .build();
    }

    /** Prints alerts until all expected ones arrived, the app failed, {@code timeout} passed or a signal. */
    private void awaitAlerts(
            CommittedTail<String, Alert> tail,
            AlertLedger ledger,
            WeirApp app,
            Duration timeout,
            ShutdownSignal stopOn) {
        Deadline deadline = Deadline.after(timeout);
        while (!ledger.allReceived()) {
            if (stopOn != null && stopOn.requested()) {
                log.info("Stopping on signal");
                return;
            }
            if (app.state() == WeirApp.State.FAILED) {
                log.error("The application failed", app.failure().orElse(null));
                return;
            }
            if (deadline.expired()) {
                log.warn(
                        "{} of {} expected alerts arrived within {} s",
                        ledger.alertsReceived(),
                        ledger.alertsExpected(),
                        timeout.toSeconds());
                return;
            }
            show(tail.poll(Duration.ofMillis(200)), ledger);
        }
    }

    /** Feeds one round per second and prints alerts in between, until SIGINT/SIGTERM. */
    private void followUntilSignal(
            SampleKafka kafka,
            SampleReadings samples,
            CommittedTail<String, Alert> tail,
            AlertLedger ledger,
            WeirApp app,
            ShutdownSignal signal) {
        log.info("Following: a reading per sensor every {} s; Ctrl-C to stop", ROUND_INTERVAL.toSeconds());
        long nextRound = System.nanoTime();
        while (!signal.requested() && app.state().isActive()) {
            if (System.nanoTime() - nextRound >= 0) {
                feed(kafka, samples.nextRound(), ledger);
                nextRound += ROUND_INTERVAL.toNanos();
            }
            long untilNext = Math.max(1, TimeUnit.NANOSECONDS.toMillis(nextRound - System.nanoTime()));
            show(tail.poll(Duration.ofMillis(Math.min(untilNext, 200))), ledger);
        }
        log.info("Stopping: no more readings; waiting for the last alerts, then closing the application");
    }

    private void feed(SampleKafka kafka, List<Reading> readings, AlertLedger ledger) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(readings.size());
        for (Reading r : readings) {
            // The record timestamp is the measurement time, so Kafka's time index matches the data.
            records.add(new ProducerRecord<>(
                    inputTopic,
                    null,
                    r.timestamp(),
                    keys.serialize(inputTopic, r.sensor()),
                    readingSerde.serialize(inputTopic, r)));
        }
        kafka.client().send(records);
        readings.forEach(ledger::fed);
    }

    private static void show(List<TailRecord<String, Alert>> records, AlertLedger ledger) {
        for (TailRecord<String, Alert> record : records) {
            Alert a = record.value();
            if (a == null) {
                continue; // a tombstone: not an alert, and not written by this application
            }
            String line = format(a);
            switch (ledger.received(a)) {
                case FIRST -> System.out.println("ALERT " + line);
                case DUPLICATE -> System.out.println("DUPLICATE " + line);
                case FOREIGN -> log.debug("Alert from an earlier run: {}", line);
            }
        }
    }

    private static String format(Alert a) {
        return a.sensor() + " " + format(a.temperature()) + "°F at " + Instant.ofEpochMilli(a.readingTimestamp());
    }

    private static String format(double temperature) {
        return String.format(Locale.ROOT, "%.1f", temperature);
    }
}
