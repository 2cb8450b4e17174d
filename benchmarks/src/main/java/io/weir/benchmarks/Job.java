package io.weir.benchmarks;

import io.weir.benchmarks.input.Workload;
import io.weir.benchmarks.jobs.FailoverJob;
import io.weir.benchmarks.jobs.MemoryJob;
import io.weir.benchmarks.jobs.ProcessingJob;
import io.weir.benchmarks.jobs.ReadyJob;
import io.weir.benchmarks.jobs.RestartJob;
import io.weir.benchmarks.jobs.RestoreJob;
import io.weir.benchmarks.jobs.ScaleOutJob;
import io.weir.common.internal.Deadline;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * What a {@link RunExecutor} times, per workload kind: the topic the system reads, the number of
 * records (or keys) a run is counted over, what to prepare off the clock, and when the clock
 * stops. {@link ProcessingJob}: process an input (map, count); {@link RestoreJob}: restore a
 * changelog into an empty store; {@link RestartJob}: restart a SIGKILLed process until its first
 * new output; {@link MemoryJob}: count many keys while sampling the process's RSS;
 * {@link ReadyJob}: start a process until it is ready; {@link FailoverJob}: SIGKILL one of three
 * instances until its partitions have new output; {@link ScaleOutJob}: add a third instance until
 * the group is balanced, watching the output for pauses.
 *
 * <p>A {@link RunExecutor} runs one run at a time, so a job may keep the state of the current run
 * between {@link #prepare}, {@link #await} and {@link #details}.
 */
public interface Job {

    Scenario scenario();

    /** The topic the system under test consumes in the run of {@code applicationId}. */
    String inputTopic(String applicationId);

    /** The records (restore, restart, memory, scaling: keys) a run is counted over. */
    long records();

    /** The partitions of the run's output topic: those of its input. */
    default int partitions() {
        return Workload.PARTITIONS;
    }

    /**
     * Off the clock, before the timed start of {@code system}, with the run's topics and state
     * directory; {@code timeout} bounds what the job runs itself (the restart's first process).
     */
    default void prepare(RunSpec spec, SystemUnderTest system, Duration timeout) throws Exception {}

    /**
     * The timed start, just after the clock started: by default the system's start; a scaling job
     * instead performs its event on the group it prepared (a SIGKILL, a new instance) and returns
     * that group, which the executor closes after the run.
     */
    default SystemUnderTest.Running start(SystemUnderTest system, RunSpec spec) throws Exception {
        return system.start(spec);
    }

    /**
     * Returns when the timed work is done, with the {@link System#nanoTime()} at which the clock
     * stops: usually the moment of return; a job may wait on for something untimed afterwards and
     * return an earlier moment. {@code startedNanos} is when the clock started.
     *
     * @throws IllegalStateException if the system fails or {@code deadline} passes first
     */
    long await(RunSpec spec, SystemUnderTest.Running running, long startedNanos, Deadline deadline)
            throws InterruptedException;

    /** Off the clock, after the system stopped: what is wrong with the output, or empty. */
    default Optional<String> verify(RunSpec spec) {
        return Optional.empty();
    }

    /**
     * Off the clock, after the run (also a failed one): the run's further measurements, in the
     * order of its JSON line (numbers, booleans or null), and the end of the job's per-run state.
     */
    default Map<String, Object> details(RunSpec spec) {
        return Map.of();
    }
}
