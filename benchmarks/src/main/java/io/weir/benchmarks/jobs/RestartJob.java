package io.weir.benchmarks.jobs;

import io.weir.benchmarks.KafkaClients;
import io.weir.benchmarks.RunSpec;
import io.weir.benchmarks.Scenario;
import io.weir.benchmarks.SystemUnderTest;
import io.weir.benchmarks.input.InputTopic;
import io.weir.benchmarks.input.Workload;
import io.weir.benchmarks.systems.ChildCountRunner;
import io.weir.benchmarks.verification.CompletionProbe;
import io.weir.common.internal.Deadline;
import io.weir.testkit.KafkaTestClient;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Restart after SIGKILL (the restart workload): the time from starting a killed application
 * process again until its first new output is visible.
 *
 * <p>Off the clock ({@link #prepare}): the run's own input {@code <application.id>-in} is written with
 * each of {@code keys} distinct keys once (100-byte values, {@link Workload#createDistinct}); the
 * system's process ({@link ChildCountRunner}) counts them until the {@link CompletionProbe} sees its
 * committed input offsets at the end and at least one output per key; the process then runs on for
 * {@code trickle} under live traffic of {@value #TRICKLE_PER_SECOND} records a second to other keys
 * ({@link Workload#trickle}; benchmarks/README.md, "restart-1m", says why), is SIGKILLed right after the last of them is
 * written, and {@value #BATCH_RECORDS} more records are appended to the input, one for each of
 * {@value #BATCH_RECORDS} existing keys spread evenly over the key set. A {@code read_committed}
 * consumer is positioned at the end of the output.
 *
 * <p>On the clock: the same process is started again (same application id, state directory and
 * instance identity) and the clock stops when the consumer sees the first new output of the batch: a
 * count of 2 of a batch key (every count before the kill is 1, each key having one record). The job
 * waits on, off the clock, until every batch key's count of 2 is visible ({@code batch_seconds}:
 * start to the last of them) and checks that the new output of the {@code key-} keys holds nothing
 * but counts of 2 of batch keys: a count of 3 would be a record counted twice. The trickle's keys'
 * outputs are ignored. How many changelog records the restarted process restored, as the system
 * reports them ({@code CountApp}), goes into the run's details.
 */
public final class RestartJob extends KeyedJob {

    static final int BATCH_RECORDS = 1_000;
    static final int TRICKLE_PER_SECOND = 100;

    private static final Duration POLL = Duration.ofMillis(20);
    private static final byte[] KEY_PREFIX = "key-".getBytes(StandardCharsets.US_ASCII);

    private final Duration trickle;
    /** The state of the current run, from {@link #prepare} to {@link #details}. */
    private Run current;

    public RestartJob(KafkaTestClient client, Workload workload, Scenario scenario, long keys, Duration trickle) {
        super(client, workload, scenario, Scenario.Kind.RESTART, keys);
        this.trickle = trickle;
    }

    @Override
    public void prepare(RunSpec spec, SystemUnderTest system, Duration timeout) throws Exception {
        InputTopic input = workload.createDistinct(spec.inputTopic(), keys);
        Run run = new Run(batchKeys());
        current = run;
        long started = System.nanoTime();
        Deadline deadline = Deadline.after(timeout);
        SystemUnderTest.Running first = system.start(spec);
        try {
            new CompletionProbe(client.admin(), input, keys)
                    .await(spec.applicationId(), spec.outputTopic(), Workload.PARTITIONS, first, deadline);
            run.initialSeconds = (System.nanoTime() - started) / 1e9;
            run.trickled = workload.trickle(spec.inputTopic(), trickle, TRICKLE_PER_SECOND, () -> {
                Throwable failure = first.failure().orElse(null);
                if (failure != null) {
                    throw new IllegalStateException("failed under the trickle before the kill: " + failure, failure);
                }
            });
        } finally {
            first.close(); // SIGKILL
        }
        workload.append(spec.inputTopic(), run.batchIndexes, keys);
        run.consumer = endOfOutput(spec.outputTopic());
    }

    @Override
    public long await(RunSpec spec, SystemUnderTest.Running running, long startedNanos, Deadline deadline)
            throws InterruptedException {
        Run run = current;
        while (true) {
            Throwable failure = running.failure().orElse(null);
            if (failure != null) {
                throw new IllegalStateException(
                        "failed after " + run.seen.size() + " of " + run.batchKeys.size() + " new counts: " + failure,
                        failure);
            }
            if (deadline.expired()) {
                throw new IllegalStateException(
                        "timed out with " + run.seen.size() + " of " + run.batchKeys.size() + " new counts visible");
            }
            var records = run.consumer.poll(POLL);
            long now = System.nanoTime();
            for (ConsumerRecord<byte[], byte[]> r : records) {
                if (r.key() == null || r.value() == null || r.value().length != Long.BYTES) {
                    run.unexpected++;
                    continue;
                }
                long count = ByteBuffer.wrap(r.value()).getLong();
                if (count < 2 || !startsWith(r.key(), KEY_PREFIX)) {
                    continue; // an output of the first process, committed before or at the kill, or a tick
                }
                ByteBuffer key = ByteBuffer.wrap(r.key());
                if (count == 2 && run.batchKeys.contains(key)) {
                    if (run.firstNanos < 0) {
                        run.firstNanos = now;
                    }
                    run.seen.add(key);
                } else {
                    run.unexpected++;
                }
            }
            if (run.seen.size() == run.batchKeys.size()) {
                run.batchSeconds = (now - startedNanos) / 1e9;
                run.restored = RestoredRecords.settled(running::restoredRecords); // off the clock
                return run.firstNanos;
            }
        }
    }

    @Override
    public Optional<String> verify(RunSpec spec) {
        Run run = current;
        return run != null && run.unexpected > 0
                ? Optional.of(run.unexpected + " new output records are not a count of 2 of a batch key")
                : Optional.empty();
    }

    /**
     * {@code batch_records}, {@code batch_seconds}, {@code initial_seconds}, {@code trickle_seconds},
     * {@code trickle_records}, {@code restored_records} (changelog records the restarted process
     * restored, as it reports them); closes the consumer.
     */
    @Override
    public Map<String, Object> details(RunSpec spec) {
        Run run = current;
        current = null;
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("batch_records", (long) Math.min(BATCH_RECORDS, keys));
        d.put("batch_seconds", run == null || Double.isNaN(run.batchSeconds) ? null : round(run.batchSeconds));
        d.put("initial_seconds", run == null || Double.isNaN(run.initialSeconds) ? null : round(run.initialSeconds));
        d.put("trickle_seconds", trickle.toMillis() / 1000.0);
        d.put("trickle_records", run == null ? null : run.trickled);
        d.put("restored_records", run == null || run.restored < 0 ? null : run.restored);
        if (run != null && run.consumer != null) {
            run.consumer.close(Duration.ofSeconds(5));
        }
        return d;
    }

    /** {@value #BATCH_RECORDS} (at most {@code keys}) key indexes spread evenly over the keys. */
    private long[] batchKeys() {
        int n = (int) Math.min(BATCH_RECORDS, keys);
        long step = keys / n;
        return IntStream.range(0, n).mapToLong(i -> i * step).toArray();
    }

    /** A read_committed consumer of every output partition, at its current end (off the clock). */
    private KafkaConsumer<byte[], byte[]> endOfOutput(String topic) {
        return KafkaClients.readCommittedFromEnd(
                client.bootstrapServers(),
                IntStream.range(0, Workload.PARTITIONS)
                        .mapToObj(p -> new TopicPartition(topic, p))
                        .toList());
    }

    private static boolean startsWith(byte[] bytes, byte[] prefix) {
        return bytes.length >= prefix.length && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
    }

    private static double round(double seconds) {
        return Math.round(seconds * 1000) / 1000.0;
    }

    /** One run's state. */
    private final class Run {
        final long[] batchIndexes;
        final Set<ByteBuffer> batchKeys = new HashSet<>();
        final Set<ByteBuffer> seen = new HashSet<>();
        KafkaConsumer<byte[], byte[]> consumer;
        double initialSeconds = Double.NaN;
        double batchSeconds = Double.NaN;
        long firstNanos = -1;
        long unexpected;
        long trickled;
        long restored = -1;

        Run(long[] batchIndexes) {
            this.batchIndexes = batchIndexes;
            int digits = Workload.keyDigits(keys);
            for (long i : batchIndexes) {
                batchKeys.add(ByteBuffer.wrap(Workload.key(i, digits)));
            }
        }
    }
}
