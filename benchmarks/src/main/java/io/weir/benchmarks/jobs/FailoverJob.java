package io.weir.benchmarks.jobs;

import io.weir.benchmarks.KafkaClients;
import io.weir.benchmarks.RunSpec;
import io.weir.benchmarks.Scenario;
import io.weir.benchmarks.SystemUnderTest;
import io.weir.benchmarks.input.Workload;
import io.weir.benchmarks.systems.GroupAssignment;
import io.weir.benchmarks.systems.InstanceGroup;
import io.weir.common.internal.Deadline;
import io.weir.common.internal.KafkaCalls;
import io.weir.testkit.KafkaTestClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * Failover (the failover workload): the time from SIGKILLing one of three instances, for good,
 * until every input partition it owned has produced new committed output.
 *
 * <p>Off the clock ({@link #prepare}): {@link ScalingRun} starts {@link #INSTANCES} (the count
 * topology, exactly-once, one standby, static membership), loads {@code keys} keys of state and
 * starts live traffic of {@code rate} records a second; the group runs under it for
 * {@link ScalingRun#SETTLE} and is awaited settled (balanced, every instance ready). Then the
 * partitions {@link #VICTIM} owns are read from the group's assignment ({@link GroupAssignment}, the
 * coordinator's view, the same for both systems), and a {@code read_committed} consumer is assigned
 * the output partitions of the same numbers: the topology keeps the key and both topics have
 * {@value ScalingRun#PARTITIONS} partitions, so a key's output partition is its input partition.
 *
 * <p>On the clock: {@link #start} SIGKILLs {@link #VICTIM} (the clock started just before); the
 * victim's process is gone when it returns. {@link #await} then reads the output partitions' end
 * offsets ({@code read_uncommitted}: everything the victim wrote, committed or not, lies below
 * them) and positions the consumer there, so that any record it returns was written after the kill
 * by another instance, and committed. The clock stops when every one of the victim's partitions has
 * returned such a record. No survivor can write to those partitions before the group has moved them
 * (the session timeout, or a faster failure detection), long after these offsets were read.
 *
 * <p>Run details: {@code rate}, {@code killed_partitions}, {@code first_partition_seconds} (the
 * first of the victim's partitions back), {@code reassigned_seconds} (until the coordinator lists all
 * of them owned by survivors), {@code aborted_seconds} (until the victim's open transaction no longer
 * hides those partitions from {@code read_committed} readers: the broker aborts it once
 * {@code transaction.timeout.ms} has passed); both from checks every {@link #CHECK_INTERVAL},
 * {@code restored_records} (changelog records the survivors restored after the kill, as the systems
 * report them), {@code load_seconds}.
 */
public final class FailoverJob extends ScalingJob<FailoverJob.Run> {

    static final List<String> INSTANCES = List.of("instance-0", "instance-1", "instance-2");
    /** The instance killed: not the first to join (with the classic protocol usually the group's leader). */
    static final String VICTIM = "instance-1";

    private static final Duration POLL = Duration.ofMillis(20);
    /** How often the reassignment and the victim's transactions are checked while waiting. */
    private static final Duration CHECK_INTERVAL = Duration.ofMillis(100);

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    public FailoverJob(KafkaTestClient client, Workload workload, Scenario scenario, long keys, int rate) {
        super(client, workload, scenario, Scenario.Kind.FAILOVER, keys, rate);
    }

    @Override
    public void prepare(RunSpec spec, SystemUnderTest system, Duration timeout) throws Exception {
        Run run = startAndSettle(spec, system, INSTANCES, timeout, new Run(), started -> {});
        run.killed = new TreeSet<>(run.scaling.group().assignment().partitionsOf(VICTIM));
        if (run.killed.isEmpty()) {
            throw new IllegalStateException(VICTIM + " owns no partition to fail over");
        }
        for (String survivor : INSTANCES) {
            if (!survivor.equals(VICTIM)) {
                run.restoredBefore += run.scaling.group().instance(survivor).restoredRecords();
            }
        }
        List<TopicPartition> partitions = run.killed.stream()
                .map(p -> new TopicPartition(spec.outputTopic(), p))
                .toList();
        run.consumer = KafkaClients.readCommittedFromEnd(client.bootstrapServers(), partitions); // before the kill
    }

    /** SIGKILLs the victim; the survivors are the running system from here on. */
    @Override
    void change(InstanceGroup group) throws Exception {
        group.kill(VICTIM);
    }

    @Override
    public long await(RunSpec spec, SystemUnderTest.Running running, long startedNanos, Deadline deadline)
            throws InterruptedException {
        Run run = current();
        Map<TopicPartition, Long> ends = endOffsets(spec.outputTopic(), run.killed);
        ends.forEach(run.consumer::seek);
        Map<Integer, Long> back = new HashMap<>();
        Deadline nextCheck = Deadline.after(Duration.ZERO);
        while (back.size() < run.killed.size()) {
            run.scaling.throwIfFailed();
            if (deadline.expired()) {
                throw new IllegalStateException("timed out with " + back.size() + " of the " + run.killed.size()
                        + " partitions of " + VICTIM + " " + run.killed + " back: " + back.keySet()
                        + (run.reassignedNanos < 0 ? "; not reassigned" : "")
                        + (run.abortedNanos < 0 ? "; its transactions still open" : ""));
            }
            var records = run.consumer.poll(POLL);
            long now = System.nanoTime();
            for (ConsumerRecord<byte[], byte[]> r : records) {
                back.putIfAbsent(r.partition(), now);
            }
            if (nextCheck.expired()) {
                nextCheck = Deadline.after(CHECK_INTERVAL);
                observe(spec, run, ends);
            }
        }
        long last = back.values().stream().mapToLong(Long::longValue).max().getAsLong();
        observe(spec, run, ends); // both happened before the last partition was back; a check may have missed it
        run.firstSeconds =
                (back.values().stream().mapToLong(Long::longValue).min().getAsLong() - startedNanos) / 1e9;
        run.startedNanos = startedNanos;
        // Off the clock: the processes report their restored records every 100 ms.
        InstanceGroup group = run.scaling.group();
        long restored = RestoredRecords.settled(() -> group.instances().stream()
                .mapToLong(survivor -> group.instance(survivor).restoredRecords())
                .sum());
        run.restored = restored - run.restoredBefore;
        return last;
    }

    /**
     * Notes, if not yet noted, the moments the victim's partitions were reassigned (the coordinator
     * lists each of them owned by a survivor, group {@code STABLE}) and its transactions resolved (on
     * every one of its output partitions the last stable offset has reached the end offset read after
     * the kill: its open transaction, which hides everything after its first record from
     * {@code read_committed} readers, has been aborted by the broker).
     */
    private void observe(RunSpec spec, Run run, Map<TopicPartition, Long> endsAtKill) {
        if (run.reassignedNanos < 0) {
            InstanceGroup group = run.scaling.group();
            GroupAssignment a = group.assignment();
            Set<Integer> owned = new TreeSet<>();
            group.instances().forEach(i -> owned.addAll(a.partitionsOf(i)));
            if (a.state() == GroupState.STABLE && owned.containsAll(run.killed)) {
                run.reassignedNanos = System.nanoTime();
            }
        }
        if (run.abortedNanos < 0) {
            Map<TopicPartition, Long> stable =
                    endOffsets(spec.outputTopic(), run.killed, IsolationLevel.READ_COMMITTED);
            if (endsAtKill.entrySet().stream().allMatch(e -> stable.get(e.getKey()) >= e.getValue())) {
                run.abortedNanos = System.nanoTime();
            }
        }
    }

    /** The end offsets ({@code read_uncommitted}) of {@code partitions} of {@code topic}. */
    private Map<TopicPartition, Long> endOffsets(String topic, Set<Integer> partitions) {
        return endOffsets(topic, partitions, IsolationLevel.READ_UNCOMMITTED);
    }

    /** The end offsets ({@code read_uncommitted}) or last stable offsets ({@code read_committed}). */
    private Map<TopicPartition, Long> endOffsets(String topic, Set<Integer> partitions, IsolationLevel isolation) {
        Map<TopicPartition, OffsetSpec> request = partitions.stream()
                .collect(Collectors.toMap(p -> new TopicPartition(topic, p), p -> OffsetSpec.latest()));
        return KafkaCalls.get(
                        client.admin()
                                .listOffsets(request, new ListOffsetsOptions(isolation))
                                .all(),
                        REQUEST_TIMEOUT,
                        "read the end offsets of " + topic)
                .entrySet()
                .stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }

    /**
     * {@code rate}, {@code killed_partitions}, {@code first_partition_seconds}, {@code restored_records},
     * {@code load_seconds}; stops the traffic, SIGKILLs the instances still running and closes the
     * consumer.
     */
    @Override
    Map<String, Object> details(RunSpec spec, Run run) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("rate", (long) rate);
        d.put("killed_partitions", run == null || run.killed == null ? null : (long) run.killed.size());
        d.put(
                "first_partition_seconds",
                run == null || Double.isNaN(run.firstSeconds) ? null : round(run.firstSeconds));
        d.put("reassigned_seconds", run == null ? null : run.since(run.reassignedNanos));
        d.put("aborted_seconds", run == null ? null : run.since(run.abortedNanos));
        d.put("restored_records", run == null ? null : run.restoredRecords());
        d.put("load_seconds", run == null ? null : loadSeconds(run.scaling));
        return d;
    }

    /** One run's state. */
    static final class Run extends RunState {
        Set<Integer> killed;
        KafkaConsumer<byte[], byte[]> consumer;
        long restoredBefore;
        double firstSeconds = Double.NaN;
        long reassignedNanos = -1;
        long abortedNanos = -1;

        /** Seconds from the clock's start to {@code nanos}, or null if not observed. */
        Double since(long nanos) {
            return nanos < 0 || startedNanos == 0 ? null : round((nanos - startedNanos) / 1e9);
        }

        @Override
        void closeReader() {
            if (consumer != null) {
                consumer.close(Duration.ofSeconds(5));
            }
        }
    }
}
