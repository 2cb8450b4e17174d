package io.weir.samples.ysb;

import io.weir.WeirApp;
import io.weir.common.internal.Deadline;
import io.weir.dsl.Emit;
import io.weir.samples.common.CommittedTail;
import io.weir.samples.common.RatePacer;
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
import java.util.ArrayList;
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
 * Runs the Yahoo Streaming Benchmark ({@link Ysb}) end to end with one command: starts an
 * in-process Kafka broker (or uses {@code --bootstrap-servers}), writes the campaigns (a compacted
 * topic of ad to campaign), starts the job with exactly-once processing, generates ad events at a
 * fixed rate for a fixed time (event time is the generation time), and reads the results back with
 * {@code read_committed}. Exits 0 when every 10-second window of every campaign got exactly one
 * final count equal to the views generated for it ({@link YsbChecker}); prints the latency of the
 * final counts (seen by the reader minus the window's end).
 *
 * <p>The summary goes to stdout; progress and library logs go to stderr.
 */
@Command(
        name = "ysb",
        mixinStandardHelpOptions = true,
        version = "Weir sample 0.1.0",
        sortOptions = false,
        usageHelpAutoWidth = true,
        description =
                "The Yahoo Streaming Benchmark: ad views joined to their campaign and counted per campaign in"
                        + " 10 s windows of event time, exactly once, with each window's count checked and its latency measured.")
public final class YsbApp implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(YsbApp.class);
    private static final Duration POLL = Duration.ofMillis(5);

    @Mixin
    SampleOptions options;

    @Option(names = "--rate", defaultValue = "10000", description = "Events per second (default: ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--seconds", defaultValue = "30", description = "Seconds of events (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Option(
            names = "--campaigns",
            defaultValue = "100",
            description = "Campaigns, of 10 ads each (default:" + " ${DEFAULT-VALUE}).")
    int campaigns;

    @Option(
            names = "--early-ms",
            defaultValue = "1000",
            description = "Write a window's growing count every this many"
                    + " ms before its final one; 0 for the final one only (default: ${DEFAULT-VALUE}).")
    long earlyMs;

    @Option(
            names = "--early-max-lag",
            defaultValue = "50000",
            description =
                    "early.results.max.lag.records: how far"
                            + " behind its input the job may be and still write early counts; 0 for no limit (default: ${DEFAULT-VALUE}).")
    long earlyMaxLag;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the data (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--events-topic",
            defaultValue = "ad-events",
            description = "Topic of ad events (default:" + " ${DEFAULT-VALUE}).")
    String eventsTopic;

    @Option(
            names = "--campaigns-topic",
            defaultValue = "ad-campaigns",
            description = "Compacted topic of ad to campaign" + " (default: ${DEFAULT-VALUE}).")
    String campaignsTopic;

    @Option(
            names = "--output-topic",
            defaultValue = "campaign-window-counts",
            description = "Topic of the counts" + " (default: ${DEFAULT-VALUE}).")
    String outputTopic;

    private final Serde<AdEvent> events = Serdes.json(AdEvent.class);

    public static void main(String[] args) {
        SampleMain.exit(new YsbApp(), args);
    }

    @Override
    public Integer call() {
        if (rate < 1 || seconds < 1 || campaigns < 1 || earlyMs < 0 || earlyMaxLag < 0 || options.partitions < 1) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--rate, --seconds, --campaigns and" + " --partitions must be at least 1, --early-ms at least 0");
        }
        return options.run(this::run);
    }

    private int run(SampleKafka kafka, ShutdownSignal signal) {
        kafka.ensureTopics(List.of(eventsTopic, outputTopic), options.partitions);
        kafka.ensureTopics(List.of(campaignsTopic), 1, Map.of("cleanup.policy", "compact"));
        kafka.requireFresh(List.of(eventsTopic, outputTopic, campaignsTopic), options.applicationId());
        YsbData data = new YsbData(campaigns, seed);
        List<ProducerRecord<byte[], byte[]>> campaignRecords = new ArrayList<>();
        data.campaignOfAd()
                .forEach((ad, campaign) -> campaignRecords.add(new ProducerRecord<>(
                        campaignsTopic,
                        Serdes.strings().serialize(campaignsTopic, ad),
                        Serdes.strings().serialize(campaignsTopic, campaign))));
        kafka.client().send(campaignRecords);
        log.info("Wrote {} campaigns of {} ads to '{}'", campaigns, YsbData.ADS_PER_CAMPAIGN, campaignsTopic);

        YsbChecker checker = new YsbChecker(data.campaignOfAd(), Ysb.WINDOW.toMillis());
        Emit emit = earlyMs == 0 ? Emit.atWatermark() : Emit.early(Duration.ofMillis(earlyMs));
        String bootstrap = kafka.bootstrapServers();
        try (CommittedTail<String, Long> tail =
                        CommittedTail.fromBeginning(bootstrap, outputTopic, Serdes.strings(), Serdes.longs());
                RunningApp app = RunningApp.start(
                        Ysb.topology(eventsTopic, campaignsTopic, outputTopic, emit),
                        dir -> SampleConfigs.exactlyOnce(options.applicationId(), bootstrap, dir)
                                .set("early.results.max.lag.records", earlyMaxLag)
                                .build(),
                        options.stateDir,
                        "weir-ysb-")) {
            // Latency is measured from the first event: the job must be running, its tasks assigned.
            app.await(
                    () -> app.app().state() == WeirApp.State.RUNNING,
                    () -> receive(tail, checker),
                    options.timeout(),
                    signal,
                    () -> "the job to run its tasks");
            log.info(
                    "Started '{}' with exactly-once processing; generating {} events/s for {} s to '{}'",
                    options.applicationId(),
                    rate,
                    seconds,
                    eventsTopic);
            generate(kafka, data, checker, tail, signal);
            // Time goes on after the input: a tick of no campaign on every partition every 100 ms
            // moves event time past the last windows' end, as it passes, so they close on time.
            int partitions = kafka.client().describePartitions(eventsTopic).size();
            long[] lastTick = {0};
            app.await(
                    checker::complete,
                    () -> {
                        if (System.currentTimeMillis() - lastTick[0] >= 100) {
                            lastTick[0] = System.currentTimeMillis();
                            tick(kafka, partitions, lastTick[0]);
                        }
                        receive(tail, checker);
                    },
                    options.timeout(),
                    signal,
                    () -> checker.problems().size() + " window(s) without their final count");
            Optional<Throwable> failure = app.stop();
            for (TailRecord<String, Long> r : tail.drainToEnd(RunningApp.SHUTDOWN_TIMEOUT)) {
                checker.received(r.key(), r.value(), r.pane(), System.currentTimeMillis());
            }
            checker.problems().stream().limit(20).forEach(p -> System.out.println("PROBLEM " + p));
            checker.latencyByWindow().entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .limit(3)
                    .forEach(e -> log.info("slowest final count: {} after {} ms", e.getKey(), e.getValue()));
            System.out.println("SUMMARY ysb: " + checker.events() + " events (" + checker.views()
                    + " views of campaigns) at " + rate + "/s for " + seconds + " s; " + checker.summary());
            failure.ifPresent(e -> System.out.println("The application failed: " + e));
            return failure.isEmpty() && checker.passed() ? 0 : 1;
        }
    }

    private void tick(SampleKafka kafka, int partitions, long now) {
        List<ProducerRecord<byte[], byte[]>> ticks = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            ticks.add(new ProducerRecord<>(
                    eventsTopic,
                    p,
                    null,
                    Serdes.strings().serialize(eventsTopic, "tick"),
                    events.serialize(eventsTopic, YsbData.tick(now))));
        }
        kafka.client().send(ticks);
    }

    /** Sends events at the rate until the time is up, reading results meanwhile. */
    private void generate(
            SampleKafka kafka,
            YsbData data,
            YsbChecker checker,
            CommittedTail<String, Long> tail,
            ShutdownSignal signal) {
        RatePacer pacer = new RatePacer(rate, System::nanoTime);
        Deadline end = Deadline.after(Duration.ofSeconds(seconds));
        while (!end.expired() && !signal.requested()) {
            int due = pacer.due();
            if (due > 0) {
                List<ProducerRecord<byte[], byte[]>> batch = new ArrayList<>(due);
                long now = System.currentTimeMillis();
                for (int i = 0; i < due; i++) {
                    AdEvent e = data.next(now);
                    checker.sent(e);
                    batch.add(new ProducerRecord<>(
                            eventsTopic,
                            Serdes.strings().serialize(eventsTopic, e.userId()),
                            events.serialize(eventsTopic, e)));
                }
                kafka.client().send(batch);
            }
            receive(tail, checker);
        }
    }

    private static void receive(CommittedTail<String, Long> tail, YsbChecker checker) {
        List<TailRecord<String, Long>> read = tail.poll(POLL);
        long now = System.currentTimeMillis();
        for (TailRecord<String, Long> r : read) {
            checker.received(r.key(), r.value(), r.pane(), now);
        }
    }
}
