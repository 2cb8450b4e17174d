package io.weir.benchmarks.enrich;

import io.weir.benchmarks.KafkaClients;
import io.weir.common.internal.Deadline;
import io.weir.testkit.LookupService;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads a run's output as a downstream {@code read_committed} consumer does, from the start, while
 * the system runs and after it stopped, and checks it against the input: each input record
 * {@code n} enriched once (no duplicates, none missing), with the right answer, and per key in
 * input order (the {@code n} of a key increase along its output partition). It also times the run
 * from the output itself: the output topic has {@code message.timestamp.type=LogAppendTime}, so an
 * output record's timestamp is when the broker appended it; the rate is the records between the
 * first and the last append over that time (start-up and group join excluded), the end-to-end
 * latency of a record its append time (and, separately, the time this reader saw it committed)
 * less its creation time.
 *
 * <p>Threading: the caller's thread only.
 */
final class OutputWatch implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(100);
    private static final com.sun.management.OperatingSystemMXBean CPU =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> partitions;
    private final long expected;
    private final long latencyFrom;
    private final BitSet seen = new BitSet();
    private final Map<String, Long> lastPerKey = new HashMap<>();
    private final Histogram appendMs = new Histogram(3_600_000L, 3);
    private final Histogram visibleMs = new Histogram(3_600_000L, 3);
    private long distinct;
    private long duplicates;
    private long wrong;
    private long outOfOrder;
    private long firstAppend = Long.MAX_VALUE;
    private long lastAppend = Long.MIN_VALUE;
    private long cpuAtFirst = -1;
    private long cpuAtLast = -1;
    private CpuBusy machineAtFirst = CpuBusy.NONE;
    private CpuBusy machineAtLast = CpuBusy.NONE;
    private long distinctAtFirst;
    private long distinctAtLast;
    private long wallAtFirst;
    private long wallAtLast;

    /**
     * A reader of {@code topic} expecting inputs {@code 0 .. expected - 1}, the latencies of those from
     * {@code latencyFrom} on recorded (the paced runs leave out the records written before the system
     * was running).
     */
    OutputWatch(String bootstrapServers, String topic, int partitionCount, long expected, long latencyFrom) {
        this.expected = expected;
        this.latencyFrom = latencyFrom;
        this.partitions = java.util.stream.IntStream.range(0, partitionCount)
                .mapToObj(p -> new TopicPartition(topic, p))
                .toList();
        this.consumer = KafkaClients.readCommittedInBulk(bootstrapServers);
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /**
     * Reads until every input is in the output, {@code deadline} expires or {@code failure} reports
     * one; whether every input arrived.
     */
    boolean awaitAll(Deadline deadline, Supplier<Optional<Throwable>> failure) {
        while (distinct < expected && !deadline.expired() && failure.get().isEmpty()) {
            pollOnce();
        }
        return distinct >= expected;
    }

    /** Reads until {@code n} inputs are in the output (the system is running), or as {@link #awaitAll}. */
    void awaitFirst(long n, Deadline deadline, Supplier<Optional<Throwable>> failure) {
        while (distinct < n && !deadline.expired() && failure.get().isEmpty()) {
            pollOnce();
        }
    }

    /** Reads what the (stopped) system committed after {@link #awaitAll}, to the end. */
    void drain(Duration timeout) {
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
        Deadline deadline = Deadline.after(timeout);
        while (!deadline.expired()
                && ends.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
            pollOnce();
        }
    }

    /**
     * One poll; the CPU figures are taken per poll that brought records: at the first (with the
     * records before it) and at the last.
     */
    private void pollOnce() {
        long before = distinct;
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
            see(r, System.currentTimeMillis());
        }
        if (distinct > before) {
            long cpu = CPU.getProcessCpuTime();
            long wall = System.nanoTime();
            CpuBusy machine = CpuBusy.now();
            if (cpuAtFirst < 0) {
                wallAtFirst = wall;
                cpuAtFirst = cpu;
                machineAtFirst = machine;
                distinctAtFirst = distinct;
            }
            wallAtLast = wall;
            cpuAtLast = cpu;
            machineAtLast = machine;
            distinctAtLast = distinct;
        }
    }

    private void see(ConsumerRecord<byte[], byte[]> r, long now) {
        String key = EnrichRecords.string(r.key());
        EnrichRecords.Output out = EnrichRecords.Output.parse(EnrichRecords.string(r.value()));
        if (out.n() < 0 || !LookupService.answer(key).equals(out.answer())) {
            wrong++;
            return;
        }
        int n = Math.toIntExact(out.n());
        if (seen.get(n)) {
            duplicates++;
        } else {
            seen.set(n);
            distinct++;
        }
        Long last = lastPerKey.put(key, out.n());
        if (last != null && last >= out.n()) {
            outOfOrder++;
        }
        if (out.n() >= latencyFrom) {
            appendMs.recordValue(Math.max(0, r.timestamp() - out.created()));
            visibleMs.recordValue(Math.max(0, now - out.created()));
        }
        firstAppend = Math.min(firstAppend, r.timestamp());
        lastAppend = Math.max(lastAppend, r.timestamp());
    }

    /** What was read so far. */
    Result result() {
        long missing = expected - seen.cardinality();
        double seconds = Math.max(1, lastAppend - firstAppend) / 1000.0;
        long cpuRecords = distinctAtLast - distinctAtFirst;
        double cpuSeconds = (cpuAtLast - cpuAtFirst) / 1e9;
        return new Result(
                expected,
                distinct,
                duplicates,
                missing,
                wrong,
                outOfOrder,
                distinct < 2 ? Double.NaN : (distinct - 1) / seconds,
                distinct < 2 ? Double.NaN : seconds,
                cpuRecords <= 0 ? Double.NaN : cpuSeconds / cpuRecords * 1e6,
                wallAtLast <= wallAtFirst ? Double.NaN : (cpuAtLast - cpuAtFirst) / (double) (wallAtLast - wallAtFirst),
                machineAtLast.since(machineAtFirst),
                appendMs,
                visibleMs);
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }

    /**
     * A run's output against its input: counts, the rate between the first and the last append,
     * this JVM's CPU seconds per million records and cores in use (CPU seconds a second) between
     * the first and the last poll that brought records, the machine's busy share of all its cores
     * over the same span, and the end-to-end latencies in milliseconds (to the append; to this
     * reader).
     */
    record Result(
            long expected,
            long distinct,
            long duplicates,
            long missing,
            long wrong,
            long outOfOrder,
            double rps,
            double seconds,
            double cpuSecondsPerMillion,
            double jvmCores,
            double machineBusy,
            Histogram appendMs,
            Histogram visibleMs) {

        /** Every input enriched exactly once, with the right answer, in per-key order. */
        boolean ok() {
            return distinct == expected && duplicates == 0 && missing == 0 && wrong == 0 && outOfOrder == 0;
        }
    }
}
