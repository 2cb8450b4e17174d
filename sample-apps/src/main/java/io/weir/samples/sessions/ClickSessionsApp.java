package io.weir.samples.sessions;

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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
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
 * Runs the {@link ClickSessions} topology end to end with one command: starts an in-process Kafka
 * broker (or uses {@code --bootstrap-servers}), creates the topics, feeds the clicks of the worked example's
 * visitors A, B and C ({@link SampleClicks}: bursts with coffee breaks, and one click of A that
 * arrives late and bridges two of A's sessions), runs the application with exactly-once
 * processing, reads the sessions back with {@code read_committed} and prints, per visitor in the
 * order committed, every session result and retraction. Exits 0 when the sessions standing at the
 * end (the topic read as a changelog of windows) are exactly those the model computes from the
 * clicks, each emitted once, and the bridging click retracted exactly A's two emitted sessions
 * before the merged one was emitted; 1 otherwise.
 *
 * <p>Sessions and the summary go to stdout; progress and library logs go to stderr.
 */
@Command(
        name = "click-sessions",
        mixinStandardHelpOptions = true,
        version = "Weir sample 0.1.0",
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = "Counts the clicks of each visitor's sessions (5-minute inactivity gap), exactly once, with a"
                + " late click that merges two sessions already emitted.")
public final class ClickSessionsApp implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(ClickSessionsApp.class);
    private static final Duration POLL = Duration.ofMillis(200);

    @Mixin
    SampleOptions options;

    @Option(
            names = "--input-topic",
            defaultValue = ClickSessions.INPUT_TOPIC,
            description = "Topic of clicks (default: ${DEFAULT-VALUE}).")
    String inputTopic;

    @Option(
            names = "--output-topic",
            defaultValue = ClickSessions.OUTPUT_TOPIC,
            description = "Topic of clicks per session (default: ${DEFAULT-VALUE}).")
    String outputTopic;

    private final Serde<String> keys = Serdes.strings();
    private final Serde<Click> clickSerde = Serdes.json(Click.class);

    public static void main(String[] args) {
        SampleMain.exit(new ClickSessionsApp(), args);
    }

    @Override
    public Integer call() {
        if (options.partitions < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--partitions must be at least 1");
        }
        return options.run(this::run);
    }

    private int run(SampleKafka kafka, ShutdownSignal signal) {
        List<String> topics = List.of(inputTopic, outputTopic);
        // Windowed results are partitioned by the visitor alone, so each visitor's results are in
        // one partition, in the order they were committed, whatever the partition count.
        kafka.ensureTopics(topics, options.partitions);
        kafka.requireFresh(topics, options.applicationId());

        // Whole hours in the recent past: the last clicks, 90 minutes in, are not in the future.
        long base = Instant.now()
                .truncatedTo(ChronoUnit.HOURS)
                .minus(Duration.ofHours(2))
                .toEpochMilli();
        SampleClicks clicks = new SampleClicks(base);
        ClickSessions.Expected expected = ClickSessions.expected(clicks);
        WindowResults<String, Long> results = new WindowResults<>(expected.sessions());
        Map<String, List<TailRecord<Windowed<String>, Long>>> byVisitor = new TreeMap<>();
        feed(kafka, clicks.feedOrder());
        log.info(
                "Fed {} clicks of visitors A, B and C to '{}'; expecting {} sessions",
                clicks.feedOrder().size(),
                inputTopic,
                expected.sessions().size());

        String bootstrap = kafka.bootstrapServers();
        try (CommittedTail<Windowed<String>, Long> tail =
                        CommittedTail.fromBeginning(bootstrap, outputTopic, Serdes.windowed(keys), Serdes.longs());
                RunningApp app = RunningApp.start(
                        ClickSessions.topology(inputTopic, outputTopic),
                        dir -> config(bootstrap, dir),
                        options.stateDir,
                        "weir-click-sessions-")) {
            log.info(
                    "Started '{}' with exactly-once processing; reading '{}' (read_committed)",
                    options.applicationId(),
                    outputTopic);
            app.await(
                    results::complete,
                    () -> receive(tail.poll(POLL), results, byVisitor),
                    options.timeout(),
                    signal,
                    () -> results.missing() + " sessions missing or wrong");
            Optional<Throwable> failure = app.stop();
            // Read what was committed up to the stop, so that a repeated session would not go unseen.
            receive(tail.drainToEnd(RunningApp.SHUTDOWN_TIMEOUT), results, byVisitor);

            System.out.println("Clicks per session: a session ends when its visitor pauses for more than 5 minutes"
                    + " (SessionWindows.withInactivityGap(5 min)); times are UTC, a session is [first click, last"
                    + " click].");
            System.out.println("What '" + outputTopic + "' holds, per visitor in the order committed:");
            byVisitor.forEach((visitor, records) -> {
                records.forEach(r -> print(r, expected, clicks));
                if (visitor.equals(clicks.bridge().visitor())) {
                    explainMerge(expected, clicks);
                }
            });
            boolean mergeShown =
                    mergeShown(byVisitor.getOrDefault(clicks.bridge().visitor(), List.of()), expected);
            for (Windowed<String> s : expected.open()) {
                System.out.println("OPEN     " + s.key() + " " + TimeText.session(s, TimeText::clock)
                        + "  still open: the watermark has not passed its last click + 5 min, so it is not emitted");
            }
            System.out.println("SUMMARY sessions: " + results.summary());
            System.out.println("SUMMARY merge: retracted " + format(results.retracted()) + " (expected "
                    + format(expected.retracted()) + "), then emitted " + format(List.of(expected.merged())) + ": "
                    + (mergeShown ? "PASSED" : "FAILED"));
            failure.ifPresent(e -> System.out.println("The application failed: " + e));
            return failure.isEmpty() && results.passed() && mergeShown ? 0 : 1;
        }
    }

    private WeirConfig config(String bootstrap, Path dir) {
        return SampleConfigs.exactlyOnce(options.applicationId(), bootstrap, dir)
                .build();
    }

    private void feed(SampleKafka kafka, List<Click> clicks) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(clicks.size());
        for (Click c : clicks) {
            records.add(new ProducerRecord<>(
                    inputTopic, keys.serialize(inputTopic, c.visitor()), clickSerde.serialize(inputTopic, c)));
        }
        kafka.client().send(records);
    }

    private static void receive(
            List<TailRecord<Windowed<String>, Long>> records,
            WindowResults<String, Long> results,
            Map<String, List<TailRecord<Windowed<String>, Long>>> byVisitor) {
        for (TailRecord<Windowed<String>, Long> r : records) {
            results.received(r, null);
            byVisitor.computeIfAbsent(r.key().key(), k -> new ArrayList<>()).add(r);
        }
    }

    private static void print(
            TailRecord<Windowed<String>, Long> r, ClickSessions.Expected expected, SampleClicks clicks) {
        Windowed<String> s = r.key();
        String what = r.value() == null ? "RETRACT " : "SESSION ";
        String value = r.value() == null ? "null" : r.value() + (r.value() == 1 ? " click" : " clicks");
        String note = "";
        if (r.value() == null && expected.retracted().contains(s)) {
            note = "  <- taken back: the click at "
                    + TimeText.clock(clicks.bridge().clickedAt()) + " merged it";
        } else if (r.value() != null && s.equals(expected.merged())) {
            note = "  <- the merged session";
        } else if (r.value() != null && expected.retracted().contains(s)) {
            note = "  <- emitted when the watermark passed " + TimeText.clock(s.end()) + " + 5 min";
        }
        String mark = r.value() == null
                        || r.value().equals(expected.sessions().get(s))
                        || expected.retracted().contains(s)
                ? ""
                : "   expected " + expected.sessions().get(s);
        System.out.printf(
                "%s %s %-22s %-10s %-8s%s%s%n",
                what, s.key(), TimeText.session(s, TimeText::clock), value, r.pane(), note, mark);
    }

    private static void explainMerge(ClickSessions.Expected expected, SampleClicks clicks) {
        Click bridge = clicks.bridge();
        long arrivedAfter = clicks.beforeBridge().stream()
                .filter(c -> c.visitor().equals(bridge.visitor()))
                .mapToLong(Click::clickedAt)
                .max()
                .orElseThrow();
        String v = bridge.visitor();
        System.out.println("  MERGE: " + v + "'s click at " + TimeText.clock(bridge.clickedAt()) + " reached Kafka only"
                + " after its click at " + TimeText.clock(arrivedAfter) + " (the phone was offline).");
        System.out.println("         It is within 5 minutes of both " + format(expected.retracted()) + ", so it joins"
                + " them into one session.");
        System.out.println("         Both results were already out (pane 'final': the watermark had passed their last"
                + " click + 5 min),");
        System.out.println("         so Weir takes each back with a null value for its window (pane 'retract'), then"
                + " emits the merged");
        System.out.println("         session (pane 'late': the click came within the allowed lateness of 60 min)."
                + " Read as a changelog");
        System.out.println("         of windows (a value sets a session, null deletes it), the topic holds " + v
                + "'s true sessions.");
    }

    /**
     * The retractions of the sessions the bridging click merged came before the merged session, in
     * the visitor's partition (Weir partitions windowed results by their inner key).
     */
    private static boolean mergeShown(
            List<TailRecord<Windowed<String>, Long>> records, ClickSessions.Expected expected) {
        List<Windowed<String>> retractions = new ArrayList<>();
        List<Windowed<String>> retractedBeforeMerge = null;
        for (TailRecord<Windowed<String>, Long> r : records) {
            if (!r.key().key().equals(expected.merged().key())) {
                continue;
            }
            if (r.value() == null) {
                retractions.add(r.key());
            } else if (r.key().equals(expected.merged()) && retractedBeforeMerge == null) {
                retractedBeforeMerge = List.copyOf(retractions);
            }
        }
        if (retractedBeforeMerge == null || !retractions.equals(expected.retracted())) {
            return false;
        }
        if (records.stream()
                        .filter(r -> r.key().key().equals(expected.merged().key()))
                        .map(TailRecord::partition)
                        .distinct()
                        .count()
                != 1) {
            return false;
        }
        return retractedBeforeMerge.equals(expected.retracted());
    }

    private static String format(List<Windowed<String>> sessions) {
        return sessions.stream().map(s -> TimeText.session(s, TimeText::clock)).collect(Collectors.joining(" and "));
    }
}
