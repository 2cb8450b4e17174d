package io.weir.testdriver.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.weir.config.WeirConfig;
import io.weir.errors.ConfigException;
import io.weir.errors.InstanceFailedException;
import io.weir.errors.InstanceStateException;
import io.weir.internal.cluster.ClientConfigs;
import io.weir.internal.config.Settings;
import io.weir.internal.state.LocalStores;
import io.weir.internal.state.global.GlobalTables;
import io.weir.internal.task.DeadLetters;
import io.weir.internal.task.Stage;
import io.weir.internal.task.TopicLimits;
import io.weir.internal.thread.ActivationListener;
import io.weir.internal.thread.TaskManager;
import io.weir.internal.thread.ThreadContext;
import io.weir.internal.thread.ThreadHealth;
import io.weir.internal.thread.ThreadMetrics;
import io.weir.internal.thread.ThreadTasks;
import io.weir.internal.time.WatermarkMarker;
import io.weir.internal.topology.TaskCounts;
import io.weir.internal.topology.TopologyModel;
import io.weir.processor.TaskId;
import io.weir.sink.DeliveryGuarantee;
import io.weir.state.rocksdb.RocksDbResources;
import io.weir.state.rocksdb.RocksDbStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
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

    /** Process–commit rounds one call may take before it is taken for a cycle that never settles. */
    private static final int MAX_ROUNDS = 10_000;

    private static final String INSTANCE = "test-driver";

    /**
     * What to run and how.
     *
     * @param model            the topology resolved for {@code config}'s application id
     * @param partitions       partitions of topics the caller declared; other inputs and outputs have 1
     * @param startWallClockMs the wall clock at start, epoch milliseconds
     * @param storesInMemory   every store in memory; else RocksDB in a temporary directory
     * @param commitEvery      pipes between two commits
     */
    public record Setup(
            WeirConfig config,
            TopologyModel model,
            Map<String, Integer> partitions,
            long startWallClockMs,
            boolean storesInMemory,
            int commitEvery) {}

    private final WeirConfig config;
    private final TopologyModel model;
    private final DriverTopics topics;
    private final DriverConsumer consumer;
    private final LocalStores localStores = new LocalStores(this::wallClock);
    private final GlobalTables globalTables;
    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final int commitEvery;
    private final Path stateDir;
    private final RocksDbResources rocksDb;
    private TaskManager manager;
    private long wallClockMs;
    private int pipesSinceCommit;
    private RuntimeException failure;
    private boolean closed;

    private DriverRuntime(Setup setup, Path stateDir, RocksDbResources rocksDb) {
        this.config = setup.config();
        this.model = setup.model();
        this.topics = DriverTopics.create(model, config, setup.partitions(), this::wallClock);
        this.globalTables = GlobalTables.inMemory(model.globalTables().values());
        this.consumer = new DriverConsumer(topics);
        this.commitEvery = setup.commitEvery();
        this.wallClockMs = setup.startWallClockMs();
        this.stateDir = stateDir;
        this.rocksDb = rocksDb;
    }

    /**
     * Creates the topics and every task of the topology.
     *
     * @throws ConfigException if the guarantee is not exactly-once
     * @throws IllegalArgumentException if partitions were declared for an internal topic
     */
    public static DriverRuntime start(Setup setup) {
        if (setup.config().guarantee() != DeliveryGuarantee.EXACTLY_ONCE) {
            throw new ConfigException(
                    Settings.PROCESSING_GUARANTEE.name(),
                    "the test driver runs exactly_once only" + " (its commit path is the one under test); was "
                            + setup.config().guarantee().configValue());
        }
        Path dir = null;
        RocksDbResources rocksDb = null;
        DriverRuntime runtime;
        try {
            if (!setup.storesInMemory()) {
                dir = Files.createTempDirectory("weir-test-driver-");
                rocksDb = RocksDbResources.create(
                        RocksDbResources.Config.ofTotalBytes(setup.config().rocksDbMemoryBytes()));
            }
            runtime = new DriverRuntime(setup, dir, rocksDb);
        } catch (IOException | RuntimeException e) {
            if (rocksDb != null) {
                rocksDb.close();
            }
            if (dir != null) {
                RocksDbStore.deleteRecursively(dir);
            }
            if (e instanceof IOException) {
                throw new IllegalStateException("cannot create a temporary state directory: " + e, e);
            }
            throw (RuntimeException) e;
        }
        try {
            runtime.assignAll(setup.storesInMemory());
            runtime.run(false); // the thread's first loop: processors start at the start time
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
        return runtime;
    }

    /** Assigns every partition a source reads; their tasks are created in task order. */
    private void assignAll(boolean storesInMemory) {
        ClientConfigs clients = new ClientConfigs(config, INSTANCE);
        ThreadContext ctx = new ThreadContext(
                config,
                model,
                INSTANCE,
                clients,
                new TopicLimits(topics::maxMessageBytes, topics::partitions, clients.maxRequestSize()),
                registry,
                stateDir != null ? stateDir : Path.of("in-memory"),
                rocksDb,
                localStores,
                null,
                null,
                null,
                this::wallClock,
                globalTables.views(),
                new io.weir.internal.task.Backlog(),
                new io.weir.internal.query.Ownership(),
                io.weir.internal.thread.GroupRejoins.none());
        String name = clients.threadName(0);
        ThreadMetrics metrics = new ThreadMetrics(registry, ctx.tags(), name, new ThreadHealth(name));
        localStores.bindEntries(registry, ctx.tags(), model.stores().keySet());
        // Commits come when the driver asks (each pipe, or every commitEvery pipes), not by time.
        manager = new TaskManager(
                ctx,
                name,
                metrics,
                new ThreadTasks.Options(Long.MAX_VALUE, storesInMemory),
                new TaskManager.Plugins(
                        consumer.consumer(),
                        () -> new DriverProducer(topics, consumer.consumer(), this::wallClock),
                        new DriverRestorer(topics, metrics),
                        ActivationListener.NONE,
                        e -> {
                            throw new IllegalStateException(
                                    "the test driver's producer was fenced, which it never" + " is: " + e, e);
                        }));
        List<TopicPartition> all = new ArrayList<>();
        for (String topic : topics.names()) {
            for (int p = 0; p < topics.partitions(topic); p++) {
                TopicPartition tp = new TopicPartition(topic, p);
                if (manager.tasks().taskIdFor(tp) != null) {
                    all.add(tp);
                }
            }
        }
        all.sort(Comparator.comparing((TopicPartition tp) -> manager.tasks().taskIdFor(tp))
                .thenComparing(TopicPartition::topic));
        consumer.assignAll(all, manager);
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
        if (globalTables.topics().contains(topic)) {
            // As the global thread: applied before anything after it is processed; not a task's input.
            globalTables.apply(record).ifPresent(error -> {
                ProducerRecord<byte[], byte[]> dead = DeadLetters.deadLetter(
                        record,
                        config.deadLetterTopic(),
                        new TopicLimits(topics::maxMessageBytes, topics::partitions, Integer.MAX_VALUE),
                        Stage.DESERIALIZE,
                        error);
                topics.append(
                        dead.topic(),
                        0,
                        dead.key(),
                        dead.value(),
                        dead.timestamp(),
                        dead.headers().toArray());
            });
            return;
        }
        pipesSinceCommit++;
        run(pipesSinceCommit >= commitEvery);
    }

    /** The read view of a global table's store. */
    public Object globalStore(String name) {
        return globalTables.views().get(name);
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
                    + (manager.tasks().task(task) != null ? " (it is running)" : "; the tasks are " + tasks()));
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
        if (manager.tasks().task(task) == null) {
            throw new IllegalArgumentException("no task " + task + " is running"
                    + (consumer.revoked().contains(task)
                            ? " (it was revoked; reassign it first)"
                            : "; the tasks are " + tasks()));
        }
    }

    /**
     * What a stream thread's loop does, until nothing is left to do: fetch (the poll), then the
     * manager's step: finish restores, process, punctuate, and (if {@code commit}) commit. Records
     * a commit appended to repartition topics are fetched by their tasks in the next round.
     */
    private void run(boolean commit) {
        try {
            for (int round = 0; ; round++) {
                if (round == MAX_ROUNDS) {
                    throw new IllegalStateException("processing did not settle after " + MAX_ROUNDS + " rounds: the"
                            + " topology keeps consuming records it produces");
                }
                consumer.fetch();
                if (commit) {
                    manager.requestCommit();
                    pipesSinceCommit = 0;
                }
                manager.step(() -> true);
                if (!manager.tasks().hasBuffered() && !consumer.fetchable()) {
                    return;
                }
            }
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
        return new TreeSet<>(manager.tasks().taskIds());
    }

    /** The task's event-time watermark; {@code Long.MIN_VALUE} before it has one. */
    public long watermark(TaskId id) {
        ensureOpen();
        requireRunning(id);
        return manager.tasks().task(id).watermark();
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
        return manager.tasks().taskIdFor(tp);
    }

    public LocalStores stores() {
        return localStores;
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
            manager.tasks().abortAll("the test driver failed: " + e);
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
        if (manager != null) {
            try {
                manager.close(failure, Duration.ZERO);
            } catch (RuntimeException e) {
                if (failure == null) {
                    commitFailure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        consumer.close();
        globalTables.close();
        if (rocksDb != null) {
            rocksDb.close(); // after the stores: the cache must outlive every store using it
        }
        if (stateDir != null) {
            RocksDbStore.deleteRecursively(stateDir);
        }
        if (commitFailure != null) {
            throw commitFailure;
        }
    }
}
