package io.weir.benchmarks.jobs;

import io.weir.benchmarks.RunSpec;
import io.weir.benchmarks.Scenario;
import io.weir.benchmarks.SystemUnderTest;
import io.weir.benchmarks.input.Workload;
import io.weir.benchmarks.systems.GroupAssignment;
import io.weir.benchmarks.systems.InstanceGroup;
import io.weir.benchmarks.verification.OutputPauseWatch;
import io.weir.benchmarks.verification.PauseTracker;
import io.weir.common.internal.Deadline;
import io.weir.testkit.KafkaTestClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Scale-out (the scale-out workload): a third instance joins two that hold the state; the time
 * until the group is balanced again, and the longest output pause of any partition meanwhile.
 *
 * <p>Off the clock ({@link #prepare}): {@link ScalingRun} starts {@link #INITIAL} (the count
 * topology, exactly-once, one standby, static membership), loads {@code keys} keys of state (each
 * instance owns half of it, and with the standby holds a copy of the other half) and starts live
 * traffic of {@code rate} records a second. An {@link OutputPauseWatch} starts reading every output
 * partition; the group runs under the traffic for {@link ScalingRun#SETTLE} and is awaited settled.
 *
 * <p>On the clock: {@link #start} starts {@link #ADDED} (the clock started just before), with an
 * empty state directory. The clock stops when the group of three is settled
 * ({@link InstanceGroup#awaitSettled}: the coordinator's assignment {@code STABLE} with each
 * instance owning its share of the input partitions, every instance ready, so no active task
 * restores, and Weir's {@code /info} running the tasks assigned), the first moment of a stretch of
 * {@link ScalingRun#SUSTAIN} found so: {@code seconds} is start to balanced. The watch goes on for
 * {@link #AFTER_BALANCE} more; {@code max_pause_seconds} is then the longest pause of any output
 * partition from the start of the new instance to that end ({@link PauseTracker#longest}: pauses
 * ending in the window, counted in full, and any still open at its end).
 *
 * <p>Run details: {@code max_pause_seconds}, {@code max_pause_partition},
 * {@code max_pause_start_seconds} (when that pause began, from the new instance's start; negative
 * if before it), {@code baseline_max_pause_seconds} (the longest pause over the second half of the
 * settle period and up to the start: the pauses the group has anyway), {@code restored_records} (as
 * the new instance reports them: active-task restores only), {@code tasks_per_instance} (active
 * tasks of {@code instance-0/1/2} at the window's end), {@code rate}, {@code load_seconds}. A run
 * that does not balance within its timeout fails, but its line still has the pauses, the split and
 * the restores up to then.
 */
public final class ScaleOutJob extends ScalingJob<ScaleOutJob.Run> {

    static final List<String> INITIAL = List.of("instance-0", "instance-1");
    static final String ADDED = "instance-2";
    /** How long the output is watched on after the group is balanced: the window's tail. */
    static final Duration AFTER_BALANCE = Duration.ofSeconds(5);
    /**
     * Added to the default run timeout: the balance may wait for probing rebalances, every 10
     * minutes by default in Kafka Streams, which moved one task to the new instance per probing
     * rebalance in the runs seen (the new instance's share is 4): four of them fit.
     */
    public static final Duration BALANCE_ALLOWANCE = Duration.ofMinutes(45);

    public ScaleOutJob(KafkaTestClient client, Workload workload, Scenario scenario, long keys, int rate) {
        super(client, workload, scenario, Scenario.Kind.SCALE_OUT, keys, rate);
    }

    @Override
    public void prepare(RunSpec spec, SystemUnderTest system, Duration timeout) throws Exception {
        startAndSettle(spec, system, INITIAL, timeout, new Run(), run -> {
            run.watch = OutputPauseWatch.start(client.bootstrapServers(), spec.outputTopic(), ScalingRun.PARTITIONS);
            long settling = System.nanoTime();
            run.baselineFrom = settling + ScalingRun.SETTLE.toNanos() / 2; // a moment to measure from, not a deadline
        });
    }

    /** Starts the new instance; the group of three is the running system from here on. */
    @Override
    void change(InstanceGroup group) {
        group.start(ADDED);
    }

    @Override
    public long await(RunSpec spec, SystemUnderTest.Running running, long startedNanos, Deadline deadline)
            throws InterruptedException {
        Run run = current();
        run.startedNanos = startedNanos;
        run.baseline = run.watch.longest(Math.min(run.baselineFrom, startedNanos), startedNanos);
        long balanced;
        try {
            balanced = run.scaling.group().awaitSettled(ScalingRun.SUSTAIN, deadline, () -> checkWatch(run));
        } catch (IllegalStateException e) {
            try {
                observeEnd(run, startedNanos); // a run that never balances still shows its pauses and split
            } catch (RuntimeException second) {
                e.addSuppressed(second);
            }
            throw e;
        }
        run.scaling.runFor(AFTER_BALANCE, deadline);
        checkWatch(run);
        observeEnd(run, startedNanos);
        return balanced;
    }

    /** The window's end: the longest pause since the start, the active split, the new instance's restores. */
    private static void observeEnd(Run run, long startedNanos) {
        run.pause = run.watch.longest(startedNanos, System.nanoTime());
        run.restored = run.scaling.group().instance(ADDED).restoredRecords();
        GroupAssignment a = run.scaling.group().assignment();
        run.split = a.partitionsByInstance().values().stream()
                .map(p -> Integer.toString(p.size()))
                .collect(Collectors.joining("/"));
    }

    private static void checkWatch(Run run) {
        run.watch.failure().ifPresent(f -> {
            throw new IllegalStateException("the output watch failed: " + f, f);
        });
    }

    /**
     * {@code max_pause_seconds}, {@code max_pause_partition}, {@code max_pause_start_seconds},
     * {@code baseline_max_pause_seconds}, {@code restored_records}, {@code tasks_per_instance},
     * {@code rate}, {@code load_seconds}; stops the watch and the traffic and SIGKILLs the instances still
     * running.
     */
    @Override
    Map<String, Object> details(RunSpec spec, Run run) {
        Map<String, Object> d = new LinkedHashMap<>();
        PauseTracker.Pause pause = run == null ? null : run.pause;
        d.put("max_pause_seconds", pause == null ? null : round(pause.seconds()));
        d.put("max_pause_partition", pause == null ? null : (long) pause.partition());
        d.put("max_pause_start_seconds", pause == null ? null : round((pause.beginNanos() - run.startedNanos) / 1e9));
        d.put("baseline_max_pause_seconds", run == null || run.baseline == null ? null : round(run.baseline.seconds()));
        d.put("restored_records", run == null ? null : run.restoredRecords());
        d.put("tasks_per_instance", run == null ? null : run.split);
        d.put("rate", (long) rate);
        d.put("load_seconds", run == null ? null : loadSeconds(run.scaling));
        return d;
    }

    /** One run's state. */
    static final class Run extends RunState {
        OutputPauseWatch watch;
        long baselineFrom;
        PauseTracker.Pause pause;
        PauseTracker.Pause baseline;
        /** Active tasks per instance at the window's end, {@code 4/4/4}. */
        String split;

        @Override
        void closeReader() {
            if (watch != null) {
                watch.close();
            }
        }
    }
}
