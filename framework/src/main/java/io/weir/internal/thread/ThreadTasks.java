package io.weir.internal.thread;

import io.weir.config.WeirConfig;
import io.weir.errors.ServiceUnavailableException;
import io.weir.internal.cluster.topics.RepartitionPurge;
import io.weir.internal.commit.Committer;
import io.weir.internal.commit.OpenTransaction;
import io.weir.internal.task.ActiveTask;
import io.weir.internal.task.AsyncMeters;
import io.weir.internal.task.AsyncSignal;
import io.weir.internal.task.AsyncStep;
import io.weir.internal.task.DeadLetters;
import io.weir.internal.task.ErrorDecisions;
import io.weir.internal.task.LateRecords;
import io.weir.internal.task.OutputCollector;
import io.weir.internal.task.RecordFailure;
import io.weir.internal.task.Stage;
import io.weir.internal.task.TaskFactory;
import io.weir.processor.ErrorResponse;
import io.weir.processor.TaskId;
import io.weir.sink.DeliveryGuarantee;
import io.weir.sink.internal.CommitAbortedException;
import io.weir.sink.internal.TaskMigratedException;
import io.weir.sink.internal.TransactionalSink;
import io.weir.state.internal.BytesStore;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tasks of one stream thread and what they share: the thread's {@link TransactionalSink},
 * its {@link Committer} and open transaction, output collector, dead letters and late records. It
 * processes the records the tasks buffered, fires their punctuations, and commits or aborts them
 * together. It is the {@link TaskManager}'s, whose drivers feed the tasks their input: a
 * {@link StreamThread} from its Kafka consumer, the test driver from its in-memory topics. Both
 * run the same processing, failure handling and commit path through this class. Tasks take their
 * turns in task order.
 *
 * <p>One recovery policy ({@link #recovering}) handles what fails while processing, firing
 * timers, finishing or committing: a record that fails under exactly-once may have forwarded
 * outputs already, so the open transaction is aborted, every task rewinds to its last commit, and
 * the replay dead-letters or skips the record, as the error handler decided (see {@link DeadLetters}); a failed commit is aborted and
 * rewound the same way; a fenced producer or stale group generation is aborted and handed to the
 * owner ({@code onMigrated}), which recreates its tasks.
 *
 * <p>Threading: owned by one thread; not thread-safe.
 */
public final class ThreadTasks {

    private static final Logger log = LoggerFactory.getLogger(ThreadTasks.class);
    /** Records one task processes before the next task gets its turn. */
    private static final int BATCH = 200;

    /**
     * How the group commits and keeps state.
     *
     * @param commitIntervalNanos how long after a commit the next one is due on its own;
     *     {@link Long#MAX_VALUE}: only when the owner commits (or a replayed failure asks to)
     * @param storesInMemory      every store in memory, whatever the topology declares
     */
    public record Options(long commitIntervalNanos, boolean storesInMemory) {

        /** A stream thread's: {@code commit.interval.ms}, stores as declared. */
        static Options of(WeirConfig config) {
            return new Options(config.commitInterval().toNanos(), false);
        }
    }

    /** A record failed under exactly-once; the transaction must be aborted and replayed. */
    private static final class ReplayRequired extends RuntimeException {
        ReplayRequired() {
            super(null, null, false, false);
        }
    }

    private final ThreadContext ctx;
    private final String name;
    private final ThreadMetrics metrics;
    /** The smallest watermark of the tasks, for the lag gauge (read by other threads). */
    private volatile long lowestWatermark = Long.MIN_VALUE;
    /** Repartition partitions still waiting to hear from a writing task, for the gauge (read by other threads). */
    private volatile int awaitingWriters;
    /** Input partitions paused for a full buffer, for the gauge (read by other threads). */
    private volatile int pausedPartitions;

    private final Consumer<TaskMigratedException> onMigrated;
    private final long commitIntervalNanos;
    private final boolean exactlyOnce;
    private final TransactionalSink sink;
    private final Committer committer;
    private final OutputCollector collector;
    private final DeadLetters deadLetters;
    private final ErrorDecisions errors;
    private final LateRecords lateRecords;
    private final TaskFactory taskFactory;
    private final Map<TaskId, ActiveTask> tasks = new TreeMap<>();
    private long lastCommitNanos = System.nanoTime();

    /**
     * Creates the sink and its producer (under exactly-once, initialising the transactional id).
     *
     * @param name       for logs: the thread's name
     * @param consumer   where the tasks pause, resume, rewind and read committed offsets; the
     *                   group metadata of its offsets fences zombies
     * @param producers  makes the sink's producer, again when a fenced one is replaced
     * @param onMigrated told when this group was fenced; the work is aborted already
     */
    ThreadTasks(
            ThreadContext ctx,
            String name,
            org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> consumer,
            Supplier<Producer<byte[], byte[]>> producers,
            ThreadMetrics metrics,
            Consumer<TaskMigratedException> onMigrated,
            Options options) {
        WeirConfig config = ctx.config();
        this.ctx = ctx;
        this.name = name;
        this.metrics = metrics;
        this.onMigrated = onMigrated;
        this.commitIntervalNanos = options.commitIntervalNanos();
        this.exactlyOnce = config.guarantee() == DeliveryGuarantee.EXACTLY_ONCE;
        this.sink = new TransactionalSink(config.guarantee(), producers, consumer, config.commitRetryTimeout());
        this.committer = new Committer(sink, metrics);
        OpenTransaction transaction = committer.transaction();
        this.collector = new OutputCollector(transaction, ctx.limits());
        this.deadLetters = new DeadLetters(config.deadLetterTopic(), transaction, ctx.limits());
        this.errors = new ErrorDecisions(config.errorHandler());
        this.lateRecords = new LateRecords(
                config.eventTime().lateRecordsToTopic() ? config.eventTime().lateRecordsTopic() : null,
                transaction,
                ctx.limits());
        this.taskFactory = new TaskFactory(
                ctx.taskEnvironment(),
                consumer,
                new TaskFactory.Outputs(collector, deadLetters, lateRecords, transaction),
                options.storesInMemory(),
                new AsyncMeters(metrics.registry(), metrics.tags()));
        metrics.watermarkLag(() -> lowestWatermark, ctx.wallClock());
        metrics.awaitingWriters(() -> awaitingWriters);
        metrics.pausedPartitions(() -> pausedPartitions);
    }

    // ---- the tasks ---------------------------------------------------------------------------

    /** How the tasks' asynchronous steps wake this thread (see {@link AsyncSignal#pollWaitMs}). */
    public AsyncSignal asyncSignal() {
        return taskFactory.asyncSignal();
    }

    /** The task an input partition belongs to, or null if no source reads its topic. */
    public TaskId taskIdFor(TopicPartition tp) {
        return taskFactory.taskIdFor(tp);
    }

    /** The task, or null if this group does not run it. */
    public ActiveTask task(TaskId id) {
        return tasks.get(id);
    }

    public Collection<ActiveTask> tasks() {
        return Collections.unmodifiableCollection(tasks.values());
    }

    public java.util.Set<TaskId> taskIds() {
        return java.util.Set.copyOf(tasks.keySet());
    }

    /**
     * Creates a task, from the stores its standby here handed over open (by name; the others are
     * opened); {@link #publish} makes its stores readable from other threads.
     */
    ActiveTask create(TaskId id, Map<String, BytesStore> handedOver) {
        ActiveTask task = taskFactory.create(id, handedOver);
        tasks.put(id, task);
        return task;
    }

    /**
     * Makes a new task's stores readable from other threads; called once its restore has started,
     * so that queries see it restoring rather than caught up with what the disk held.
     */
    void publish(ActiveTask task, java.util.function.LongSupplier restoreRemaining) {
        ctx.shared().localStores().register(task.id(), task.stores(), task::isRestoring, restoreRemaining);
    }

    /** Closes a task whose work was committed or aborted, and forgets it. */
    void close(ActiveTask task) {
        ctx.shared().localStores().unregister(task.id(), task.stores());
        try {
            task.close();
        } catch (RuntimeException e) {
            log.warn("{}: closing {} failed", name, task, e);
        }
        tasks.remove(task.id());
    }

    public boolean hasBuffered() {
        for (ActiveTask task : tasks.values()) {
            if (task.hasBuffered()) {
                return true;
            }
        }
        return false;
    }

    /** True if an asynchronous step of a task has work: a call finished, or one may start now. */
    public boolean asyncReady() {
        for (ActiveTask task : tasks.values()) {
            if (task.asyncReady()) {
                return true;
            }
        }
        return false;
    }

    // ---- processing --------------------------------------------------------------------------

    /**
     * Processes what the tasks buffered, a batch per task in turn, while {@code running}; commits
     * on the way when a commit is due, when uncommitted store writes pass
     * {@code state.cache.max.bytes}, or when a replayed failure was dead-lettered.
     */
    void processBuffered(BooleanSupplier running) {
        long start = System.nanoTime();
        int[] processed = {0};
        recovering(() -> {
            boolean more = true;
            while (more && running.getAsBoolean()) {
                more = false;
                for (ActiveTask task : tasks.values()) {
                    if (task.hasBuffered() || task.asyncReady()) {
                        processed[0] += task.process(BATCH, commitIntervalNanos, this::onRecordFailure);
                        more |= task.hasBuffered();
                    }
                }
                if (deadLetters.takeCommitRequest() || (more && commitDue()) || writeCacheFull()) {
                    commitAll();
                }
                // A long backlog is progress, not a stall: say so after every round of batches.
                metrics.health().loopTurned();
            }
        });
        metrics.processed(processed[0], System.nanoTime() - start);
    }

    /**
     * Asks the error handler once per failure and carries out its decision: FAIL stops the
     * application, as does a service the record needs being unavailable (without asking, see
     * {@link ErrorDecisions#requireAvailable}); a skip or a dead letter of a record that may have
     * forwarded outputs already is, under exactly-once, carried out on the replay after an abort,
     * so that those outputs are gone.
     */
    private void onRecordFailure(RecordFailure failure) {
        ConsumerRecord<byte[], byte[]> record = failure.record();
        DeadLetters.Poisoned mark = deadLetters.poisonedAt(record);
        if (mark != null) {
            // Decided before the abort (an asynchronous call's result, applied again on the replay).
            deadLetters.apply(record, mark);
            deadLetters.requestCommit();
            return;
        }
        Stage stage = failure.stage();
        ErrorDecisions.Decision decision = errors.decide(failure);
        ErrorResponse response = decision.response();
        if (response.action() == ErrorResponse.Action.FAIL) {
            metrics.failed(stage, response.action()).increment();
            throw stage.failed(record, failure.error(), decision.whyFail());
        }
        if (exactlyOnce && !stage.nothingForwarded()) {
            // It may have forwarded outputs already: abort them all, skip or dead-letter it on replay.
            deadLetters.poison(record, stage, failure.error(), response);
            throw new ReplayRequired();
        }
        deadLetters.apply(record, stage, failure.error(), response);
    }

    /** Fires what the wall clock {@code now} made due in every task. */
    void punctuate(long now) {
        recovering(() -> {
            long lowest = Long.MAX_VALUE;
            int awaiting = 0;
            int paused = 0;
            ThreadHealth.AsyncWait waiting = null;
            for (ActiveTask task : tasks.values()) {
                task.punctuate(now);
                paused += task.pausedPartitions();
                waiting = longerWait(waiting, task);
                if (task.watermark() != Long.MIN_VALUE) { // a task without input yet has no event time to trail
                    lowest = Math.min(lowest, task.watermark());
                }
                awaiting += task.partitionsAwaitingWriters();
            }
            lowestWatermark = lowest == Long.MAX_VALUE ? Long.MIN_VALUE : lowest;
            awaitingWriters = awaiting;
            pausedPartitions = paused;
            metrics.health().asyncWait(waiting);
        });
    }

    /** The longer of {@code wait} and the wait of {@code task}'s longest waiting asynchronous step. */
    private static ThreadHealth.AsyncWait longerWait(ThreadHealth.AsyncWait wait, ActiveTask task) {
        AsyncStep step = task.longestWaitingStep();
        if (step == null || (wait != null && wait.sinceNanos() - step.waitingSinceNanos() <= 0)) {
            return wait;
        }
        return new ThreadHealth.AsyncWait(
                step.name(), task.id(), step.inFlight(), step.full(), step.waitingSinceNanos());
    }

    /**
     * Bounded runs: {@code task}'s inputs reached their end; moves its event time to {@code end} so
     * its windows and timers fire (see {@link ActiveTask#finish}), handling failures as {@link #punctuate}
     * does. Returns the records that sent.
     */
    public long finish(ActiveTask task, long end) {
        long before = collector.sentCount();
        recovering(() -> task.finish(end));
        return collector.sentCount() - before;
    }

    /** The background flush of the tasks' stores, when due. */
    void maybeFlushStores() {
        for (ActiveTask task : tasks.values()) {
            task.stores().maybeFlush();
        }
    }

    /** Uncommitted store writes are bounded: past the limit, commit early. */
    private boolean writeCacheFull() {
        long limit = ctx.config().stateCacheMaxBytes();
        long pending = 0;
        for (ActiveTask task : tasks.values()) {
            pending += task.stores().pendingBytes();
            if (pending > limit) {
                return true;
            }
        }
        return false;
    }

    // ---- commit and abort --------------------------------------------------------------------

    boolean commitDue() {
        return System.nanoTime() - lastCommitNanos >= commitIntervalNanos;
    }

    /** At-most-once: commits the positions of a poll before its records are processed. */
    public void afterPoll(Map<TopicPartition, OffsetAndMetadata> positions) {
        sink.afterPoll(positions);
    }

    /** Commits the work of every task (the {@link Committer}'s five steps); a failed commit is rewound. */
    void commitAll() {
        lastCommitNanos = System.nanoTime();
        recovering(() -> {
            if (!committer.commit(tasks.values())) {
                tasks.values().forEach(ActiveTask::nothingToCommit);
            }
            metrics.commitSucceeded();
            RepartitionPurge purge = ctx.shared().purge();
            if (purge != null && purge.active()) {
                Map<TopicPartition, Long> committed = new HashMap<>();
                tasks.values().forEach(t -> t.forEachCommitted(committed::put));
                purge.committed(committed);
            }
            // Outputs and dead letters count once they are committed, not when sent.
            metrics.recordsOut.increment(collector.drainSentCount());
            deadLetters.drainCounts(metrics::failed);
            metrics.late.increment(lateRecords.drainCount());
        });
    }

    /** Aborts the open transaction and rewinds every task to its last commit. */
    public void abortAll(String reason) {
        committer.abort(tasks.values(), reason);
        discardUncommittedCounts();
    }

    /**
     * Runs {@code work} under the thread's one recovery policy: whatever fails in it (a record
     * under exactly-once, a send, a commit, a fence) is aborted once and every task rewound to its
     * last commit; a fence is then handed to the owner. Anything else (a fatal Kafka error, a bug,
     * a service the records need being unavailable) goes up to the thread, which aborts as it closes.
     */
    private void recovering(Runnable work) {
        try {
            work.run();
        } catch (ReplayRequired e) {
            abortAll("a record failed; replaying from the last commit");
        } catch (TaskMigratedException e) {
            abortAll(e.getMessage());
            onMigrated.accept(e);
        } catch (CommitAbortedException e) {
            log.warn("{}: {}; rewinding to the last commit", name, e.getMessage());
            abortAll(e.getMessage());
        } catch (RuntimeException e) {
            // Outside a record's failure (a timer, a result held back for the commit) an unavailable
            // service stops the thread as itself, not inside a stage's wrapper, as a record's does.
            ServiceUnavailableException unavailable = ErrorDecisions.unavailable(e);
            throw unavailable != null ? unavailable : e;
        }
    }

    private void discardUncommittedCounts() {
        if (exactlyOnce) {
            collector.drainSentCount();
            deadLetters.drainCounts((stage, action, n) -> {});
            lateRecords.drainCount();
        }
    }

    /** After a fence: replaces the producer, whose transactional id then fences any zombie. */
    void replaceProducerIfFenced() {
        sink.replaceProducerIfFenced();
    }

    /** Aborts an open transaction and closes the producer; close the tasks first. */
    void closeSink(Duration timeout) {
        sink.close(timeout);
    }
}
