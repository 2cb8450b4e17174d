package io.weir.internal.runtime;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.weir.ConfigException;
import io.weir.WeirConfig;
import io.weir.internal.config.Settings;
import io.weir.internal.state.LocalStores;
import io.weir.internal.topology.TopologyModel;
import io.weir.processor.TaskId;
import io.weir.sink.DeliveryGuarantee;
import io.weir.sink.internal.TaskMigratedException;
import io.weir.state.rocksdb.RocksDbResources;
import io.weir.state.rocksdb.RocksDbStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The runtime behind {@code io.weir.TestDriver}: one stream thread's tasks, run on the caller's
 * thread, fed from in-memory topics instead of a cluster. The tasks, their {@link TaskGroup}, the
 * {@code TransactionalSink} and its five-step commit are the production classes; Kafka's own
 * {@link MockConsumer} and {@link MockProducer} stand in for the clients (the producer is
 * transactional: what it sends reaches the topics only when its transaction commits). What this
 * class adds is the part a broker and a poll loop play: it keeps the topics, fetches records at
 * the consumer's positions (which the tasks pause, resume and rewind), publishes committed
 * transactions, and routes records written to repartition topics to the tasks reading them.
 *
 * <p>Every task of the topology runs here: a sub-topology has as many tasks as its largest input
 * topic has partitions ({@link TaskCounts}). The delivery guarantee is always exactly-once.
 *
 * <p>Threading: not thread-safe; use from one thread.
 */
public final class DriverRuntime implements AutoCloseable {

    /** Records fetched from one partition at a time, as {@code max.poll.records} bounds a poll. */
    private static final int FETCH_MAX = 1000;
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
    public record Setup(WeirConfig config, TopologyModel model, Map<String, Integer> partitions,
                        long startWallClockMs, boolean storesInMemory, int commitEvery) {
    }

    private final WeirConfig config;
    private final TopologyModel model;
    private final DriverTopics topics;
    private final Map<TopicPartition, Task> taskByPartition = new LinkedHashMap<>();
    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
    private final LocalStores localStores = new LocalStores(this::wallClock);
    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final int commitEvery;
    private final Path stateDir;
    private final RocksDbResources rocksDb;
    private TaskGroup group;
    /** The sink's producer (a new one if the sink replaced it). */
    private MockProducer<byte[], byte[]> producer;
    /** Entries of the producer's history already appended to the topics. */
    private int published;
    private long wallClockMs;
    private int pipesSinceCommit;
    private RuntimeException failure;
    private boolean closed;

