package io.weir.samples.sensors;

import io.weir.config.WeirConfig;
import io.weir.samples.common.CommittedTail;
import io.weir.samples.common.RunningApp;
import io.weir.samples.common.SampleConfigs;
import io.weir.samples.common.SampleKafka;
import io.weir.samples.common.SampleMain;
import io.weir.samples.common.SampleOptions;
import io.weir.samples.common.ShutdownSignal;
import io.weir.samples.common.TailRecord;
import io.weir.samples.common.TimeText;
import io.weir.samples.common.WindowResults;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Runs the {@link SensorSums} topology end to end with one command: starts an in-process Kafka
 * broker (or uses {@code --bootstrap-servers}), creates the topics, feeds a few minutes of
 * readings of several sensors (the worked example's 9, 6, 8, 4, 7, 3 among them, one reading out of order,
 * then a closing reading per sensor), runs the application with exactly-once processing, reads
 * both windowed sums back with {@code read_committed} and prints every window with its start, end
 * and the values it summed. Exits 0 when the windows emitted are exactly those the readings imply
 * (each once, with its sum, the worked example's 27 and 22 among them) and the late-records topic holds
 * exactly the records the model says were late; 1 otherwise.
 *
 * <p>Windows and the summary go to stdout; progress and library logs go to stderr.
 */
@Command(
        name = "sensor-sums",
        mixinStandardHelpOptions = true,
        version = "Weir sample 0.1.0",
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = "Sums sensor readings per 1-minute tumbling window and per 1-minute window sliding every"
                + " 30 s, in event time, exactly once.")
public final class SensorSumsApp implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(SensorSumsApp.class);
    private static final Duration MAX_OUT_OF_ORDERNESS = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(100);

    @Mixin
    SampleOptions options;

    @Option(
            names = "--sensors",
            defaultValue = "3",
            description = "Number of sensors, at least 2 (default:" + " ${DEFAULT-VALUE}).")
    int sensors;

    @Option(
            names = "--minutes",
            defaultValue = "5",
            description = "Minutes of event time with a reading every 15 s," + " 3 to 60 (default: ${DEFAULT-VALUE}).")
    int minutes;

    @Option(
            names = "--out-of-orderness",
            defaultValue = "20",
            description =
                    "max.out.of.orderness.ms in seconds,"
                            + " 0 to 30 (default: ${DEFAULT-VALUE}); with 0 the delayed reading is late for its window [1:00, 2:00).")
    int outOfOrdernessSeconds;

    @Option(
            names = "--seed",
            defaultValue = "42",
            description = "Seed of the values after the worked example's own (default:" + " ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--input-topic",
            defaultValue = SensorSums.INPUT_TOPIC,
            description = "Topic of readings (default: ${DEFAULT-VALUE}).")
    String inputTopic;

    @Option(
            names = "--tumbling-topic",
            defaultValue = SensorSums.TUMBLING_TOPIC,
            description = "Topic of the 1-minute tumbling sums (default: ${DEFAULT-VALUE}).")
    String tumblingTopic;

    @Option(
            names = "--sliding-topic",
            defaultValue = SensorSums.SLIDING_TOPIC,
            description = "Topic of the 1-minute sums sliding every 30 s (default: ${DEFAULT-VALUE}).")
    String slidingTopic;

    private final Serde<String> keys = Serdes.strings();
    private final Serde<SensorReading> readingSerde = Serdes.json(SensorReading.class);
    private final Serde<Windowed<String>> windowKeys = Serdes.windowed(Serdes.strings());

    public static void main(String[] args) {
        SampleMain.exit(new SensorSumsApp(), args);
    }

    @Override
    public Integer call() {
        if (sensors < SampleSensorReadings.MIN_SENSORS
                || minutes < SampleSensorReadings.MIN_MINUTES
                || minutes > 60
                || outOfOrdernessSeconds < 0
                || outOfOrdernessSeconds > MAX_OUT_OF_ORDERNESS.toSeconds()
                || options.partitions < 1) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--sensors must be at least 2, --minutes"
                            + " between 3 and 60, --out-of-orderness between 0 and 30, --partitions at least 1");
        }
        return options.run(this::run);
    }

    private int run(SampleKafka kafka, ShutdownSignal signal) {
        List<String> topics = List.of(inputTopic, tumblingTopic, slidingTopic);
        kafka.ensureTopics(topics, options.partitions);
        kafka.requireFresh(topics, options.applicationId());

        // A whole hour in the recent past: the windows are aligned to it, every reading (up to 61:15 in)
        // is in the past, and the broker keeps the results.
        long base = Instant.now()
                .truncatedTo(ChronoUnit.HOURS)
                .minus(Duration.ofHours(2))
                .toEpochMilli();
        SampleSensorReadings readings = new SampleSensorReadings(seed, sensors, minutes, base);
        Duration ooo = Duration.ofSeconds(outOfOrdernessSeconds);
        SensorSums.Expected tumbling = SensorSums.expected(readings, SensorSums.TUMBLING, ooo);
        SensorSums.Expected sliding = SensorSums.expected(readings, SensorSums.SLIDING, ooo);
        WindowResults<String, Long> tumblingResults = new WindowResults<>(tumbling.sums());
        WindowResults<String, Long> slidingResults = new WindowResults<>(sliding.sums());
        Map<Windowed<String>, String> panes = new HashMap<>();
        feed(kafka, readings.feedOrder());
        log.info(
                "Fed {} readings of {} sensors to '{}'; expecting {} tumbling and {} sliding windows",
                readings.feedOrder().size(),
                sensors,
                inputTopic,
                tumbling.sums().size(),
                sliding.sums().size());

        String bootstrap = kafka.bootstrapServers();
        try (CommittedTail<Windowed<String>, Long> tumblingTail =
                        CommittedTail.fromBeginning(bootstrap, tumblingTopic, windowKeys, Serdes.longs());
                CommittedTail<Windowed<String>, Long> slidingTail =
                        CommittedTail.fromBeginning(bootstrap, slidingTopic, windowKeys, Serdes.longs());
                RunningApp app = RunningApp.start(
                        SensorSums.topology(inputTopic, tumblingTopic, slidingTopic),
                        dir -> config(bootstrap, dir, ooo),
                        options.stateDir,
                        "weir-sensor-sums-")) {
            log.info(
                    "Started '{}' with exactly-once processing, max.out.of.orderness.ms={}; reading '{}' and '{}'"
                            + " (read_committed)",
                    options.applicationId(),
                    ooo.toMillis(),
                    tumblingTopic,
                    slidingTopic);
            app.await(
                    () -> tumblingResults.complete() && slidingResults.complete(),
                    () -> {
                        receive(tumblingTail.poll(POLL), tumblingResults, panes, "TUMBLING");
                        receive(slidingTail.poll(POLL), slidingResults, panes, "SLIDING");
                    },
                    options.timeout(),
                    signal,
                    () -> tumblingResults.missing() + " tumbling and " + slidingResults.missing()
                            + " sliding windows missing");
            Optional<Throwable> failure = app.stop();
            // Read what was committed up to the stop, so that a repeated window would not go unseen.
            receive(tumblingTail.drainToEnd(RunningApp.SHUTDOWN_TIMEOUT), tumblingResults, panes, "TUMBLING");
            receive(slidingTail.drainToEnd(RunningApp.SHUTDOWN_TIMEOUT), slidingResults, panes, "SLIDING");
            long lateRecords = countLateRecords(bootstrap);

            System.out.println("Minute 0:00 is " + Instant.ofEpochMilli(base) + "; every sensor measures every 15 s;"
                    + " windows include their start and exclude their end.");
            System.out.println("1-minute tumbling windows, TimeWindows.of(1 min):");
            print("TUMBLING", false, tumbling, tumblingResults, panes, readings);
            System.out.println("1-minute windows sliding every 30 s, TimeWindows.of(1 min).advanceBy(30 s):");
            print("SLIDING", true, sliding, slidingResults, panes, readings);

            boolean seedFigures = seedFigures(slidingResults, base);
            int lateExpected = tumbling.late().size() + sliding.late().size();
            System.out.println("OUT OF ORDER " + readings.delayed().sensor() + "'s reading at "
                    + sinceBase(base, readings.delayed().measuredAt()) + " was fed after its reading at "
                    + sinceBase(base, readings.largestTimeBeforeDelayed()) + "; with max.out.of.orderness.ms="
                    + ooo.toMillis() + " the watermark was at "
                    + sinceBase(base, readings.largestTimeBeforeDelayed() - ooo.toMillis())
                    + (lateExpected == 0
                            ? ": its windows were still open and it counted"
                            : ": it was late for " + lateExpected + " window(s), which went on without it")
                    + "; the late-records topic '" + lateTopic() + "' holds " + lateRecords + " record(s)");
            System.out.println("OPEN windows holding the closing readings at "
                    + sinceBase(base, readings.closingTime()) + " are not emitted: the watermark ("
                    + sinceBase(base, readings.closingTime() - ooo.toMillis()) + ") has not reached their end");
            boolean lateOk = lateRecords == lateExpected;
            System.out.println("SUMMARY tumbling: " + tumblingResults.summary());
            System.out.println("SUMMARY sliding: " + slidingResults.summary());
            System.out.println("SUMMARY the worked sliding sums 27 and 22: " + (seedFigures ? "PASSED" : "FAILED")
                    + "; late records " + lateRecords + " of " + lateExpected + " expected: "
                    + (lateOk ? "PASSED" : "FAILED"));
            failure.ifPresent(e -> System.out.println("The application failed: " + e));
            return failure.isEmpty() && tumblingResults.passed() && slidingResults.passed() && seedFigures && lateOk
                    ? 0
                    : 1;
        }
    }

    private WeirConfig config(String bootstrap, Path dir, Duration ooo) {
        return SampleConfigs.exactlyOnce(options.applicationId(), bootstrap, dir)
                .set("max.out.of.orderness.ms", ooo.toMillis())
                .set("late.records.topic", lateTopic())
                .build();
    }

    /** Named in the configuration, so that the application and this sample's reader of it agree. */
    private String lateTopic() {
        return options.applicationId() + "-late";
    }

    private void feed(SampleKafka kafka, List<SensorReading> readings) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(readings.size());
        for (SensorReading r : readings) {
            // No record timestamp: Kafka stamps the send time; the windows use measuredAt.
            records.add(new ProducerRecord<>(
                    inputTopic, keys.serialize(inputTopic, r.sensor()), readingSerde.serialize(inputTopic, r)));
        }
        kafka.client().send(records);
    }

    private long countLateRecords(String bootstrap) {
        try (CommittedTail<byte[], byte[]> late =
                CommittedTail.fromBeginning(bootstrap, lateTopic(), Serdes.bytes(), Serdes.bytes())) {
            return late.drainToEnd(RunningApp.SHUTDOWN_TIMEOUT).size();
        }
    }

    private static void receive(
            List<TailRecord<Windowed<String>, Long>> records,
            WindowResults<String, Long> results,
            Map<Windowed<String>, String> panes,
            String label) {
        for (TailRecord<Windowed<String>, Long> r : records) {
            results.received(r, label);
            panes.put(r.key(), r.pane());
        }
    }

    private static void print(
            String label,
            boolean sliding,
            SensorSums.Expected expected,
            WindowResults<String, Long> results,
            Map<Windowed<String>, String> panes,
            SampleSensorReadings readings) {
        long base = readings.base();
        Map<Windowed<String>, Long> standing = results.standing();
        for (Map.Entry<Windowed<String>, List<Long>> e : expected.addends().entrySet()) {
            Windowed<String> w = e.getKey();
            Long read = standing.get(w);
            Long sum = results.expected(w);
            if (sum == null && read == null) {
                continue; // still open: printed as one line at the end
            }
            String addends = e.getValue().stream().map(String::valueOf).collect(Collectors.joining(" + "));
            if (w.key().equals(readings.delayed().sensor())
                    && !expected.late().contains(w)
                    && w.start() <= readings.delayed().measuredAt()
                    && readings.delayed().measuredAt() < w.end()) {
                addends += "*"; // the last value summed, in feed order, is the one that came out of order
            }
            String mark = sum == null
                    ? "   NOT EXPECTED (still open)"
                    : read == null ? "   MISSING, expected " + sum : !read.equals(sum) ? "   expected " + sum : "";
            System.out.printf(
                    "%-8s %s %-16s %4s = %-28s %-6s%s%s%n",
                    label,
                    w.key(),
                    TimeText.timeWindow(w, t -> sinceBase(base, t)),
                    read == null ? "-" : read,
                    addends,
                    panes.getOrDefault(w, ""),
                    note(w, sliding, expected, readings),
                    mark);
        }
        for (Map.Entry<Windowed<String>, Long> e : standing.entrySet()) {
            if (!expected.addends().containsKey(e.getKey())) {
                System.out.println(label + " " + e.getKey() + " = " + e.getValue() + "   NOT EXPECTED (no reading)");
            }
        }
    }

    /** What a window shows: the worked example's figures, the reading that came out of order. */
    private static String note(
            Windowed<String> w, boolean sliding, SensorSums.Expected expected, SampleSensorReadings readings) {
        long base = readings.base();
        if (sliding && w.key().equals(SampleSensorReadings.SEED_SENSOR)) {
            if (w.start() == base) {
                return "  <- the worked example's first sliding window: 9+6+8+4 = 27";
            }
            if (w.start() == base + 30_000) {
                return "  <- the worked example's next one, 30 s later: 8+4+7+3 = 22";
            }
        }
        SensorReading delayed = readings.delayed();
        if (w.key().equals(delayed.sensor()) && w.start() <= delayed.measuredAt() && delayed.measuredAt() < w.end()) {
            return expected.late().contains(w)
                    ? "  <- without its " + sinceBase(base, delayed.measuredAt()) + " reading: it came late"
                    : "  <- *its " + sinceBase(base, delayed.measuredAt()) + " reading came after its 2:00 one";
        }
        if (w.start() < base) {
            return "  <- began 30 s before the first reading";
        }
        return "";
    }

    /** The worked example's figures, as read back: sliding [0:00, 1:00) of sensor-1 is 27, [0:30, 1:30) is 22. */
    private static boolean seedFigures(WindowResults<String, Long> sliding, long base) {
        String s = SampleSensorReadings.SEED_SENSOR;
        return Long.valueOf(27).equals(sliding.standing().get(new Windowed<>(s, base, base + 60_000)))
                && Long.valueOf(22).equals(sliding.standing().get(new Windowed<>(s, base + 30_000, base + 90_000)));
    }

    private static String sinceBase(long base, long t) {
        return TimeText.sinceBase(base, t);
    }
}
