package io.weir.testdriver.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.weir.config.WeirConfig;
import io.weir.errors.ConfigException;
import io.weir.errors.InstanceFailedException;
import io.weir.errors.InstanceStateException;
import io.weir.internal.config.Settings;
import io.weir.internal.state.LocalStores;
import io.weir.internal.thread.TaskManager;
import io.weir.internal.time.WatermarkMarker;
import io.weir.internal.topology.TaskCounts;
import io.weir.internal.topology.TopologyModel;
import io.weir.processor.TaskId;
import io.weir.sink.DeliveryGuarantee;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;

/**
 * The runtime behind {@code io.weir.testdriver.TestDriver}: one stream thread's tasks, run on the caller's
 * thread, fed from in-memory topics instead of a cluster. The loop and the tasks' lifecycle are
 * the stream thread's own {@link TaskManager} (tasks, restores, revocations, the
 * {@code Committer} and its five-step commit); Kafka's own {@link MockConsumer} and
 * {@link MockProducer} stand in for the clients (the producer, a {@link DriverProducer}, is
 * transactional: what it sends reaches the topics only when its transaction commits). What this
 * class adds is the part a broker and a poll play: it keeps the topics, fetches records at the
 * consumer's positions (which the tasks pause, resume and rewind), so that records written to
 * repartition topics reach the tasks reading them, and runs the loop until nothing is left to
 * do. Restores read the in-memory changelog topics ({@link DriverRestorer}).
 *
 * <p>Every task of the topology runs here, unless the caller revoked it: a sub-topology has as
 * many tasks as its largest input topic has partitions ({@link TaskCounts}). The delivery
 * guarantee is always exactly-once.
 *
 * <p>Threading: not thread-safe; use from one thread.
 */
public final class DriverRuntime implements AutoCloseable {

    private final WeirConfig config;
    private final TopologyModel model;
    private final DriverTopics topics;
    private final DriverConsumer consumer;
    private final DriverGlobalThread globalThread;
    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final int commitEvery;
    private final DriverStorage storage;
    private DriverThread thread;
    private long wallClockMs;
    private int pipesSinceCommit;
    private RuntimeException failure;
    private boolean closed;

    private DriverRuntime(DriverSetup setup) {
        this.config = setup.config();
        this.model = setup.model();
        this.topics = DriverTopics.create(model, config, setup.partitions(), this::wallClock);
        this.globalThread = new DriverGlobalThread(model, topics, config, registry);
        this.consumer = new DriverConsumer(topics);
        this.commitEvery = setup.commitEvery();
        this.wallClockMs = setup.startWallClockMs();
        this.storage = DriverStorage.create(config, setup.storesInMemory(), this::wallClock);
    }

