package io.weir.benchmarks.jobs;

import io.weir.benchmarks.Job;
import io.weir.benchmarks.RunSpec;
import io.weir.benchmarks.SystemUnderTest;
import io.weir.benchmarks.input.InputTopic;
import io.weir.benchmarks.input.Workload;
import io.weir.benchmarks.systems.ChildCountRunner;
import io.weir.benchmarks.systems.InstanceGroup;
import io.weir.benchmarks.verification.CompletionProbe;
import io.weir.common.internal.Deadline;
import io.weir.common.internal.Poll;
import io.weir.testkit.KafkaTestClient;
import io.weir.testkit.SteadyInput;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What a run of a scaling workload ({@link FailoverJob}, {@link ScaleOutJob}) sets up off the
 * clock, and what stays running until the run ends: a group of instances holding state, under live
 * traffic.
 *
 * <ol>
 *   <li>The run's input {@code <application.id>-in} is created empty, with {@value #PARTITIONS}
 *       partitions (the output gets as many, {@link Job#partitions()}).</li>
 *   <li>The instances are started (child JVMs, {@link InstanceGroup}) and the group is awaited
 *       settled: balanced and every instance ready. Forming the group before any state exists gives
 *       both systems the same balanced start: a Kafka Streams instance that joined late would
 *       otherwise get warm-up tasks instead of its share, to be moved only at a probing
 *       rebalance.</li>
 *   <li>The state is loaded: each of {@code keys} distinct keys is written once
 *       ({@link Workload#fillDistinct}), and the run waits until the group has committed all of it
 *       and the output holds a count per key ({@link CompletionProbe}); {@code load_seconds} is the
 *       time from the first record written to that point.</li>
 *   <li>Live traffic starts, {@code rate} records a second over the same keys
 *       ({@link SteadyInput}), and runs until the run ends; the job lets the group run under it for
 *       {@link #SETTLE} and awaits it settled again before its timed event.</li>
 * </ol>
 *
 * <p>{@link #close()} stops the traffic and SIGKILLs every instance still running.
 */
final class ScalingRun implements AutoCloseable {

    /** Partitions of the input and output topics: tasks enough to spread over three instances. */
    static final int PARTITIONS = 12;
    /** How long the group runs under live traffic between the load and the timed event. */
    static final Duration SETTLE = Duration.ofSeconds(10);
    /** How long the group must be found settled at every check to count as settled. */
    static final Duration SUSTAIN = Duration.ofSeconds(1);

    private final InstanceGroup group;
    private SteadyInput traffic;
    private double loadSeconds = Double.NaN;

    private ScalingRun(InstanceGroup group) {
        this.group = group;
    }

    /**
     * Steps 1 to 4 above: returns with the state loaded and the traffic running; the job then lets
     * the group run on and settle ({@link #runFor}, {@link #awaitSettled}).
     *
     * @throws IllegalArgumentException if {@code system} does not run in child processes
     * @throws IllegalStateException if an instance fails or {@code deadline} passes first
     */
    static ScalingRun start(
            KafkaTestClient client,
            Workload workload,
            RunSpec spec,
            SystemUnderTest system,
            List<String> instances,
            long keys,
            int rate,
            Deadline deadline)
            throws InterruptedException {
        if (!(system instanceof ChildCountRunner runner)) {
            throw new IllegalArgumentException(
                    spec.scenario().label() + " runs its instances in child processes, not " + system.name());
        }
        Workload.createTopic(client, spec.inputTopic(), PARTITIONS, Map.of());
        ScalingRun run = new ScalingRun(new InstanceGroup(runner, spec, client.admin(), PARTITIONS));
        try {
            instances.forEach(run.group::start);
            run.group.awaitSettled(SUSTAIN, deadline, () -> {});
            long loading = System.nanoTime();
            InputTopic input = workload.fillDistinct(spec.inputTopic(), keys);
            new CompletionProbe(client.admin(), input, keys)
                    .await(spec.applicationId(), spec.outputTopic(), PARTITIONS, run.group, deadline);
            run.loadSeconds = (System.nanoTime() - loading) / 1e9;
            run.traffic = Workload.liveTraffic(client.bootstrapServers(), spec.inputTopic(), keys, rate);
            return run;
        } catch (InterruptedException | RuntimeException e) {
            run.closeQuietly(e);
            throw e;
        }
    }

    InstanceGroup group() {
        return group;
    }

    /** From the first record of the state written until all of it was processed; NaN before. */
    double loadSeconds() {
        return loadSeconds;
    }

    /** Records of live traffic sent so far. */
    long trafficSent() {
        return traffic == null ? 0 : traffic.sent();
    }

    /**
     * Lets the group run under the traffic for {@code duration}, checking every
     * {@link InstanceGroup#CHECK_INTERVAL} that no instance and not the traffic failed.
     *
     * @throws IllegalStateException on such a failure, or if {@code deadline} passes first
     */
    void runFor(Duration duration, Deadline deadline) throws InterruptedException {
        runFor(duration, deadline, InstanceGroup.CHECK_INTERVAL, this::throwIfFailed);
    }

    /**
     * Lets {@code duration} pass (running on is the point), running {@code check} every
     * {@code interval}; shared with the savepoint workload, which checks its own application.
     *
     * @throws IllegalStateException if {@code check} throws it, or if {@code deadline} passes first
     */
    static void runFor(Duration duration, Deadline deadline, Duration interval, Runnable check)
            throws InterruptedException {
        Deadline until = Deadline.after(duration);
        Poll.until(
                () -> {
                    check.run();
                    if (deadline.expired()) {
                        throw new IllegalStateException("timed out under live traffic");
                    }
                    return until.expired();
                },
                duration,
                interval);
    }

    /** {@link InstanceGroup#awaitSettled} for {@link #SUSTAIN}, checking the traffic as well. */
    long awaitSettled(Deadline deadline) throws InterruptedException {
        return group.awaitSettled(SUSTAIN, deadline, this::throwIfTrafficFailed);
    }

    /** @throws IllegalStateException if an instance or the traffic failed */
    void throwIfFailed() {
        group.throwIfFailed();
        throwIfTrafficFailed();
    }

    private void throwIfTrafficFailed() {
        if (traffic != null && traffic.failure().isPresent()) {
            Throwable f = traffic.failure().get();
            throw new IllegalStateException("the live traffic failed: " + f, f);
        }
    }

    @Override
    public void close() throws Exception {
        if (traffic != null) {
            traffic.close();
        }
        group.close();
    }

    private void closeQuietly(Exception cause) {
        try {
            close();
        } catch (Exception e) {
            cause.addSuppressed(e);
        }
    }
}
