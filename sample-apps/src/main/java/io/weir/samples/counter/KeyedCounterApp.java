package io.weir.samples.counter;

import io.weir.common.internal.Deadline;
import io.weir.samples.common.CommittedTail;
import io.weir.samples.common.RunningTotals;
import io.weir.samples.common.SampleKafka;
import io.weir.samples.common.SampleMain;
import io.weir.samples.common.SampleOptions;
import io.weir.samples.common.ShutdownSignal;
import io.weir.samples.common.StateDirs;
import io.weir.samples.common.TailRecord;
import io.weir.serde.Serdes;
import io.weir.testkit.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The checkpoint example with a real failure: runs the {@link KeyedCounter} as a child
 * process ({@link KeyedCounterInstance}), SIGKILLs it while it is counting, starts it again on
 * the same state directory, and shows that the sums come out as without the failure.
 *
 * <ol>
 *   <li>Starts an in-process broker (or uses {@code --bootstrap-servers}), creates the topics and
 *       feeds the first third of the deterministic increments.</li>
 *   <li>Starts instance 1 and keeps feeding, up to two thirds, while it counts; once
 *       {@code --kill-after} sums are committed to the output (read with {@code read_committed}),
 *       SIGKILLs it: no shutdown hook, no flush, its open transaction left behind.</li>
 *   <li>Feeds the last third and starts instance 2 on the same state directory: it fences the dead
 *       instance's transaction, restores the store and goes on from the committed offsets.</li>
 *   <li>Once every key's last sum is its true total, stops instance 2 with SIGTERM, reads the
 *       output to its end and checks it with {@link RunningTotals}: every emitted sum is one of the
 *       key's true running sums (nothing counted twice or lost), none repeated, and the final sums
 *       equal those computed from the fed records, i.e. without failure.</li>
 * </ol>
 * Exits 0 when the check passed, 1 otherwise. Sums and the summary go to stdout; progress and
 * library logs go to stderr; each instance's output goes to {@code instance-N.log} in the state
 * directory.
 */
@Command(
        name = "keyed-counter",
        mixinStandardHelpOptions = true,
        version = "Weir sample 0.1.0",
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = "Keeps a running sum per key, SIGKILLs the application mid-way, restarts it, and checks the"
                + " sums equal those without the failure.")