    /**
     * Creates the topics and every task of the topology.
     *
     * @throws ConfigException if the guarantee is not exactly-once
     * @throws IllegalArgumentException if partitions were declared for an internal topic
     */
    public static DriverRuntime start(DriverSetup setup) {
        if (setup.config().guarantee() != DeliveryGuarantee.EXACTLY_ONCE) {
            throw new ConfigException(
                    Settings.PROCESSING_GUARANTEE.name(),
                    "the test driver runs exactly_once only" + " (its commit path is the one under test); was "
                            + setup.config().guarantee().configValue());
        }
        DriverRuntime runtime = new DriverRuntime(setup);
        try {
            runtime.thread = new DriverThread(
                    setup,
                    runtime.topics,
                    runtime.consumer,
                    runtime.storage,
                    runtime.registry,
                    runtime.globalThread.views(),
                    runtime::wallClock);
            runtime.run(false); // the thread's first loop: processors start at the start time
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
        return runtime;
    }

    // ---- input and time ----------------------------------------------------------------------

    /**
     * Appends a record to an input partition, processes it and everything it causes, and commits
     * if this pipe completes a commit interval.
     *
     * @throws IllegalArgumentException if the topic is not an input or the partition does not exist
     */
    public void pipe(String topic, int partition, byte[] key, byte[] value, long timestamp, Header[] headers) {
        ensureUsable();
        topics.requireInputPartition(topic, partition);
        if (timestamp < 0) {
            throw new IllegalArgumentException("timestamp " + timestamp + " is negative; Kafka's producer rejects it");
        }
        ConsumerRecord<byte[], byte[]> record = topics.append(topic, partition, key, value, timestamp, headers);
        if (globalThread.reads(topic)) {
            // As the global thread: applied before anything after it is processed; not a task's input.
            globalThread.apply(record);
            return;
        }
        pipesSinceCommit++;
        run(pipesSinceCommit >= commitEvery);
    }

    /** The read view of a global table's store. */
    public Object globalStore(String name) {
        return globalThread.views().get(name);
    }

    /** The partition of an input topic Kafka's default partitioner picks for {@code key}. */
    public int partitionFor(String topic, byte[] key) {
        ensureUsable();
        topics.requireInput(topic);
        return topics.partitionFor(topic, key);
    }

    /** Moves the wall clock forward, fires what became due (timers, idleness) and commits. */
    public void advanceWallClock(Duration by) {
        ensureUsable();
        if (by.isNegative()) {
            throw new IllegalArgumentException("the wall clock only moves forward; got " + by);
        }
        wallClockMs += by.toMillis();
        run(true);
    }

    /** Calls of asynchronous steps in flight. */
    public int inFlight() {
        ensureUsable();
        return thread.manager().tasks().asyncSignal().inFlight();
    }

    public long wallClock() {
        return wallClockMs;
    }

    /** Commits now, and processes what the commit made visible to downstream tasks. */
    public void commit() {
        ensureUsable();
        run(true);
    }

    // ---- revocations -------------------------------------------------------------------------

    /**
     * Revokes a task as a rebalance does: every task's work is committed first, then the task and
     * its stores close and its partitions leave the consumer; then what the commit made visible to
     * downstream tasks is processed (and committed).
     *
     * @throws IllegalArgumentException if the task is not running
     */
    public void revoke(TaskId task) {
        ensureUsable();
        requireRunning(task);
        try {
            consumer.revoke(task);
        } catch (RuntimeException e) {
            fail(e);
            throw e;
        }
        run(true);
    }

    /**
     * Assigns a revoked task again as a rebalance does: it is created anew, restores its logged
     * stores from their changelog topics, and resumes its partitions from their committed offsets;
     * then the loop runs (and commits) until nothing is left to do.
     *
     * @throws IllegalArgumentException if the task was not revoked
     */
    public void reassign(TaskId task) {
        ensureUsable();
        if (!consumer.revoked().contains(task)) {
            throw new IllegalArgumentException("task " + task + " was not revoked; revoked tasks: " + consumer.revoked()
                    + (thread.manager().tasks().task(task) != null
                            ? " (it is running)"
                            : "; the tasks are " + tasks()));
        }
        try {
            consumer.reassign(task);
        } catch (RuntimeException e) {
            fail(e);
            throw e;
        }
        run(true);
    }

    private void requireRunning(TaskId task) {
        if (thread.manager().tasks().task(task) == null) {
            throw new IllegalArgumentException("no task " + task + " is running"
                    + (consumer.revoked().contains(task)
                            ? " (it was revoked; reassign it first)"
                            : "; the tasks are " + tasks()));
        }
    }

    /**
     * The stream thread's loop until nothing is left to do ({@link DriverThread#run}); a failure
     * stops the driver.
     */
    private void run(boolean commit) {
        try {
            if (commit) {
                pipesSinceCommit = 0;
            }
            thread.run(commit);
        } catch (RuntimeException e) {
            fail(e);
            throw e;
        }
    }

    // ---- reading -----------------------------------------------------------------------------

    /** The records committed to {@code topic} since the last call for it (watermark markers aside). */
    public List<ConsumerRecord<byte[], byte[]>> read(String topic) {
        ensureOpen();
        topics.requireTopic(topic);
        return withoutMarkers(topics.readNew(topic));
    }

    /**
     * The records written to the late-records topic since the last call.
     *
     * @throws ConfigException naming {@code late.records.mode} if it is {@code drop}
     */
    public List<ConsumerRecord<byte[], byte[]>> readLateRecords() {
        if (!config.eventTime().lateRecordsToTopic()) {
            throw new ConfigException(
                    "late.records.mode",
                    "drop: late records are counted in weir.records.late"
                            + " (see meterRegistry()), not written; set late.records.mode=topic to read them here");
        }
        return read(config.eventTime().lateRecordsTopic());
    }

    /** Every record committed to {@code topic} (watermark markers aside). */
    public List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
        ensureOpen();
        topics.requireTopic(topic);
        return withoutMarkers(topics.readAll(topic));
    }

