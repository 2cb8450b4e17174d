package io.weir.samples.hourly;

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
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Runs the {@link HourlyCounts} topology end to end with one command: starts an in-process Kafka
 * broker (or uses {@code --bootstrap-servers}), creates the topics and runs the application with
 * exactly-once processing while it feeds two hours of posts ({@link SamplePosts}) in two phases:
 * <ol>
 *   <li>the posts of the first half hour. {@code #weir} passes 10 posts at 0:25: its alert arrives
 *       on {@code count-alerts} (read with {@code read_committed}) while the hour is still open,
 *       and {@code hourly-counts} holds nothing yet, which the sample checks;</li>
 *   <li>the rest, then the first post of the third hour per hashtag: more alerts, and the final
 *       count of every hashtag and hour once the watermark passes the hour's end.</li>
 * </ol>
 * Exits 0 when the alerts are exactly the hours whose count passes the threshold (each once), the
 * final counts are exactly the counts of the posts (each once), and the first alert came before
 * any count of its hour; 1 otherwise.
 *
 * <p>Alerts, counts and the summary go to stdout; progress and library logs go to stderr.
 */
@Command(
        name = "hourly-counts",
        mixinStandardHelpOptions = true,
        version = "Weir sample 0.1.0",
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = "Counts posts per hashtag per hour and alerts as soon as an hour's count passes a threshold,"
                + " in one topology, exactly once.")
public final class HourlyCountsApp implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(HourlyCountsApp.class);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final long MAX_THRESHOLD = 10;

    @Mixin
    SampleOptions options;

    @Option(
            names = "--threshold",
            defaultValue = "10",
            description = "Alert when an hour's count passes this," + " 1 to 10 (default: ${DEFAULT-VALUE}).")
    long threshold;

    @Option(
            names = "--input-topic",
            defaultValue = HourlyCounts.INPUT_TOPIC,
            description = "Topic of posts (default: ${DEFAULT-VALUE}).")
    String inputTopic;

    @Option(
            names = "--counts-topic",
            defaultValue = HourlyCounts.COUNTS_TOPIC,
            description = "Topic of the final count per hashtag and hour (default: ${DEFAULT-VALUE}).")
    String countsTopic;

    @Option(
            names = "--alerts-topic",
            defaultValue = HourlyCounts.ALERTS_TOPIC,
            description = "Topic of the alerts (default: ${DEFAULT-VALUE}).")
    String alertsTopic;

    private final Serde<String> keys = Serdes.strings();
    private final Serde<Post> postSerde = Serdes.json(Post.class);

    public static void main(String[] args) {
        SampleMain.exit(new HourlyCountsApp(), args);
    }

    @Override
    public Integer call() {
        if (threshold < 1 || threshold > MAX_THRESHOLD || options.partitions < 1) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--threshold must be between 1 and " + MAX_THRESHOLD + ", --partitions at least 1");
        }
        return options.run(this::run);
    }

    private int run(SampleKafka kafka, ShutdownSignal signal) {
        List<String> topics = List.of(inputTopic, countsTopic, alertsTopic);
        kafka.ensureTopics(topics, options.partitions);
        kafka.requireFresh(topics, options.applicationId());

        // Whole hours in the recent past: two hours of posts, then the first post of the current hour.
        long base = Instant.now()
                .truncatedTo(ChronoUnit.HOURS)
                .minus(Duration.ofHours(2))
                .toEpochMilli();
        SamplePosts posts = new SamplePosts(base);
        HourlyCounts.Expected expected = HourlyCounts.expected(posts, threshold);
        WindowResults<String, Long> counts = new WindowResults<>(expected.counts());
        WindowResults<String, Long> alerts = new WindowResults<>(expected.alerts());
        WindowResults<String, Long> phaseOneAlerts = new WindowResults<>(expected.phaseOne());
        Map<Windowed<String>, String> panes = new HashMap<>();

        String bootstrap = kafka.bootstrapServers();
        try (CommittedTail<Windowed<String>, Long> countsTail =
                        CommittedTail.fromBeginning(bootstrap, countsTopic, Serdes.windowed(keys), Serdes.longs());
                CommittedTail<Windowed<String>, Long> alertsTail =
                        CommittedTail.fromBeginning(bootstrap, alertsTopic, Serdes.windowed(keys), Serdes.longs());
                RunningApp app = RunningApp.start(
                        HourlyCounts.topology(inputTopic, countsTopic, alertsTopic, threshold),
                        dir -> config(bootstrap, dir),
                        options.stateDir,
                        "weir-hourly-counts-")) {
            log.info(
                    "Started '{}' with exactly-once processing; reading '{}' and '{}' (read_committed)",
                    options.applicationId(),
                    countsTopic,
                    alertsTopic);
            System.out.println("Posts per hashtag per hour: TimeWindows.of(1 h) with Emit.earlyEvery(1); an alert as"
                    + " soon as an hour's count passes " + threshold + "; times are UTC.");

            // Phase 1: the first half hour. The alert must come while the hour is open.
            feed(kafka, posts.phaseOne());
            System.out.println("PHASE 1  fed the " + posts.phaseOne().size() + " posts from " + TimeText.clock(base)
                    + " to " + TimeText.clock(base + SamplePosts.PHASE_ONE_UNTIL.toMillis()));
            Runnable poll = () -> {
                receiveAlerts(alertsTail.poll(POLL), alerts, phaseOneAlerts, expected, panes);
                receive(countsTail.poll(POLL), counts, panes);
            };
            app.await(
                    phaseOneAlerts::complete,
                    poll,
                    options.timeout(),
                    signal,
                    () -> phaseOneAlerts.missing() + " alerts of phase 1 missing");
            // Everything committed to the counts so far: nothing may be there for an hour still open.
            receive(countsTail.drainToEnd(RunningApp.SHUTDOWN_TIMEOUT), counts, panes);
            boolean alertFirst = phaseOneAlerts.complete()
                    && expected.phaseOne().keySet().stream()
                            .noneMatch(hour -> counts.standing().containsKey(hour));
            for (Windowed<String> hour : expected.phaseOne().keySet()) {
                System.out.println("         '" + countsTopic + "' holds "
                        + (counts.standing().containsKey(hour) ? "a count" : "no count yet") + " for " + hour.key()
                        + " " + hours(hour)
                        + ": the hour is still open (no post after "
                        + TimeText.clock(base + SamplePosts.PHASE_ONE_UNTIL.toMillis())
                        + " was fed, so the watermark is before its end)");
            }

            // Phase 2: the rest, then the first post of the next hour, which closes both hours.
            feed(kafka, posts.phaseTwo());
            System.out.println("PHASE 2  fed the other " + posts.phaseTwo().size() + " posts, up to "
                    + TimeText.clock(posts.closingTime()) + " (one per hashtag, which closes the hours before it)");
            app.await(
                    () -> counts.complete() && alerts.complete(),
                    poll,
                    options.timeout(),
                    signal,
                    () -> counts.missing() + " counts and " + alerts.missing() + " alerts missing");
            Optional<Throwable> failure = app.stop();
            // Read what was committed up to the stop, so that a repeated count or alert would not go unseen.
            receiveAlerts(alertsTail.drainToEnd(RunningApp.SHUTDOWN_TIMEOUT), alerts, phaseOneAlerts, expected, panes);
            receive(countsTail.drainToEnd(RunningApp.SHUTDOWN_TIMEOUT), counts, panes);

            printCounts(expected, counts, panes);
            System.out.println("SUMMARY alerts: " + alerts.summary());
            System.out.println("SUMMARY hourly counts: " + counts.summary());
            System.out.println("SUMMARY the alert of phase 1 came while its hour was open, before its count: "
                    + (alertFirst ? "PASSED" : "FAILED"));
            failure.ifPresent(e -> System.out.println("The application failed: " + e));
            return failure.isEmpty() && alerts.passed() && counts.passed() && alertFirst ? 0 : 1;
        }
    }

    private WeirConfig config(String bootstrap, Path dir) {
        return SampleConfigs.exactlyOnce(options.applicationId(), bootstrap, dir)
                .build();
    }

    private void feed(SampleKafka kafka, List<Post> batch) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(batch.size());
        for (Post p : batch) {
            records.add(new ProducerRecord<>(
                    inputTopic, keys.serialize(inputTopic, p.hashtag()), postSerde.serialize(inputTopic, p)));
        }
        kafka.client().send(records);
    }

    private void receiveAlerts(
            List<TailRecord<Windowed<String>, Long>> records,
            WindowResults<String, Long> alerts,
            WindowResults<String, Long> phaseOne,
            HourlyCounts.Expected expected,
            Map<Windowed<String>, String> panes) {
        for (TailRecord<Windowed<String>, Long> r : records) {
            WindowResults.Outcome outcome = alerts.received(r.key(), r.value());
            if (expected.phaseOne().containsKey(r.key())) {
                phaseOne.received(r.key(), r.value());
            }
            Long crossed = expected.crossedAt().get(r.key());
            String mark = switch (outcome) {
                case EXPECTED ->
                    crossed == null
                            ? ""
                            : "  <- its " + ordinal(threshold + 1) + " post, at " + TimeText.clock(crossed);
                case UNEXPECTED -> "   NOT EXPECTED";
                default -> "   " + outcome;
            };
            System.out.printf(
                    "ALERT    %-7s %s  count %s (pane %s)%s%n",
                    r.key().key(), hours(r.key()), r.value(), r.pane(), mark);
        }
    }

    private static void receive(
            List<TailRecord<Windowed<String>, Long>> records,
            WindowResults<String, Long> counts,
            Map<Windowed<String>, String> panes) {
        for (TailRecord<Windowed<String>, Long> r : records) {
            counts.received(r, "count");
            panes.put(r.key(), r.pane());
        }
    }

    private void printCounts(
            HourlyCounts.Expected expected, WindowResults<String, Long> counts, Map<Windowed<String>, String> panes) {
        System.out.println("Final counts on '" + countsTopic + "', emitted when the watermark passed each hour's end:");
        for (Map.Entry<Windowed<String>, Long> e : expected.counts().entrySet()) {
            Windowed<String> hour = e.getKey();
            Long read = counts.standing().get(hour);
            String mark = read == null
                    ? "   MISSING, expected " + e.getValue()
                    : !read.equals(e.getValue()) ? "   expected " + e.getValue() : "";
            String alerted = expected.alerts().containsKey(hour) ? "  (alerted when it passed " + threshold + ")" : "";
            System.out.printf(
                    "COUNT    %-7s %s  %3s (pane %s)%s%s%n",
                    hour.key(), hours(hour), read == null ? "-" : read, panes.getOrDefault(hour, "-"), alerted, mark);
        }
        for (Map.Entry<Windowed<String>, Long> e : counts.standing().entrySet()) {
            if (!expected.counts().containsKey(e.getKey())) {
                System.out.println("COUNT    " + e.getKey() + " = " + e.getValue() + "   NOT EXPECTED");
            }
        }
    }

    /** 1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st. */
    static String ordinal(long n) {
        long lastTwo = n % 100;
        String suffix = lastTwo >= 11 && lastTwo <= 13
                ? "th"
                : switch ((int) (n % 10)) {
                    case 1 -> "st";
                    case 2 -> "nd";
                    case 3 -> "rd";
                    default -> "th";
                };
        return n + suffix;
    }

    private static String hours(Windowed<String> hour) {
        return TimeText.timeWindow(hour, t -> TimeText.clock(t).substring(0, 5));
    }
}
