package io.weir.testdriver;

import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.weir.Topology;
import io.weir.WeirApp;
import io.weir.config.WeirConfig;
import io.weir.errors.ConfigException;
import io.weir.internal.topology.StoreSpec;
import io.weir.processor.ErrorHandler;
import io.weir.processor.Headers;
import io.weir.processor.TaskId;
import io.weir.serde.Serde;
import io.weir.state.ReadOnlyKeyValueStore;
import io.weir.state.ReadOnlySessionStore;
import io.weir.state.ReadOnlyWindowStore;
import io.weir.testdriver.internal.DriverRuntime;
import io.weir.testdriver.internal.DriverSetup;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Runs a {@link Topology} without a broker, for unit tests: pipe records into input partitions,
 * move the wall clock, read what the topology committed to each topic, and look into its stores.
 *
 * <pre>{@code
 * try (TestDriver driver = TestDriver.builder(topology).partitions("lines", 4).build()) {
 *     driver.pipe("lines", "k", "a b a", 1_000);
 *     List<TestRecord<String, Long>> counts = driver.output("word-counts", Serdes.strings(), Serdes.longs());
 *     Long a = driver.<String, Long>store("word-counts").get("a");
 * }
 * }</pre>
 *
 * <p><b>What it runs.</b> The production runtime: the same tasks, operators, stores, timers,
 * watermarks, dead-lettering and exactly-once commit (the committer's five steps), with
 * Kafka's {@code MockConsumer} and transactional {@code MockProducer} in place of the clients and
 * in-memory topics in place of the brokers. Nothing is processed by a second implementation, so
 * a topology that passes here behaves the same against Kafka, up to what a cluster adds (see
 * below). Every task of the topology runs in the driver: a sub-topology has as many tasks as its
 * largest input topic has partitions ({@link Builder#partitions}, 1 by default), and repartition
 * and changelog topics have as many partitions as the sub-topology writing them has tasks.
 *
 * <p><b>Guarantees.</b> Each {@code pipe} appends the record to its partition and returns once it
 * and everything it caused are processed: records sent through repartition topics are routed to
 * the tasks reading them, partitioned as the producer partitions them (murmur2 of the serialized
 * key). Then it commits (every pipe by default; {@link Builder#commitEvery} models a longer commit
 * interval), so the outputs of a pipe are readable when it returns. Reads see committed records
 * only, as a {@code read_committed} consumer does: what an aborted transaction wrote never
 * appears, and a record that fails under exactly-once is dead-lettered on replay with no partial
 * output. Within a partition, records keep their order; a task processes its partitions in
 * timestamp order. Runs are deterministic: with the same start wall clock, the same calls give
 * the same outputs, offsets and partitions.
 *
 * <p><b>Asynchronous steps.</b> A pipe waits for the calls of asynchronous steps it caused
 * (whatever thread completes their futures) and applies them as they finish, so their results are
 * in the outputs when it returns; each attempt ends by its time-out at the latest. To test the
 * order calls finish in (per-key order, a slow call holding a watermark back, a time-out), build
 * the driver with {@link Builder#completeCallsByHand()}: pipes return with calls in flight, the
 * test completes the futures its function returned in the order it chooses, and the next
 * {@link #commit()} applies them in that order.
 *
 * <p><b>Time.</b> The wall clock is the driver's own and moves only by {@link #advanceWallClock}
 * (it starts at {@link Builder#startWallClock}, else at the system time when built). Wall-clock
 * punctuations fire at each pipe and each advance, once per call however far the clock jumped
 * (as on a thread that was busy that long; advance in steps to see every period). Entries of a
 * store with a TTL expire by this clock too: reads hide them as soon as it passes their expiry,
 * and commits delete them through the changelog. Event time follows the piped timestamps: the
 * watermark ({@link #watermark}) advances as records are processed, fires event-time punctuations
 * and closes windows; a partition without records holds it back until {@code idle.timeout.ms} of
 * driver wall clock has passed.
 *
 * <p><b>Revocations and restores.</b> {@link #revoke} takes a task away as a rebalance that moves
 * it to another instance does, and {@link #reassign} gives it back as the rebalance that brings it
 * here does, through the stream thread's own task lifecycle. A revocation commits the work of
 * every task first, so everything the task did before it is committed and readable; then the task
 * closes with its stores. Until it is reassigned, records piped to its partitions wait, and it is
 * missing from {@link #tasks()} and from store reads. Reassigned, the task is created anew and
 * restores its logged stores from their changelog topics before it processes anything: an
 * in-memory store ({@link Builder#inMemoryStores}) comes back empty and replays its whole
 * changelog; a RocksDB store reopens in the driver's directory at the changelog offset stored in
 * it and replays only the tail after that. Then it resumes its partitions from their committed
 * offsets (and its watermark from the one committed with them), processing what waited. The meter
 * {@code weir.restore.records} counts the records restored. What survives the round trip is what
 * the changelogs carry, as in production: stores without a changelog are not restored, and state
 * a processor keeps outside its stores is lost.
 *
 * <pre>{@code
 * TaskId counting = new TaskId(1, 0);         // counts the words routed to repartition partition 0
 * driver.revoke(counting);                    // commits, closes the task and its store
 * driver.pipe("lines", "k", "a b a", 2_000);  // its words wait in the repartition topic
 * driver.reassign(counting);                  // restores "word-counts" from its changelog, counts on
 * }</pre>
 *
 * <p>Compared with Kafka Streams' {@code TopologyTestDriver}, and what it does not model: see the package.
 *
 * <p>Threading: not thread-safe. Everything, processing included, runs on the thread that calls
 * the driver; use it from one thread (or synchronize).
 */
public final class TestDriver implements AutoCloseable {

    private final DriverRuntime runtime;
    private final InputPipe pipe;

    private TestDriver(DriverRuntime runtime) {
        this.runtime = runtime;
        this.pipe = new InputPipe(runtime);
    }

    /** Starts describing a driver for {@code topology}. */
    public static Builder builder(Topology topology) {
        return new Builder(Objects.requireNonNull(topology, "topology"));
    }

    // ---- input -------------------------------------------------------------------------------

    /**
     * Pipes a record into the partition Kafka's default partitioner picks for its key (murmur2
     * of the key serialized with the source's serde; records without a key go to the partitions
     * in turn), processes it fully and commits (see {@link Builder#commitEvery}).
     *
     * @param timestamp epoch milliseconds; the record's time unless the topic uses log-append time
     * @throws IllegalArgumentException if the topic is not an input of the topology, or the key or
     *     value is not of the type the source's serdes take
     */
    public <K, V> void pipe(String topic, K key, V value, long timestamp) {
        pipe.pipe(topic, key, value, timestamp);
    }

    /** Pipes a record into a given partition; as {@link #pipe(String, Object, Object, long)}. */
    public <K, V> void pipe(String topic, int partition, K key, V value, long timestamp) {
        pipe(topic, partition, key, value, timestamp, Headers.empty());
    }

    /**
     * Pipes a record with headers into a given partition.
     *
     * @throws IllegalArgumentException also if the partition does not exist
     */
    public <K, V> void pipe(String topic, int partition, K key, V value, long timestamp, Headers headers) {
        pipe.pipe(topic, partition, key, value, timestamp, headers);
    }

    /**
     * An input that serializes with the given serdes instead of the source's: for records of
     * another type than the source reads, such as malformed bytes with {@code Serdes.bytes()}.
     */
    public <K, V> TestInput<K, V> input(String topic, Serde<K> keySerde, Serde<V> valueSerde) {
        runtime.requireInput(topic);
        return new TestInput<>(
                runtime,
                topic,
                Objects.requireNonNull(keySerde, "keySerde"),
                Objects.requireNonNull(valueSerde, "valueSerde"));
    }

    // ---- time and commits --------------------------------------------------------------------

    /**
     * Moves the wall clock forward by {@code duration}, then fires the wall-clock punctuations
     * that became due, lets partitions idle for {@code idle.timeout.ms} release the watermark
     * (firing what it then passes), and commits.
     */
    public void advanceWallClock(Duration duration) {
        runtime.advanceWallClock(Objects.requireNonNull(duration, "duration"));
    }

    /** The driver's wall clock. */
    public Instant wallClock() {
        return Instant.ofEpochMilli(runtime.wallClock());
    }

    /**
     * Calls of asynchronous steps in flight (or waiting for their key's turn): 0 after every pipe
     * unless {@link Builder#completeCallsByHand()}.
     */
    public int inFlight() {
        return runtime.inFlight();
    }

    /** Commits now (useful with {@link Builder#commitEvery}), and what the commit made visible downstream. */
    public void commit() {
        runtime.commit();
    }

    // ---- output ------------------------------------------------------------------------------

    /**
     * The records committed to {@code topic} since the last read of it, as a consumer reads them:
     * in the order they were committed (per partition, offset order).
     *
     * @throws IllegalArgumentException if the driver has no such topic
     */
    public <K, V> List<TestRecord<K, V>> output(String topic, Serde<K> keySerde, Serde<V> valueSerde) {
        return TestRecord.typed(runtime.read(topic), keySerde, valueSerde);
    }

    /** Every record committed to {@code topic}, whether read before or not. */
    public <K, V> List<TestRecord<K, V>> allOutput(String topic, Serde<K> keySerde, Serde<V> valueSerde) {
        return TestRecord.typed(runtime.readAll(topic), keySerde, valueSerde);
    }

    /**
     * The records dead-lettered since the last call: the failed input, unchanged, with the
     * {@code weir.error.*} and {@code weir.source.*} headers saying what failed and where.
     */
    public List<TestRecord<byte[], byte[]>> deadLetters() {
        return TestRecord.raw(runtime.read(runtime.config().deadLetterTopic()));
    }

    /**
     * The records written to the late-records topic since the last call, with the
     * {@code weir.late.*} headers.
     *
     * @throws ConfigException naming {@code late.records.mode} if it is {@code drop}: late records are
     *     then only counted (meter {@code weir.records.late})
     */
    public List<TestRecord<byte[], byte[]>> lateRecords() {
        return TestRecord.raw(runtime.readLateRecords());
    }

    // ---- state and time inspection -----------------------------------------------------------

    /**
     * A key-value store across all tasks, as {@link WeirApp#store} reads it: committed state only.
     *
     * @throws IllegalArgumentException if the topology has no key-value store of that name
     */
    @SuppressWarnings("unchecked")
    public <K, V> ReadOnlyKeyValueStore<K, V> store(String name) {
        if (runtime.model().globalTables().containsKey(name)) {
            return (ReadOnlyKeyValueStore<K, V>) runtime.globalStore(name);
        }
        return runtime.stores().view(runtime.model().store(name, StoreSpec.Kind.KEY_VALUE));
    }

    /** A window store across all tasks, committed state only. */
    public <K, V> ReadOnlyWindowStore<K, V> windowStore(String name) {
        return runtime.stores().windowView(runtime.model().store(name, StoreSpec.Kind.WINDOW));
    }

    /** A session store across all tasks, committed state only. */
    public <K, V> ReadOnlySessionStore<K, V> sessionStore(String name) {
        return runtime.stores().sessionView(runtime.model().store(name, StoreSpec.Kind.SESSION));
    }

    /** The tasks the driver runs: sub-topology and partition; revoked tasks are not among them. */
    public Set<TaskId> tasks() {
        return runtime.tasks();
    }

    // ---- revocations and restores ------------------------------------------------------------

    /**
     * Revokes a task, as a rebalance that moves it to another instance does: commits the work of
     * every task (as a stream thread does before it gives partitions up), closes the task and its
     * stores, and takes its input partitions from the driver's consumer; then processes and
     * commits what the commit made visible downstream. Records piped to its partitions wait until
     * {@link #reassign}.
     *
     * @throws IllegalArgumentException if the task is not running (unknown, or revoked already)
     */
    public void revoke(TaskId task) {
        runtime.revoke(Objects.requireNonNull(task, "task"));
    }

    /**
     * Assigns a revoked task again, as a rebalance that brings it here does: the task is created
     * anew, restores its logged stores from their changelog topics (an in-memory store from the
     * beginning, a RocksDB store from the offset stored in it), resumes its partitions from their
     * committed offsets, and processes what waited; then commits.
     *
     * @throws IllegalArgumentException if the task was not revoked
     */
    public void reassign(TaskId task) {
        runtime.reassign(Objects.requireNonNull(task, "task"));
    }

    /** A task's event-time watermark; {@code Long.MIN_VALUE} until it has one. */
    public long watermark(TaskId task) {
        return runtime.watermark(task);
    }

    /** The watermark of the task that reads this partition of an input topic. */
    public long watermark(String topic, int partition) {
        return runtime.watermark(runtime.taskOf(topic, partition));
    }

    /** The runtime's meters ({@code weir.records.in}, {@code weir.records.late}, ...). */
    public MeterRegistry meterRegistry() {
        return runtime.registry();
    }

    /**
     * Commits the work in progress (unless a failure stopped the driver), closes the processors
     * and deletes the stores.
     */
    @Override
    public void close() {
        runtime.close();
    }

    /**
     * Options of a {@link TestDriver}. Settings are Weir's ({@link WeirConfig}); the environment
     * ({@code WEIR_*} variables) is ignored so that tests do not depend on it.
     */
    public static final class Builder {

        private final Topology topology;
        private final Map<String, Object> settings = new LinkedHashMap<>();
        private final Map<String, Integer> partitions = new LinkedHashMap<>();
        private Long startWallClockMs;
        private boolean inMemoryStores;
        private int commitEvery = 1;
        private boolean completeCallsByHand;
        private ErrorHandler errorHandler;
        private OpenTelemetry openTelemetry = OpenTelemetry.noop();

        private Builder(Topology topology) {
            this.topology = topology;
            settings.put("application.id", "test-app");
            settings.put("bootstrap.servers", "test-driver:9092"); // required by WeirConfig, never contacted
        }

        /**
         * Sets a Weir setting, such as {@code application.id} (default {@code test-app}),
         * {@code max.out.of.orderness.ms}, {@code idle.timeout.ms}, {@code late.records.mode},
         * {@code default.timestamp}, {@code error.mode}. {@code processing.guarantee} must stay
         * {@code exactly_once}.
         */
        public Builder config(String name, Object value) {
            settings.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * Takes every setting of {@code config} (its {@code bootstrap.servers} is never contacted),
         * and its error handler if one was registered.
         */
        public Builder config(WeirConfig config) {
            settings.putAll(config.values());
            config.registeredErrorHandler().ifPresent(this::errorHandler);
            return this;
        }

        /**
         * Registers the handler that decides what a failed record does, as
         * {@code WeirConfig.Builder.errorHandler} does for an application: the driver asks it at the
         * same points, once per failure, and carries out its decision the same way.
         */
        public Builder errorHandler(ErrorHandler handler) {
            this.errorHandler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /**
         * Declares a topic with {@code count} partitions: an input (the sub-topology reading it gets
         * as many tasks as its largest input has partitions), an output, or a topic that a pattern
         * source or a topic extractor uses. Undeclared inputs and outputs have one partition;
         * repartition and changelog topics follow their sub-topology (or the count a {@code
         * Repartitioned} fixes) and cannot be declared.
         */
        public Builder partitions(String topic, int count) {
            if (count < 1) {
                throw new IllegalArgumentException("topic '" + topic + "' needs at least 1 partition, not " + count);
            }
            partitions.put(Objects.requireNonNull(topic, "topic"), count);
            return this;
        }

        /** The wall clock when the driver starts; by default the system time at {@link #build()}. */
        public Builder startWallClock(Instant start) {
            this.startWallClockMs = start.toEpochMilli();
            return this;
        }

        /** As {@link #startWallClock(Instant)}, in epoch milliseconds. */
        public Builder startWallClock(long epochMs) {
            this.startWallClockMs = epochMs;
            return this;
        }

        /**
         * Keeps every store in memory. By default stores are what the topology declares (RocksDB
         * unless {@code inMemory()}), in a temporary directory deleted on {@link TestDriver#close()}.
         */
        public Builder inMemoryStores() {
            this.inMemoryStores = true;
            return this;
        }

        /**
         * Commits after every {@code pipes} pipes instead of after each one, as a longer commit
         * interval would: outputs, table updates and records for downstream tasks appear at the
         * commit, and a failure replays everything since the last one. {@link TestDriver#commit()}
         * and {@link TestDriver#advanceWallClock} commit too.
         */
        public Builder commitEvery(int pipes) {
            if (pipes < 1) {
                throw new IllegalArgumentException("commitEvery needs at least 1 pipe, not " + pipes);
            }
            this.commitEvery = pipes;
            return this;
        }

        /**
         * Creates the topics and tasks.
         *
         * @throws ConfigException if a setting is invalid, or the guarantee is not exactly-once
         * @throws IllegalArgumentException if partitions were declared for an internal topic
         * @throws io.weir.errors.TopologyException if the inputs of a sub-topology with state stores are
         *     not co-partitioned, as an application refuses to start on a cluster
         */
        /**
         * Asynchronous steps ({@code mapValuesAsync} and the others) complete when the test says:
         * a pipe no longer waits for the calls it caused. The test completes the futures its
         * functions returned, in the order it wants to test, then calls {@link #commit()} (or
         * pipes again): the finished calls are applied in the order they finished, with the same
         * per-key order, retries, time-outs and watermark hold as in production. {@link
         * #inFlight()} says how many calls are still out.
         */
        public Builder completeCallsByHand() {
            this.completeCallsByHand = true;
            return this;
        }

        /**
         * Traces as an application does with {@code WeirApp.openTelemetry}: spans for the records
         * piped in, and the trace context written into outputs, repartition records and dead
         * letters. Without it the driver does not trace (it never takes {@code GlobalOpenTelemetry},
         * so tests do not depend on it).
         */
        public Builder openTelemetry(OpenTelemetry openTelemetry) {
            this.openTelemetry = Objects.requireNonNull(openTelemetry, "openTelemetry");
            return this;
        }

        public TestDriver build() {
            long start = startWallClockMs != null ? startWallClockMs : System.currentTimeMillis();
            WeirConfig.Builder config = WeirConfig.builder();
            settings.forEach(config::set);
            if (errorHandler != null) {
                config.errorHandler(errorHandler);
            }
            return new TestDriver(DriverRuntime.start(DriverSetup.of(
                    topology,
                    config,
                    partitions,
                    start,
                    inMemoryStores,
                    commitEvery,
                    !completeCallsByHand,
                    openTelemetry)));
        }
    }
}
