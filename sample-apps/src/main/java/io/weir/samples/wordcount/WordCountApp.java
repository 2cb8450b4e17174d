package io.weir.samples.wordcount;

import io.weir.WeirApp;
import io.weir.common.internal.Deadline;
import io.weir.samples.common.CommittedTail;
import io.weir.samples.common.RunningTotals;
import io.weir.samples.common.SampleConfigs;
import io.weir.samples.common.SampleKafka;
import io.weir.samples.common.SampleMain;
import io.weir.samples.common.SampleOptions;
import io.weir.samples.common.ShutdownSignal;
import io.weir.samples.common.StateDirs;
import io.weir.samples.common.TailRecord;
import io.weir.serde.Serdes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Runs the {@link WordCount} topology end to end with one command: starts an in-process Kafka
 * broker (or uses {@code --bootstrap-servers}), creates the topics, feeds deterministic lines,
 * runs the application with exactly-once processing, reads the counts back with
 * {@code read_committed}, and prints the final count per word (the last value per key). Exits 0
 * when every word ends at its count in the fed lines and every count emitted on the way was a true
 * running count, emitted once (see {@link RunningTotals}); 1 otherwise.
 *
 * <p>Counts and the summary go to stdout; progress and library logs go to stderr.
 */
@Command(
        name = "word-count",
        mixinStandardHelpOptions = true,
        version = "Weir sample 0.1.0",
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = "Counts the words of lines of text, exactly once, through a repartition and a state store.")
public final class WordCountApp implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(WordCountApp.class);
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

    @Mixin
    SampleOptions options;

    @Option(
            names = "--lines",
            defaultValue = "1000",
            description = "Lines of text to feed (default: ${DEFAULT-VALUE}).")
    int lineCount;

    @Option(names = "--seed", defaultValue = "42", description = "Seed choosing the lines (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--input-topic",
            defaultValue = "lines",
            description = "Topic of lines (default: ${DEFAULT-VALUE}).")
    String inputTopic;

    @Option(
            names = "--output-topic",
            defaultValue = "word-counts",
            description = "Topic of counts per word (default: ${DEFAULT-VALUE}).")
    String outputTopic;

    public static void main(String[] args) {
        SampleMain.exit(new WordCountApp(), args);
    }

    @Override
    public Integer call() {
        if (lineCount < 1 || options.partitions < 1) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this), "--lines and --partitions must be at least 1");
        }
        return options.run(this::run);
    }

    private int run(SampleKafka kafka, ShutdownSignal signal) {
        Path dir = options.stateDir != null ? options.stateDir : StateDirs.createTemp("weir-word-count-");
        WeirApp app = null;
        try {
            kafka.ensureTopics(List.of(inputTopic, outputTopic), options.partitions);
            kafka.requireFresh(List.of(inputTopic, outputTopic), options.applicationId());
            List<String> lines = new SampleText(seed).lines(lineCount);
            RunningTotals<String> ledger = new RunningTotals<>();
            WordCount.allWords(lines).forEach(w -> ledger.fed(w, 1));
            feed(kafka, lines);
            log.info(
                    "Fed {} lines ({} words, {} distinct) to '{}'",
                    lines.size(),
                    ledger.fedCount(),
                    ledger.keys(),
                    inputTopic);

            try (CommittedTail<String, Long> tail = CommittedTail.fromBeginning(
                    kafka.bootstrapServers(), outputTopic, Serdes.strings(), Serdes.longs())) {
                app = WeirApp.create(
                                WordCount.topology(inputTopic, outputTopic),
                                SampleConfigs.exactlyOnce(options.applicationId(), kafka.bootstrapServers(), dir)
                                        .build())
                        .start();
                log.info(
                        "Started '{}' with exactly-once processing; reading '{}' (read_committed)",
                        options.applicationId(),
                        outputTopic);
                awaitFinalCounts(tail, ledger, app, options.timeout(), signal);

                boolean failed = app.state() == WeirApp.State.FAILED;
                WeirApp stopping = app;
                app = null; // closed here, not again in finally
                stopping.close(SHUTDOWN_TIMEOUT);
                // Read what was committed up to the stop, so a late extra update would not go unseen.
                receive(tail.drainToEnd(SHUTDOWN_TIMEOUT), ledger);

                printCounts(ledger);
                System.out.println(
                        "SUMMARY " + lines.size() + " lines, " + ledger.fedCount() + " words fed; " + ledger.summary());
                if (failed) {
                    System.out.println("The application failed: "
                            + stopping.failure().map(String::valueOf).orElse("unknown error"));
                }
                return !failed && ledger.passed() ? 0 : 1;
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

    private void feed(SampleKafka kafka, List<String> lines) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            records.add(new ProducerRecord<>(
                    inputTopic,
                    Serdes.strings().serialize(inputTopic, "line-" + i),
                    Serdes.strings().serialize(inputTopic, lines.get(i))));
        }
        kafka.client().send(records);
    }

    /** Reads counts until every word is at its total, the app failed, {@code timeout} passed or a signal. */
    private static void awaitFinalCounts(
            CommittedTail<String, Long> tail,
            RunningTotals<String> ledger,
            WeirApp app,
            Duration timeout,
            ShutdownSignal signal) {
        Deadline deadline = Deadline.after(timeout);
        while (!ledger.allFinal()) {
            if (signal.requested()) {
                log.info("Stopping on signal");
                return;
            }
            if (app.state() == WeirApp.State.FAILED) {
                log.error("The application failed", app.failure().orElse(null));
                return;
            }
            if (deadline.expired()) {
                log.warn(
                        "{} of {} words not at their final count within {} s",
                        ledger.missing(),
                        ledger.keys(),
                        timeout.toSeconds());
                return;
            }
            receive(tail.poll(Duration.ofMillis(200)), ledger);
        }
    }

    private static void receive(List<TailRecord<String, Long>> records, RunningTotals<String> ledger) {
        for (TailRecord<String, Long> r : records) {
            RunningTotals.Outcome outcome = ledger.received(r.key(), r.value());
            if (outcome != RunningTotals.Outcome.OK) {
                System.out.println(outcome + " count " + r.key() + "=" + r.value() + " at " + "partition "
                        + r.partition() + " offset " + r.offset());
            }
        }
    }

    private static void printCounts(RunningTotals<String> ledger) {
        for (Map.Entry<String, Long> e : ledger.finals().entrySet()) {
            Long read = ledger.lastRead(e.getKey());
            String mark = e.getValue().equals(read) ? "" : "   expected " + e.getValue();
            System.out.printf("COUNT %-12s %6s%s%n", e.getKey(), read == null ? "-" : read, mark);
        }
    }
}
