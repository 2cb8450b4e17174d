package io.weir.benchmarks.systems;

import io.weir.benchmarks.RunSpec;
import io.weir.benchmarks.SystemUnderTest;
import io.weir.common.internal.Deadline;
import io.weir.common.internal.Poll;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The instances of one system's application in one consumer group, each a child JVM
 * ({@link ChildCountRunner#instance}), started and SIGKILLed by name: the scaling workloads. As a
 * {@link SystemUnderTest.Running} it stands for the whole group: it has failed if an instance it did
 * not kill has exited, and closing it SIGKILLs every instance still running.
 *
 * <p>{@link #unsettled()} says whether the group is balanced and at work, the same way for both
 * systems: the coordinator's view ({@link GroupAssignment#imbalance}: {@code STABLE}, one member per
 * running instance, each its share of the input partitions) and every instance ready
 * ({@link SystemUnderTest.Running#ready()}: Weir's {@code /health/ready} answering 200, which needs
 * an assignment and every active task restored; Kafka Streams in state {@code RUNNING}, which it
 * reaches once its active tasks are restored), and, where the system lists its tasks (Weir's
 * {@code /info}), as many active tasks running as the coordinator assigned.
 *
 * <p>Threads: the job's thread uses it; {@link #close()} may come from the executor's closer
 * thread. Methods are synchronized, except the waits, which call them.
 */
public final class InstanceGroup implements SystemUnderTest.Running {

    /** How often {@link #awaitSettled} asks. */
    public static final Duration CHECK_INTERVAL = Duration.ofMillis(100);
    /** How often a long wait logs what it is waiting for. */
    private static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(30);

    private static final Logger log = LoggerFactory.getLogger(InstanceGroup.class);

    private final ChildCountRunner runner;
    private final RunSpec spec;
    private final Admin admin;
    private final int partitions;
    private final Map<String, SystemUnderTest.Running> running = new LinkedHashMap<>();

    /**
     * @param partitions the input topic's partitions, over which the group balances its tasks
     */
    public InstanceGroup(ChildCountRunner runner, RunSpec spec, Admin admin, int partitions) {
        this.runner = runner;
        this.spec = spec;
        this.admin = admin;
        this.partitions = partitions;
    }

    /** Starts the instance {@code name} (its process; it joins the group on its own). */
    public synchronized void start(String name) {
        if (running.containsKey(name)) {
            throw new IllegalStateException(name + " is already running");
        }
        running.put(name, runner.instance(name).start(spec));
    }

    /**
     * SIGKILLs the instance {@code name} for good and returns once its process is gone; from then on
     * it is no longer part of {@link #instances()}.
     */
    public synchronized void kill(String name) throws Exception {
        SystemUnderTest.Running instance = running.remove(name);
        if (instance == null) {
            throw new IllegalStateException(name + " is not running");
        }
        instance.close();
    }

    /** The running instances' names, in the order they were started. */
    public synchronized List<String> instances() {
        return List.copyOf(running.keySet());
    }

    public synchronized SystemUnderTest.Running instance(String name) {
        SystemUnderTest.Running instance = running.get(name);
        if (instance == null) {
            throw new IllegalStateException(name + " is not running");
        }
        return instance;
    }

    /** The coordinator's assignment of the input partitions over the running instances. */
    public GroupAssignment assignment() {
        return GroupAssignment.describe(admin, spec.applicationId(), spec.inputTopic(), instances());
    }

    /** Why the group is not balanced and at work (see the class comment), or empty if it is. */
    Optional<String> unsettled() {
        GroupAssignment assignment = assignment();
        Optional<String> imbalance = assignment.imbalance(partitions);
        if (imbalance.isPresent()) {
            return imbalance;
        }
        for (String name : instances()) {
            SystemUnderTest.Running instance = instance(name);
            if (!instance.ready()) {
                return Optional.of(name + " not ready (" + assignment.counts() + ")");
            }
            OptionalInt tasks = instance.activeTasks();
            int assigned = assignment.partitionsOf(name).size();
            if (tasks.isPresent() && tasks.getAsInt() != assigned) {
                return Optional.of(name + " runs " + tasks.getAsInt() + " tasks of the " + assigned + " assigned");
            }
        }
        return Optional.empty();
    }

    /**
     * Waits until the group has been settled ({@link #unsettled()} empty) at every check, every
     * {@link #CHECK_INTERVAL}, for at least {@code sustain}, and returns when the first of those
     * checks began ({@link System#nanoTime()}). Demanding a stretch rather than one check skips a
     * moment between a rebalance's end at the coordinator and the instance's own reaction to it (an
     * instance still ready from before it received the new assignment). {@code check} runs before
     * each check and may throw to stop the wait.
     *
     * @throws IllegalStateException if an instance fails or {@code deadline} passes first, with
     *         what was last found unsettled
     */
    public long awaitSettled(Duration sustain, Deadline deadline, Runnable check) throws InterruptedException {
        long[] since = {-1};
        String[] last = {"not checked yet"};
        Deadline[] nextProgress = {Deadline.after(PROGRESS_INTERVAL)};
        boolean settled = Poll.until(
                () -> {
                    throwIfFailed();
                    check.run();
                    long at = System.nanoTime();
                    Optional<String> why = unsettled();
                    if (why.isEmpty()) {
                        if (since[0] < 0) {
                            since[0] = at;
                        }
                        if (System.nanoTime() - since[0] >= sustain.toNanos()) {
                            return true;
                        }
                    } else {
                        since[0] = -1;
                        last[0] = why.get();
                    }
                    if (nextProgress[0].expired()) {
                        nextProgress[0] = Deadline.after(PROGRESS_INTERVAL);
                        log.info(
                                "  waiting for the group of {} to settle: {}",
                                instances(),
                                since[0] < 0 ? last[0] : "settled");
                    }
                    return false;
                },
                deadline.remaining(),
                CHECK_INTERVAL);
        if (!settled) {
            throw new IllegalStateException("the group of " + instances() + " did not settle in time: " + last[0]);
        }
        return since[0];
    }

    /** @throws IllegalStateException if a running instance has failed */
    public void throwIfFailed() {
        failure().ifPresent(f -> {
            throw new IllegalStateException(f.getMessage(), f);
        });
    }

    /** The first failure of an instance that was not killed, with its name. */
    @Override
    public synchronized Optional<Throwable> failure() {
        for (Map.Entry<String, SystemUnderTest.Running> e : running.entrySet()) {
            Optional<Throwable> f = e.getValue().failure();
            if (f.isPresent()) {
                return Optional.of(
                        new IllegalStateException(e.getKey() + ": " + f.get().getMessage(), f.get()));
            }
        }
        return Optional.empty();
    }

    /** Whether every running instance is ready. */
    @Override
    public synchronized boolean ready() {
        return running.values().stream().allMatch(SystemUnderTest.Running::ready);
    }

    /** SIGKILLs every running instance; the first error, with the others suppressed. */
    @Override
    public synchronized void close() throws Exception {
        Exception first = null;
        for (SystemUnderTest.Running instance : new ArrayList<>(running.values())) {
            try {
                instance.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        running.clear();
        if (first != null) {
            throw first;
        }
    }
}