    private DriverRuntime(Setup setup, Path stateDir, RocksDbResources rocksDb) {
        this.config = setup.config();
        this.model = setup.model();
        this.topics = DriverTopics.create(model, config, setup.partitions(), this::wallClock);
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
            throw new ConfigException(Settings.PROCESSING_GUARANTEE.name(), "the test driver runs exactly_once only"
                    + " (its commit path is the one under test); was " + setup.config().guarantee().configValue());
        }
        Path dir = null;
        RocksDbResources rocksDb = null;
        DriverRuntime runtime;
        try {
            if (!setup.storesInMemory()) {
                dir = Files.createTempDirectory("weir-test-driver-");
                rocksDb = RocksDbResources.create(RocksDbResources.Config.ofTotalBytes(
                        setup.config().rocksDbMemoryBytes()));
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
            runtime.createTasks(setup.storesInMemory());
            runtime.run(false); // the thread's first loop: processors start at the start time
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
        return runtime;
    }

    /** Assigns every partition a source reads, and creates their tasks in task order. */
    private void createTasks(boolean storesInMemory) {
        ClientConfigs clients = new ClientConfigs(config, model, INSTANCE);
        ThreadContext ctx = new ThreadContext(config, model, INSTANCE, clients,
                new TopicLimits(topics::maxMessageBytes, topics::partitions, clients.maxRequestSize()), registry,
                stateDir != null ? stateDir : Path.of("in-memory"), rocksDb, localStores, null, this::wallClock);
        String name = clients.threadName(0);
        ThreadMetrics metrics = new ThreadMetrics(registry, ctx.tags(), name, new ThreadHealth(name));
        // Commits come when the driver asks (each pipe, or every commitEvery pipes), not by time.
        group = new TaskGroup(ctx, name, consumer, this::newProducer, metrics, this::onMigrated,
                new TaskGroup.Options(Long.MAX_VALUE, storesInMemory));
        List<TopicPartition> assigned = new ArrayList<>();
        for (String topic : topics.names()) {
            for (int p = 0; p < topics.partitions(topic); p++) {
                TopicPartition tp = new TopicPartition(topic, p);
                if (group.taskIdFor(tp) != null) {
                    assigned.add(tp);
                }
            }
        }
        assigned.sort(Comparator.comparing((TopicPartition tp) -> group.taskIdFor(tp))
                .thenComparing(TopicPartition::topic));
        consumer.assign(assigned);
        for (TopicPartition tp : assigned) {
            consumer.seek(tp, 0);
            TaskId id = group.taskIdFor(tp);
            Task task = group.task(id);
            if (task == null) {
                task = group.create(id);
            }
            task.addPartition(tp);
            taskByPartition.put(tp, task);
        }
    }

    private Producer<byte[], byte[]> newProducer() {
        producer = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        published = 0;
        return producer;
    }

    private void onMigrated(TaskMigratedException e) {
        throw new IllegalStateException("the test driver's producer was fenced, which it never is: " + e, e);
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
        topics.append(topic, partition, key, value, timestamp, headers);
        pipesSinceCommit++;
        run(pipesSinceCommit >= commitEvery);
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

    /**
     * What a stream thread's loop does, until nothing is left to do: fetch, process, punctuate,
     * and (if {@code commit}) commit; records a commit published to repartition topics are
     * fetched by their tasks in the next round.
     */
    private void run(boolean commit) {
        try {
            for (int round = 0; ; round++) {
                if (round == MAX_ROUNDS) {
                    throw new IllegalStateException("processing did not settle after " + MAX_ROUNDS + " rounds: the"
                            + " topology keeps consuming records it produces");
                }
                fetch();
                group.processBuffered(() -> true);
                group.punctuate(wallClockMs);
                if (commit) {
                    group.commitAll();
                    pipesSinceCommit = 0;
                }
                publishCommitted();
                group.maybeFlushStores();
                if (!group.hasBuffered() && !fetchable()) {
                    return;
                }
            }
        } catch (RuntimeException e) {
            fail(e);
            throw e;
        }
    }

    /** Hands each task the records at its consumer positions, except on paused partitions. */
    private void fetch() {
        Set<TopicPartition> paused = consumer.paused();
        for (Map.Entry<TopicPartition, Task> e : taskByPartition.entrySet()) {
            TopicPartition tp = e.getKey();
            if (paused.contains(tp)) {
                continue;
            }
            long position = consumer.position(tp);
            List<ConsumerRecord<byte[], byte[]>> records = topics.fetch(tp, position, FETCH_MAX);
            if (!records.isEmpty()) {
                consumer.seek(tp, position + records.size());
                e.getValue().addRecords(tp, records);
            }
        }
    }

    private boolean fetchable() {
        Set<TopicPartition> paused = consumer.paused();
        for (TopicPartition tp : taskByPartition.keySet()) {
            if (!paused.contains(tp) && consumer.position(tp) < topics.endOffset(tp)) {
                return true;
            }
        }
        return false;
    }

    /** Appends what committed transactions wrote to the topics, as a read_committed reader sees it. */
    private void publishCommitted() {
        List<ProducerRecord<byte[], byte[]>> history = producer.history();
        for (int i = published; i < history.size(); i++) {
            ProducerRecord<byte[], byte[]> r = history.get(i);
            if (!topics.exists(r.topic())) {
                throw new IllegalStateException("a record was committed to topic '" + r.topic()
                        + "', which the test driver does not have");
            }
            topics.append(r.topic(), r.partition(), r.key(), r.value(),
                    r.timestamp() != null ? r.timestamp() : wallClockMs, r.headers().toArray());
        }
        published = history.size();
        if (!producer.transactionInFlight()) {
            producer.clear(); // nothing uncommitted to lose; keeps the history from growing
            published = 0;
        }
    }

    // ---- reading -----------------------------------------------------------------------------

    /** The records committed to {@code topic} since the last call for it. */
    public List<ConsumerRecord<byte[], byte[]>> read(String topic) {
        ensureOpen();
        topics.requireTopic(topic);
        return topics.readNew(topic);
    }

    /** Every record committed to {@code topic}. */
    public List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
        ensureOpen();
        topics.requireTopic(topic);
        return topics.readAll(topic);
    }

    /** The tasks, in order. */
    public Set<TaskId> tasks() {
        Set<TaskId> ids = new TreeSet<>();
        group.tasks().forEach(t -> ids.add(t.id()));
        return ids;
    }

    /** The task's event-time watermark; {@code Long.MIN_VALUE} before it has one. */
    public long watermark(TaskId id) {
        ensureOpen();
        Task task = group.task(id);
        if (task == null) {
            throw new IllegalArgumentException("no task " + id + "; the tasks are " + tasks());
        }
        return task.watermark();
    }

    /** The task reading a partition of a topic. */
    public TaskId taskOf(String topic, int partition) {
        topics.requireTopic(topic);
        Task task = taskByPartition.get(new TopicPartition(topic, partition));
        if (task == null) {
            throw new IllegalArgumentException(topic + "-" + partition + " is not read by any task"
                    + (partition < 0 || partition >= topics.partitions(topic) ? " (the topic has "
                    + topics.partitions(topic) + " partitions)" : ""));
        }
        return task.id();
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
            throw new IllegalStateException("the test driver is closed");
        }
    }

    private void ensureUsable() {
        ensureOpen();
        if (failure != null) {
            throw new IllegalStateException("the test driver stopped after a failure, as an application would: "
                    + failure, failure);
        }
    }

    /** A failure the real thread would stop on: abort the open work, and refuse to go on. */
    private void fail(RuntimeException e) {
        failure = e;
        try {
            group.abortAll("the test driver failed: " + e);
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
        if (group != null) {
            if (failure == null) {
                try {
                    group.commitAll();
                } catch (RuntimeException e) {
                    commitFailure = e;
                }
            }
            for (Task task : new ArrayList<>(group.tasks())) {
                group.close(task);
            }
            group.closeSink(Duration.ZERO);
        }
        consumer.close();
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