public final class KeyedCounterApp implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(KeyedCounterApp.class);
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(20);
    private static final int FEED_BATCH = 200;
    private static final int SIGTERM_EXIT = 128 + 15;
    /** How often to ask the cluster whether instance 1 has caught up, once everything is fed. */
    private static final Duration CAUGHT_UP_CHECK = Duration.ofMillis(500);

    @Mixin
    SampleOptions options;

    @Option(
            names = "--records",
            defaultValue = "30000",
            description = "Increments to feed (default: ${DEFAULT-VALUE}).")
    int records;

    @Option(
            names = "--keys",
            defaultValue = "5",
            description = "Number of keys, a, b, c, ... (3 to 26, default:" + " ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the increments (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--kill-after",
            defaultValue = "20",
            description = "SIGKILL instance 1 once this many sums are"
                    + " committed to the output (default: ${DEFAULT-VALUE}).")
    int killAfter;

    @Option(
            names = "--input-topic",
            defaultValue = KeyedCounter.INPUT_TOPIC,
            description = "Topic of increments (default: ${DEFAULT-VALUE}).")
    String inputTopic;

    @Option(
            names = "--output-topic",
            defaultValue = KeyedCounter.OUTPUT_TOPIC,
            description = "Topic of running sums (default: ${DEFAULT-VALUE}).")
    String outputTopic;

    public static void main(String[] args) {
        SampleMain.exit(new KeyedCounterApp(), args);
    }

    @Override
    public Integer call() {
        if (records < 3
                || keys < SampleIncrements.MIN_KEYS
                || keys > SampleIncrements.MAX_KEYS
                || killAfter < 1
                || options.partitions < 1) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--records must be at least 3, --keys"
                            + " between 3 and 26, --kill-after and --partitions at least 1");
        }
        try (ShutdownSignal signal = ShutdownSignal.install(SHUTDOWN_TIMEOUT.multipliedBy(3));
                SampleKafka kafka = SampleKafka.connect(options.bootstrapServers)) {
            Path dir = options.stateDir != null ? options.stateDir : StateDirs.createTemp("weir-keyed-counter-");
            try {
                return new Run(kafka, dir, signal).call();
            } finally {
                if (options.stateDir == null) {
                    StateDirs.deleteRecursively(dir);
                }
            }
        }
    }

    /** One run of the sample: its input, ledger, feeding position and instances. */
    private final class Run {
        private final SampleKafka kafka;
        private final Path dir;
        private final ShutdownSignal signal;
        private final List<Increment> increments;
        private final RunningTotals<String> ledger = new RunningTotals<>();
        private int fed;
        /** How many records were fed when instance 1 was SIGKILLed; -1 until then. */
        private int fedAtKill = -1;

        Run(SampleKafka kafka, Path dir, ShutdownSignal signal) {
            this.kafka = kafka;
            this.dir = dir;
            this.signal = signal;
            this.increments = SampleIncrements.generate(seed, keys, records);
            increments.forEach(i -> ledger.fed(i.key(), i.amount()));
        }

        int call() {
            kafka.ensureTopics(List.of(inputTopic, outputTopic), options.partitions);
            kafka.requireFresh(List.of(inputTopic, outputTopic), options.applicationId());
            System.out.println("INPUT "
                    + increments.stream().limit(8).map(Increment::toString).collect(Collectors.joining(" ")) + " ... ("
                    + records + " records, keys "
                    + SampleIncrements.key(0) + ".." + SampleIncrements.key(keys - 1) + ")");
            feedUpTo(records / 3);

            try (CommittedTail<String, Long> tail = CommittedTail.fromBeginning(
                    kafka.bootstrapServers(), outputTopic, Serdes.strings(), Serdes.longs())) {
                if (!runAndKillFirstInstance(tail, records * 2 / 3)) {
                    return finish(1, stopReason("instance 1 did not get to its SIGKILL"));
                }
                feedUpTo(records);
                try (ChildJvm second = startInstance(2)) {
                    System.out.println("RESTARTED as instance 2 (pid " + second.pid() + ") on the same state"
                            + " directory, with all " + records + " records fed");
                    if (!awaitWhileRunning(second, "the final sums", tail, ledger::allFinal)) {
                        return finish(1, stopReason("instance 2 did not reach the final sums"));
                    }
                    int exit = second.terminate(SHUTDOWN_TIMEOUT);
                    log.info("Stopped instance 2 with SIGTERM (exit {})", exit);
                    // Read what was committed up to the stop, so a late repeated sum would not go unseen.
                    receive(tail.drainToEnd(SHUTDOWN_TIMEOUT));
                    // A JVM stopped by SIGTERM exits with 143 once its shutdown hooks (here Weir's
                    // graceful close) have run; anything else means the stop went wrong.
                    boolean graceful = exit == 0 || exit == SIGTERM_EXIT;
                    return finish(
                            graceful ? 0 : 1,
                            graceful
                                    ? null
                                    : "instance 2 exited with " + exit + " on SIGTERM;" + " its output ends with:\n"
                                            + second.outputTail(30));
                }
            }
        }

        /**
         * Starts instance 1 and, once it has committed its first sums, streams more records to it
         * (up to {@code beforeKill}, about 10,000 a second) while it counts; once
         * {@code --kill-after} sums are committed (or, on a machine fast enough to finish first,
         * once it has committed everything fed) it is SIGKILLed: mid-stream, with records still
         * arriving and usually a transaction open. Returns false if that point was not reached.
         */
        private boolean runAndKillFirstInstance(CommittedTail<String, Long> tail, int beforeKill) {
            try (ChildJvm first = startInstance(1)) {
                System.out.println("STARTED instance 1 (pid " + first.pid() + ") with " + fed + " records fed");
                Deadline[] nextCaughtUpCheck = {Deadline.after(Duration.ZERO)};
                boolean killTime = awaitWhileRunning(first, "instance 1 to commit " + killAfter + " sums", tail, () -> {
                    // Its first committed sums show it is counting: from then on, stream the input.
                    if (fed < beforeKill && ledger.receivedCount() > 0) {
                        feedUpTo(Math.min(beforeKill, fed + FEED_BATCH));
                    }
                    return ledger.receivedCount() >= killAfter || (fed == beforeKill && caughtUp(nextCaughtUpCheck));
                });
                if (!killTime) {
                    return false;
                }
                int exit = first.kill();
                fedAtKill = fed;
                long committed = kafka.committedCount(options.applicationId(), inputTopic);
                System.out.println("KILLED instance 1 with SIGKILL (exit " + exit + ") after " + ledger.receivedCount()
                        + " sums were committed; it had committed " + committed + " of the " + fedAtKill
                        + " records fed so far");
                return true;
            }
        }

        /**
         * Polls the output and runs {@code step} until it returns true. Returns false, after saying
         * why, when the instance exits, a signal arrives or {@code --timeout} passes first.
         */
        private boolean awaitWhileRunning(
                ChildJvm instance, String what, CommittedTail<String, Long> tail, BooleanSupplier step) {
            Deadline deadline = Deadline.after(options.timeout());
            while (!step.getAsBoolean()) {
                if (signal.requested()) {
                    log.info("Stopping on signal");
                    return false;
                }
                if (!instance.isAlive()) {
                    log.error(
                            "{} exited with {} while waiting for {}; its output ends with:\n{}",
                            instance,
                            instance.exitCode().orElse(-1),
                            what,
                            instance.outputTail(30));
                    return false;
                }
                if (deadline.expired()) {
                    log.error(
                            "No {} within {} s; {} output ends with:\n{}",
                            what,
                            options.timeoutSeconds,
                            instance,
                            instance.outputTail(30));
                    return false;
                }
                receive(tail.poll(POLL));
            }
            return true;
        }

        private boolean caughtUp(Deadline[] nextCheck) {
            if (!nextCheck[0].expired()) {
                return false;
            }
            nextCheck[0] = Deadline.after(CAUGHT_UP_CHECK);
            return ledger.receivedCount() > 0 && kafka.committedCount(options.applicationId(), inputTopic) >= fed;
        }

        private String stopReason(String otherwise) {
            return signal.requested() ? "stopped by a signal" : otherwise;
        }

        private ChildJvm startInstance(int n) {
            return KeyedCounterInstance.startChild(
                    kafka.bootstrapServers(), options.applicationId(), inputTopic, outputTopic, dir, n);
        }

        private void feedUpTo(int end) {
            List<ProducerRecord<byte[], byte[]>> batch = new ArrayList<>(end - fed);
            for (Increment i : increments.subList(fed, end)) {
                batch.add(new ProducerRecord<>(
                        inputTopic,
                        Serdes.strings().serialize(inputTopic, i.key()),
                        Serdes.longs().serialize(inputTopic, i.amount())));
            }
            kafka.client().send(batch);
            fed = end;
        }

        private void receive(List<TailRecord<String, Long>> read) {
            for (TailRecord<String, Long> r : read) {
                RunningTotals.Outcome outcome = ledger.received(r.key(), r.value());
                if (outcome != RunningTotals.Outcome.OK) {
                    System.out.println(outcome + " sum " + r.key() + "=" + r.value() + " at partition " + r.partition()
                            + " offset " + r.offset());
                }
            }
        }

        private int finish(int exit, String failure) {
            Map<String, Long> finals = new TreeMap<>(ledger.finals());
            for (Map.Entry<String, Long> e : finals.entrySet()) {
                Long read = ledger.lastRead(e.getKey());
                System.out.printf(
                        "SUM %s %8s   without failure %8d   %s%n",
                        e.getKey(),
                        read == null ? "-" : read,
                        e.getValue(),
                        e.getValue().equals(read) ? "same" : "DIFFERENT");
            }
            System.out.println("SUMMARY " + records + " records, "
                    + (fedAtKill >= 0 ? "instance 1 SIGKILLed after " + fedAtKill + " were fed" : "no SIGKILL")
                    + "; " + ledger.summary());
            if (failure != null) {
                System.out.println("The run failed: " + failure);
            }
            return exit == 0 && ledger.passed() ? 0 : 1;
        }
    }
}
