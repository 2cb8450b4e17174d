package io.weir.internal.runtime;

import io.weir.WeirConfig;
import io.weir.processor.TaskId;
import io.weir.sink.DeliveryGuarantee;
import io.weir.sink.internal.CommitAbortedException;
import io.weir.sink.internal.TaskMigratedException;
import io.weir.sink.internal.TransactionalSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One stream thread: a consumer, a {@link TransactionalSink} with its producer, and the tasks
 * the group assigned to this consumer, run in a poll–process–commit loop.
 *
 * <p>Failure handling, by cause:
 * <ul>
 *   <li>a record fails under exactly-once: abort, rewind every task to its last commit, and
 *       dead-letter the record when the replay reaches it;</li>
 *   <li>fenced producer, stale generation, rebalance in progress: abort, close all tasks,
 *       replace the producer if fenced, recreate the tasks and rejoin;</li>
 *   <li>partitions lost: abort and drop their tasks; revoked: commit first, then drop;</li>
 *   <li>anything else: abort and stop the thread, which stops the application.</li>
 * </ul>
 *
 * <p>Threading: everything here runs on the thread itself, except {@link #shutdown()}, which
 * any thread may call.
 */
public final class StreamThread implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(StreamThread.class);
    private static final int BATCH = 200;
    /** Longest a restore runs between two polls of the group consumer. */
    private static final Duration RESTORE_SLICE = Duration.ofMillis(500);

    private final ThreadContext ctx;
    private final WeirConfig config;
    private final int index;
    private final String name;
    private final Consumer<Throwable> onFatal;
    private final ThreadMetrics metrics;
    private final boolean exactlyOnce;

    private volatile boolean running = true;
    private volatile boolean leaveGroupOnClose = true;
    private KafkaConsumer<byte[], byte[]> consumer;
    private TransactionalSink sink;
    private OutputCollector collector;
    private DeadLetters deadLetters;
    private TaskFactory taskFactory;
    private StoreRestorer restorer;
    private final Map<TaskId, Task> tasks = new LinkedHashMap<>();
    private final Map<TopicPartition, Task> taskByPartition = new HashMap<>();
    private long lastCommitNanos;
    private RuntimeException listenerFailure;
    private boolean rejoinRequested;

    /** A record failed under exactly-once; the transaction must be aborted and replayed. */
    private static final class ReplayRequired extends RuntimeException {
        ReplayRequired() {
            super(null, null, false, false);
        }
    }

    public StreamThread(ThreadContext ctx, int index, Consumer<Throwable> onFatal) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.index = index;
        this.name = ctx.clients().threadName(index);
        this.onFatal = onFatal;
        this.metrics = new ThreadMetrics(ctx.registry(), config.applicationId(), name);
        this.exactlyOnce = config.guarantee() == DeliveryGuarantee.EXACTLY_ONCE;
    }

    public String name() {
        return name;
    }

    /** Asks the thread to commit, close and end; returns at once. */
    public void shutdown(boolean leaveGroup) {
        leaveGroupOnClose = leaveGroup;
        running = false;
        KafkaConsumer<byte[], byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
    }

    @Override
    public void run() {
        Throwable failure = null;
        try {
            open();
            while (running) {
                runOnce();
            }
        } catch (WakeupException e) {
            if (running) {
                failure = e;
            }
        } catch (Throwable t) {
            failure = t;
        }
        close(failure);
        if (failure != null) {
            onFatal.accept(failure);
        }
    }

    private void open() {
        consumer = new KafkaConsumer<>(ctx.clients().consumer(index));
        sink = new TransactionalSink(config.guarantee(),
                () -> new KafkaProducer<>(ctx.clients().producer(index)), consumer, metrics,
                config.commitRetryTimeout());
        collector = new OutputCollector(sink, ctx.limits());
        deadLetters = new DeadLetters(config.deadLetterTopic(), sink, ctx.limits());
        taskFactory = new TaskFactory(ctx, consumer, collector, deadLetters, sink);
        restorer = new StoreRestorer(ctx, index, metrics);
        Pattern pattern = ctx.model().subscriptionPattern();
        if (pattern != null) {
            consumer.subscribe(pattern, new Listener());
        } else {
            consumer.subscribe(ctx.model().subscriptionTopics(), new Listener());
        }
        lastCommitNanos = System.nanoTime();
        log.info("{} started ({})", name, config.guarantee().configValue());
    }

    private void runOnce() {
        ConsumerRecords<byte[], byte[]> records;
        try {
            // While stores restore, do not sit in poll: the restore slice is the thread's wait.
            records = consumer.poll(restorer.hasPending() ? Duration.ZERO : config.pollTimeout());
        } catch (WakeupException e) {
            if (running) {
                throw e;
            }
            return;
        }
        if (listenerFailure != null) {
            RuntimeException f = listenerFailure;
            listenerFailure = null;
            throw f;
        }
        if (rejoinRequested) {
            rejoinRequested = false;
            consumer.enforceRebalance("tasks were closed after " + name + " was fenced");
        }
        restorer.restoreSome(RESTORE_SLICE);
        if (!records.isEmpty()) {
            commitPositionsBeforeProcessing(records);
            for (TopicPartition tp : records.partitions()) {
                Task task = taskByPartition.get(tp);
                if (task != null) {
                    task.addRecords(tp, records.records(tp));
                }
            }
        }
        processBuffered();
        punctuate();
        if (commitDue()) {
            commitAll();
        }
        for (Task task : tasks.values()) {
            task.stores().maybeFlush();
        }
    }

    private void commitPositionsBeforeProcessing(ConsumerRecords<byte[], byte[]> records) {
        if (config.guarantee() != DeliveryGuarantee.AT_MOST_ONCE) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> positions = new HashMap<>();
        for (TopicPartition tp : records.partitions()) {
            var list = records.records(tp);
            positions.put(tp, new OffsetAndMetadata(list.get(list.size() - 1).offset() + 1));
        }
        sink.afterPoll(positions);
    }

    private void processBuffered() {
        long start = System.nanoTime();
        int processed = 0;
        try {
            boolean more = true;
            while (more && running) {
                more = false;
                for (Task task : tasks.values()) {
                    if (task.hasBuffered()) {
                        processed += task.process(BATCH, this::onRecordFailure);
                        more |= task.hasBuffered();
                    }
                }
                if (deadLetters.takeCommitRequest() || (more && commitDue()) || writeCacheFull()) {
                    commitAll();
                }
            }
        } catch (ReplayRequired e) {
            abortAll("a record failed; replaying from the last commit");
        } catch (TaskMigratedException e) {
            abortAll(e.getMessage());
            recoverFromMigration(e);
        } catch (CommitAbortedException e) {
            log.warn("{}: {}; rewinding to the last commit", name, e.getMessage());
            abortAll(e.getMessage());
        }
        metrics.processed(processed, System.nanoTime() - start);
    }

    private void onRecordFailure(org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]> record,
                                 Stage stage, Throwable error) {
        if (!config.deadLetterOnError()) {
            throw new RecordFailedException(record, stage, error);
        }
        if (exactlyOnce && stage != Stage.DESERIALIZE) {
            // It may have forwarded outputs already: abort them all, dead-letter it on replay.
            deadLetters.poison(record, stage, error);
            throw new ReplayRequired();
        }
        deadLetters.write(record, stage, error);
    }

    private void punctuate() {
        long now = System.currentTimeMillis();
        try {
            for (Task task : tasks.values()) {
                task.punctuate(now);
            }
        } catch (TaskMigratedException e) {
            abortAll(e.getMessage());
            recoverFromMigration(e);
        } catch (CommitAbortedException e) {
            abortAll(e.getMessage());
        }
    }

    /** Uncommitted store writes are bounded: past the limit, commit early. */
    private boolean writeCacheFull() {
        long limit = config.stateCacheMaxBytes();
        long pending = 0;
        for (Task task : tasks.values()) {
            pending += task.stores().pendingBytes();
            if (pending > limit) {
                return true;
            }
        }
        return false;
    }

    private boolean commitDue() {
        return System.nanoTime() - lastCommitNanos >= config.commitInterval().toNanos();
    }

    private void commitAll() {
        lastCommitNanos = System.nanoTime();
        try {
            sink.commit(tasks.values());
            // Outputs and dead letters count once they are committed, not when sent.
            metrics.recordsOut.increment(collector.drainSentCount());
            metrics.deadLettered.increment(deadLetters.drainWrittenCount());
        } catch (TaskMigratedException e) {
            discardUncommittedCounts();
            recoverFromMigration(e);
        } catch (CommitAbortedException e) {
            discardUncommittedCounts();
            log.warn("{}: commit aborted ({}); rewound to the last commit", name, e.getMessage());
        }
    }

    /** Aborts the open transaction and rewinds every task to its last commit. */
    private void abortAll(String reason) {
        sink.abort(tasks.values(), reason);
        discardUncommittedCounts();
    }

    private void discardUncommittedCounts() {
        if (exactlyOnce) {
            collector.drainSentCount();
            deadLetters.drainWrittenCount();
        }
    }

    /**
     * The tasks' uncommitted work was aborted and their inputs rewound; close them, replace the
     * producer if it was fenced, start the tasks afresh and rejoin the group.
     */
    private void recoverFromMigration(TaskMigratedException e) {
        log.warn("{}: {}; closing tasks and rejoining", name, e.getMessage());
        List<TopicPartition> owned = new ArrayList<>(taskByPartition.keySet());
        closeTasks(new ArrayList<>(tasks.values()));
        sink.replaceProducerIfFenced();
        createTasks(owned);
        rejoinRequested = true;
    }

    private void createTasks(Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            TaskId id = taskFactory.taskIdFor(tp);
            if (id == null) {
                continue;
            }
            Task task = tasks.get(id);
            if (task == null) {
                task = taskFactory.create(id);
                tasks.put(id, task);
                restorer.register(task);
                ctx.localStores().register(id, task.stores());
            }
            task.addPartition(tp);
            taskByPartition.put(tp, task);
        }
    }

    private void closeTasks(Collection<Task> toClose) {
        for (Task task : toClose) {
            restorer.unregister(task);
            ctx.localStores().unregister(task.id(), task.stores());
            try {
                task.close();
            } catch (RuntimeException e) {
                log.warn("{}: closing {} failed", name, task, e);
            }
            tasks.remove(task.id());
            task.partitions().forEach(taskByPartition::remove);
        }
    }

    private List<Task> tasksOf(Collection<TopicPartition> partitions) {
        List<Task> result = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            Task t = taskByPartition.get(tp);
            if (t != null && !result.contains(t)) {
                result.add(t);
            }
        }
        return result;
    }

    private void close(Throwable failure) {
        try {
            if (sink != null) {
                if (failure == null) {
                    commitAll();
                } else {
                    abortAll("thread failed: " + failure);
                }
            }
        } catch (RuntimeException e) {
            log.warn("{}: final commit failed", name, e);
        }
        closeTasks(new ArrayList<>(tasks.values()));
        Duration timeout = config.shutdownTimeout();
        if (restorer != null) {
            restorer.close();
        }
        if (sink != null) {
            sink.close(timeout);
        }
        if (consumer != null) {
            try {
                consumer.close(CloseOptions.timeout(timeout).withGroupMembershipOperation(leaveGroupOnClose
                        ? CloseOptions.GroupMembershipOperation.LEAVE_GROUP
                        : CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP));
            } catch (RuntimeException e) {
                log.warn("{}: closing the consumer failed", name, e);
            }
        }
        log.info("{} stopped{}", name, failure == null ? "" : " after a failure: " + failure);
    }

    /** Rebalance callbacks; they run inside {@code poll} on this thread. */
    private final class Listener implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            guard(() -> {
                // Commit before the partitions go, so their next owner starts where we stopped.
                commitAll();
                closeTasks(tasksOf(partitions));
            });
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            guard(() -> {
                // Another member may own them already: our open work must not be committed.
                abortAll("partitions lost: " + partitions);
                closeTasks(tasksOf(partitions));
                sink.replaceProducerIfFenced();
            });
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            metrics.rebalances.increment();
            guard(() -> createTasks(partitions));
        }

        private void guard(Runnable action) {
            try {
                action.run();
            } catch (RuntimeException e) {
                if (listenerFailure == null) {
                    listenerFailure = e;
                }
            }
        }
    }
}