    /** Markers are how tasks talk through repartition topics, not records a test looks at. */
    private static List<ConsumerRecord<byte[], byte[]>> withoutMarkers(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().filter(r -> WatermarkMarker.from(r) == null).toList();
    }

    /** The running tasks, in order. */
    public Set<TaskId> tasks() {
        return new TreeSet<>(thread.manager().tasks().taskIds());
    }

    /** The task's event-time watermark; {@code Long.MIN_VALUE} before it has one. */
    public long watermark(TaskId id) {
        ensureOpen();
        requireRunning(id);
        return thread.manager().tasks().task(id).watermark();
    }

    /** The task reading a partition of a topic. */
    public TaskId taskOf(String topic, int partition) {
        topics.requireTopic(topic);
        TopicPartition tp = new TopicPartition(topic, partition);
        if (!consumer.reads(tp)) {
            throw new IllegalArgumentException(topic + "-" + partition + " is not read by any task"
                    + (partition < 0 || partition >= topics.partitions(topic)
                            ? " (the topic has " + topics.partitions(topic) + " partitions)"
                            : ""));
        }
        return thread.manager().tasks().taskIdFor(tp);
    }

    public LocalStores stores() {
        return storage.localStores();
    }

    public MeterRegistry registry() {
        return registry;
    }

    public WeirConfig config() {
        return config;
    }

    public TopologyModel model() {
        return model;
    }

    // ---- checks ------------------------------------------------------------------------------

    /**
     * Checks that {@code topic} is an input the caller may pipe to.
     *
     * @throws IllegalArgumentException naming the inputs if it is not
     */
    public void requireInput(String topic) {
        topics.requireInput(topic);
    }

    private void ensureOpen() {
        if (closed) {
            throw new InstanceStateException("the test driver is closed");
        }
    }

    private void ensureUsable() {
        ensureOpen();
        if (failure != null) {
            throw new InstanceFailedException(
                    "the test driver stopped after a failure, as an application would: " + failure, failure);
        }
    }

    /** A failure the real thread would stop on: abort the open work, and refuse to go on. */
    private void fail(RuntimeException e) {
        failure = e;
        try {
            thread.manager().tasks().abortAll("the test driver failed: " + e);
        } catch (RuntimeException suppressed) {
            e.addSuppressed(suppressed);
        }
    }

    // ---- close -------------------------------------------------------------------------------

    /**
     * Commits (unless a failure stopped the driver), closes the tasks and deletes the stores, as
     * a stream thread closes. Idempotent.
     *
     * @throws RuntimeException if the final commit failed; everything is closed all the same
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException commitFailure = null;
        if (thread != null) {
            try {
                thread.manager().close(failure, Duration.ZERO);
            } catch (RuntimeException e) {
                if (failure == null) {
                    commitFailure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        consumer.close();
        globalThread.close();
        storage.close(); // after the stores: the cache must outlive every store using it
        if (commitFailure != null) {
            throw commitFailure;
        }
    }
}
