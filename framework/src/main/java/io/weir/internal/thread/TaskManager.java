package io.weir.internal.thread;

import io.weir.internal.assign.MemberHooks;
import io.weir.internal.savepoint.SavepointParticipant;
import io.weir.internal.state.StoreHandOver;
import io.weir.internal.task.ActiveTask;
import io.weir.processor.TaskId;
import io.weir.sink.internal.TaskMigratedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tasks of one consumer and the loop that runs them, whoever drives it: a {@link StreamThread}
 * with Kafka's clients, or the test driver ({@code DriverRuntime}) with Kafka's mock clients over
 * in-memory topics. Both drive the same lifecycle and the same step through this class; what
 * differs is plugged in ({@link Plugins}) and the clock comes with the {@link ThreadContext}.
 *
 * <p>It owns the {@link ThreadTasks} (the tasks, their sink and its commit) and the map from input
 * partitions to tasks, and moves tasks through their lifecycle:
 * <ol>
 *   <li>{@link #assigned}: create the tasks of new partitions; their logged stores restore (the
 *       {@link Restorer}) while their input stays paused;</li>
 *   <li>{@link #addRecords}, then {@link #step}: finish the restores that are done, process what
 *       the tasks buffered, fire punctuations, finish the tasks at their end in a bounded run
 *       ({@link RunEnd}), commit when due, flush stores;</li>
 *   <li>{@link #revoked}: commit, then close the tasks; {@link #lost}: abort, close, replace a
 *       fenced producer; a fence while processing or committing: close every task, replace the
 *       producer, recreate the tasks and have the driver rejoin ({@link Observer#rejoinNeeded});</li>
 *   <li>{@link #close}: commit (or abort after a failure), close the tasks, the restores, the sink.</li>
 * </ol>
 *
 * <p>Threading: owned by the thread that drives it, which calls every method (rebalance
 * callbacks run inside that thread's poll); not thread-safe.
 */
public final class TaskManager {

    private static final Logger log = LoggerFactory.getLogger(TaskManager.class);

    /** What the manager tells its driver. */
    public interface Observer {

        /** A task now reads {@code tp}. */
        default void partitionAdded(TopicPartition tp, TaskId task) {}

        /** No task reads {@code tp} any more. */
        default void partitionRemoved(TopicPartition tp) {}

        /**
         * The tasks were fenced ({@code cause}): their work was aborted, and they were closed and
         * recreated with a new producer if it was fenced. The driver must rejoin the group.
         */
        void rejoinNeeded(TaskMigratedException cause);
    }

    /**
     * What a driver of the loop plugs in.
     *
     * @param consumer    where the tasks pause, resume, rewind and read committed offsets; its
     *                    group metadata fences zombies
     * @param producers   makes the sink's producer, again when a fenced one is replaced
     * @param restorer    restores the stores of new tasks
     * @param activations told when tasks open and close
     * @param observer    told of partitions gained and given up, and of a rejoin needed
     * @param runEnd      where the run ends: never (streaming), or at the inputs' ends (bounded)
     */
    public record Plugins(
            Consumer<byte[], byte[]> consumer,
            Supplier<Producer<byte[], byte[]>> producers,
            Restorer restorer,
            ActivationListener activations,
            Observer observer,
            RunEnd runEnd) {

        /** A streaming run's. */
        public Plugins(
                Consumer<byte[], byte[]> consumer,
                Supplier<Producer<byte[], byte[]>> producers,
                Restorer restorer,
                ActivationListener activations,
                Observer observer) {
            this(consumer, producers, restorer, activations, observer, RunEnd.STREAMING);
        }
    }

    private final String name;
    private final ThreadMetrics metrics;
    private final ThreadContext ctx;
    private final Restorer restorer;
    private final ActivationListener activations;
    private final Observer observer;
    private final RunEnd runEnd;
    private final ThreadTasks threadTasks;
    private final Map<TopicPartition, ActiveTask> taskByPartition = new LinkedHashMap<>();
    private boolean commitRequested;
    /** Between a join's start and its assignment: nothing is processed (see {@link #rebalancing()}). */
    private boolean rebalancing;
    /** This thread's part in savepoints; null in the test driver. */
    private final SavepointParticipant savepoints;

    /**
     * Creates the thread's tasks, and with it the sink's producer.
     *
     * @param name for logs: the thread's name
     */
    public TaskManager(
            ThreadContext ctx, String name, ThreadMetrics metrics, ThreadTasks.Options options, Plugins plugins) {
        this.ctx = ctx;
        this.name = name;
        this.metrics = metrics;
        this.restorer = plugins.restorer();
        this.activations = plugins.activations();
        this.observer = plugins.observer();
        this.runEnd = plugins.runEnd();
        this.threadTasks = new ThreadTasks(
                ctx, name, plugins.consumer(), plugins.producers(), metrics, this::recoverFromMigration, options);
        this.savepoints = ctx.shared().savepoints() == null
                ? null
                : new SavepointParticipant(ctx.shared().savepoints(), plugins.consumer(), ctx.model());
    }

    // ---- lifecycle ---------------------------------------------------------------------------

    /** Partitions were assigned: creates their tasks (restoring first) and adds the partitions to them. */
    public void assigned(Collection<TopicPartition> partitions) {
        Set<TaskId> created = new TreeSet<>();
        for (TopicPartition tp : partitions) {
            TaskId id = threadTasks.taskIdFor(tp);
            if (id != null && threadTasks.task(id) == null) {
                created.add(id);
            }
        }
        // A standby copy of a task on this instance hands its open stores over before the task opens.
        StoreHandOver handedOver = activations.activating(created);
        try {
            for (TopicPartition tp : partitions) {
                TaskId id = threadTasks.taskIdFor(tp);
                if (id == null) {
                    continue;
                }
                ActiveTask task = threadTasks.task(id);
                if (task == null) {
                    task = threadTasks.create(id, handedOver.take(id));
                    ActiveTask opened = task;
                    activations.activated(
                            id,
                            () -> opened.isRestoring() ? opened.stores().changelogOffsetSum() : MemberHooks.RUNNING);
                    restorer.register(task);
                    threadTasks.publish(task, () -> restorer.remaining(opened));
                }
                task.addPartition(tp);
                taskByPartition.put(tp, task);
                observer.partitionAdded(tp, id);
            }
        } finally {
            handedOver.closeRest(); // a task that failed to open: its stores are not left locked
        }
        metrics.health().tasks(threadTasks.taskIds());
    }

    /** Partitions are revoked: commits every task, so their next owner starts where these stopped, then closes theirs. */
    public void revoked(Collection<TopicPartition> partitions) {
        if (savepoints != null) {
            savepoints.tasksMoving(partitions);
        }
        threadTasks.commitAll();
        closeTasks(tasksOf(partitions));
    }

    /**
     * Partitions were lost: another member may own them already, so the open work is aborted, not
     * committed; their tasks close, and a fenced producer is replaced.
     */
    void lost(Collection<TopicPartition> partitions) {
        if (savepoints != null) {
            savepoints.tasksMoving(partitions);
        }
        threadTasks.abortAll("partitions lost: " + partitions);
        closeTasks(tasksOf(partitions));
        threadTasks.replaceProducerIfFenced();
    }

    /**
     * The tasks' uncommitted work was aborted and their inputs rewound; close them, replace the
     * producer if it was fenced, start the tasks afresh and have the driver rejoin the group.
     */
    private void recoverFromMigration(TaskMigratedException e) {
        log.warn("{}: {}; closing tasks and rejoining", name, e.getMessage());
        List<TopicPartition> owned = new ArrayList<>(taskByPartition.keySet());
        closeTasks(new ArrayList<>(threadTasks.tasks()));
        threadTasks.replaceProducerIfFenced();
        assigned(owned);
        observer.rejoinNeeded(e);
    }

    private void closeTasks(Collection<ActiveTask> toClose) {
        List<TaskId> closed = new ArrayList<>();
        for (ActiveTask task : toClose) {
            runEnd.settled(task); // what it committed counts, whoever runs it next
            restorer.unregister(task);
            threadTasks.close(task);
            closed.add(task.id());
            for (TopicPartition tp : task.partitions()) {
                taskByPartition.remove(tp);
                observer.partitionRemoved(tp);
            }
        }
        activations.deactivated(closed);
        metrics.health().tasks(threadTasks.taskIds());
    }

    private List<ActiveTask> tasksOf(Collection<TopicPartition> partitions) {
        List<ActiveTask> result = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            ActiveTask t = taskByPartition.get(tp);
            if (t != null && !result.contains(t)) {
                result.add(t);
            }
        }
        return result;
    }

    // ---- the loop ----------------------------------------------------------------------------

    /** Buffers fetched records in the task that reads {@code tp}; dropped if none does any more. */
    public void addRecords(TopicPartition tp, List<ConsumerRecord<byte[], byte[]>> records) {
        ActiveTask task = taskByPartition.get(tp);
        if (task != null) {
            task.addRecords(tp, runEnd.admit(tp, records));
        }
    }

    /** The next {@link #step} commits, whether or not {@code commit.interval.ms} has passed. */
    public void requestCommit() {
        commitRequested = true;
    }

    /**
     * One turn of the loop after a poll: lets tasks whose restore is done process, processes what
     * the tasks buffered while {@code running}, fires what the wall clock made due, commits when
     * due (or {@linkplain #requestCommit requested}), and flushes the stores when due. In a bounded
     * run it also finishes the tasks whose inputs reached their end ({@link RunEnd}).
     *
     * @throws RuntimeException what failed a restore, or a failure the owner must stop on
     */
    public void step(BooleanSupplier running) {
        restorer.finishRestored();
        long behind = 0;
        for (ActiveTask task : threadTasks.tasks()) {
            behind += task.inputLag();
        }
        ctx.backlog().report(name, behind);
        if (!rebalancing) {
            if (savepoints != null) {
                savepoints.step(threadTasks.tasks(), threadTasks::commitAll);
            }
            threadTasks.processBuffered(running);
            threadTasks.punctuate(ctx.wallClock().getAsLong());
            // A bounded run: tasks at the end of their input fire what is left, committed at once.
            commitRequested |= runEnd.finishReached(threadTasks);
        }
        if (commitRequested || threadTasks.commitDue()) {
            commitRequested = false;
            threadTasks.commitAll();
        }
        for (ActiveTask task : threadTasks.tasks()) {
            runEnd.settled(task);
        }
        threadTasks.maybeFlushStores();
    }

    /** True once the run has ended: a bounded run, every task of the instance done. */
    boolean complete() {
        return runEnd.complete();
    }

    /**
     * The thread's consumer starts to (re)join the group: commits now, while its generation is
     * still the group's, and holds processing until {@link #rebalanced()}. Under exactly-once, a
     * transaction left open across the join would try to commit its offsets for a generation the
     * group has left, be refused, and be redone after closing and restoring every task.
     */
    void rebalancing() {
        rebalancing = true;
        threadTasks.commitAll();
    }

    /** The join ended with an assignment: processing goes on. */
    void rebalanced() {
        rebalancing = false;
    }

    boolean isRebalancing() {
        return rebalancing;
    }

    // ---- what the driver reads ---------------------------------------------------------------

    /** The thread's tasks, what they buffered, and their commit and abort. */
    public ThreadTasks tasks() {
        return threadTasks;
    }

    /** True while a task restores its stores. */
    boolean restoring() {
        return restorer.hasPending();
    }

    // ---- close -------------------------------------------------------------------------------

    /**
     * Commits the work of every task, or after {@code failure} aborts it; then closes the tasks,
     * stops the restores and closes the sink within {@code timeout}.
     *
     * @throws RuntimeException what the final commit (or abort) threw, once everything is closed
     */
    public void close(Throwable failure, Duration timeout) {
        RuntimeException endFailure = null;
        try {
            if (failure == null) {
                threadTasks.commitAll();
            } else {
                threadTasks.abortAll("thread failed: " + failure);
            }
        } catch (RuntimeException e) {
            endFailure = e;
        }
        closeTasks(new ArrayList<>(threadTasks.tasks()));
        ctx.backlog().remove(name);
        restorer.close();
        threadTasks.closeSink(timeout);
        if (endFailure != null) {
            throw endFailure;
        }
    }
}
