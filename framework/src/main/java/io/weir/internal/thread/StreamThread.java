package io.weir.internal.thread;

import io.weir.config.WeirConfig;
import io.weir.internal.assign.MemberHooks;
import io.weir.internal.assign.TaskAssignor;
import io.weir.internal.config.ClientRole;
import io.weir.processor.TaskId;
import io.weir.sink.DeliveryGuarantee;
import io.weir.sink.internal.TaskMigratedException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One stream thread: a consumer, and the tasks the group assigned to it with their sink and
 * producer, run in a poll–process–commit loop. The tasks, their lifecycle and the step after each
 * poll are the {@link TaskManager}'s (the test driver runs the same); the thread adds the poll,
 * the rebalance callbacks (which hand the partitions to the manager), rejoins and rebalances the
 * manager or the state thread ask for, consumer lag, health and shutdown. In a bounded run the loop
 * also ends once the run is complete ({@link RunEnd}); the thread then closes as on a
 * shutdown, leaving the group.
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
 * <p>Threading: everything here runs on the thread itself, except {@link #shutdown(boolean)}, which
 * any thread may call.
 *
 * <p>Not a {@code Worker}, unlike the instance's other loops: the loop also ends by itself (a
 * bounded run's end), its stop carries an argument (leave the group or not), and on a failure the
 * thread must close its tasks and producer before the instance hears of it, where a Worker reports
 * the failure first and runs its exit action after.
 */
public final class StreamThread implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(StreamThread.class);

    private final ThreadContext ctx;
    private final WeirConfig config;
    private final int index;
    private final String name;
    private final Consumer<Throwable> onFatal;
    private final ThreadMetrics metrics;
    private final ThreadHealth health;
    private final PartitionLag lag;
    /** Where the run ends, for this thread's consumer: never (streaming), or at the inputs' ends (bounded). */
    private final Function<org.apache.kafka.clients.consumer.Consumer<byte[], byte[]>, RunEnd> runEnds;

    private volatile boolean running = true;
    private volatile boolean leaveGroupOnClose = true;
    private KafkaConsumer<byte[], byte[]> consumer;
    private TaskManager manager;
    private RuntimeException listenerFailure;
    private boolean rejoinRequested;
    /** Why to join the follow-up rebalance of a hand-over now (see {@link Membership#joined}), or null. */
    private String followUp;
    /** The last assignment had this thread join its follow-up at once. */
    private boolean followedUpLast;
    /** Which rebalances of other instances this thread has joined (see {@link GroupRejoins}). */
    private final GroupRejoins.Seen rejoinsSeen;

    private boolean assignedOnce;
    /** Partitions were given up (revoked, lost, or all closed after a fence) and the next assignment is awaited. */
    private boolean awaitingAssignment;

    /**
     * @param runEnds where the run ends, given the thread's consumer: {@link RunEnd#STREAMING}, or
     *                a bounded run's end, after which the thread closes and leaves the group
     */
    public StreamThread(
            ThreadContext ctx,
            int index,
            Function<org.apache.kafka.clients.consumer.Consumer<byte[], byte[]>, RunEnd> runEnds,
            Consumer<Throwable> onFatal) {
        this.ctx = ctx;
        this.rejoinsSeen = ctx.shared().rejoins().newThread();
        this.runEnds = runEnds;
        this.config = ctx.config();
        this.index = index;
        this.name = ctx.clients().threadName(index);
        this.onFatal = onFatal;
        this.health = new ThreadHealth(name);
        this.metrics = new ThreadMetrics(ctx.shared().registry(), ctx.tags(), name, health);
        this.lag = new PartitionLag(ctx.shared().registry(), metrics.tags());
    }

    public String name() {
        return name;
    }

    /** What this thread publishes about its progress; readable from any thread. */
    public ThreadHealth health() {
        return health;
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
        // The "stuck in one call" clock starts when this thread runs, not when the instance made it:
        // the instance's start-up in between (its HTTP server, the state thread) is no call of this
        // thread, and takes seconds on a loaded machine.
        health.loopTurned();
        Throwable failure = null;
        try {
            open();
            while (running && !manager.complete()) {
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
        Map<String, Object> consumerConfig = ctx.clients().consumer(index);
        // The consumer runs Weir's assignor, which places whole tasks of this topology and talks to
        // this thread through its member hooks.
        consumerConfig.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, TaskAssignor.class.getName());
        consumerConfig.put(TaskAssignor.TOPOLOGY_CONFIG, ctx.model());
        consumerConfig.put(MemberHooks.CONFIG, new ThreadMember(ctx, index, new Membership()));
        consumer = ctx.clients().kafka().consumer(ClientRole.ofThread("consumer", name), consumerConfig);
        manager = new TaskManager(
                ctx,
                name,
                metrics,
                ThreadTasks.Options.of(config),
                new TaskManager.Plugins(
                        consumer,
                        () -> ctx.clients()
                                .kafka()
                                .producer(
                                        ClientRole.ofThread("producer", name),
                                        ctx.clients().producer(index)),
                        new StateThreadRestorer(ctx.shared().taskRegistry().stateThread(), metrics),
                        ActivationListener.of(ctx.shared().taskRegistry()),
                        new ManagerEvents(),
                        runEnds.apply(consumer)));
        Pattern pattern = ctx.model().subscriptionPattern();
        if (pattern != null) {
            consumer.subscribe(pattern, new Listener());
        } else {
            consumer.subscribe(ctx.model().subscriptionTopics(), new Listener());
        }
        health.heartbeatAge(ConsumerSignals.heartbeatAgeSeconds(consumer));
        log.info("{} started ({}{})", name, config.guarantee().configValue(), config.bounded() ? ", bounded run" : "");
    }

    private void runOnce() {
        ConsumerRecords<byte[], byte[]> records;
        try {
            // While asynchronous calls are in flight, a finished one must not wait out poll.ms.
            Duration pollTimeout = config.pollTimeout();
            long waitMs = manager.tasks().asyncSignal().pollWaitMs(pollTimeout.toMillis());
            // Without calls in flight the loop polls with the setting's own Duration: nothing new per turn.
            records = consumer.poll(waitMs == pollTimeout.toMillis() ? pollTimeout : Duration.ofMillis(waitMs));
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
        if (followUp != null) {
            consumer.enforceRebalance(followUp);
            followUp = null;
        }
        String joinNow = ctx.shared().rejoins().pending(rejoinsSeen);
        if (joinNow != null) {
            consumer.enforceRebalance(joinNow + "; joining now rather than at the next heartbeat");
        }
        String rebalance = ctx.shared().taskRegistry().stateThread().takeRebalanceRequest(index);
        if (rebalance != null) {
            consumer.enforceRebalance(rebalance);
            ctx.shared().rejoins().announce(rebalance);
        }
        if (!records.isEmpty()) {
            commitPositionsBeforeProcessing(records);
            for (TopicPartition tp : records.partitions()) {
                manager.addRecords(tp, records.records(tp));
            }
        }
        manager.step(() -> running);
        lag.sample(consumer);
        health.phase(
                !assignedOnce
                        ? ThreadHealth.Phase.STARTING
                        : awaitingAssignment || manager.isRebalancing()
                                ? ThreadHealth.Phase.REBALANCING
                                : manager.restoring() ? ThreadHealth.Phase.RESTORING : ThreadHealth.Phase.RUNNING);
        health.loopTurned();
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
        manager.tasks().afterPoll(positions);
    }

    private void close(Throwable failure) {
        Duration timeout = config.shutdownTimeout();
        if (manager != null) {
            try {
                manager.close(failure, timeout);
            } catch (RuntimeException e) {
                log.warn("{}: the final commit or closing the tasks failed", name, e);
            }
        }
        if (consumer != null) {
            try {
                consumer.close(CloseOptions.timeout(timeout)
                        .withGroupMembershipOperation(
                                leaveGroupOnClose
                                        ? CloseOptions.GroupMembershipOperation.LEAVE_GROUP
                                        : CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP));
            } catch (RuntimeException e) {
                log.warn("{}: closing the consumer failed", name, e);
            }
        }
        lag.removeAll();
        health.phase(ThreadHealth.Phase.STOPPED);
        log.info("{} stopped{}", name, failure == null ? "" : " after a failure: " + failure);
    }

    /** Rebalance callbacks; they run inside {@code poll} on this thread. */
    private final class Listener implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            awaitingAssignment = true;
            guard(() -> manager.revoked(partitions));
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            awaitingAssignment = true;
            guard(() -> manager.lost(partitions));
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            metrics.rebalances.increment();
            assignedOnce = true;
            awaitingAssignment = false;
            guard(() -> manager.assigned(partitions));
        }
    }

    /** Joins of the group, from the assignor inside poll: commit before, hold processing during. */
    private final class Membership implements ThreadMember.JoinListener {

        @Override
        public void joining() {
            rejoinsSeen.joining();
            if (manager != null) {
                guard(manager::rebalancing);
            }
        }

        @Override
        public void joined(java.util.SortedSet<TaskId> moving) {
            if (manager != null) {
                manager.rebalanced();
            }
            // Tasks withheld while their owners revoke them move in the next rebalance, which the
            // revoking members start; the others would join it at their next heartbeat (up to
            // heartbeat.interval.ms later), each round of a hand-over. Joining at once saves that
            // wait. Not twice in a row, so a hand-over that does not settle cannot make the
            // group rebalance back to back.
            if (moving.isEmpty() || followedUpLast) {
                followedUpLast = false;
            } else {
                followedUpLast = true;
                followUp = "tasks " + moving + " are moving; joining the rebalance that hands them over";
            }
        }
    }

    /** Runs a callback's work; what it throws is rethrown after the poll, on the loop. */
    private void guard(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            if (listenerFailure == null) {
                listenerFailure = e;
            }
        }
    }

    /** What the task manager tells the thread: partitions for the lag meters, and rejoins. */
    private final class ManagerEvents implements TaskManager.Observer {

        @Override
        public void partitionAdded(TopicPartition tp, TaskId task) {
            lag.add(tp, task);
        }

        @Override
        public void partitionRemoved(TopicPartition tp) {
            lag.remove(tp);
        }

        @Override
        public void rejoinNeeded(TaskMigratedException cause) {
            rejoinRequested = true;
            awaitingAssignment = true;
        }
    }
}
