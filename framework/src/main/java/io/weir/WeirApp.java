package io.weir;

import io.micrometer.core.instrument.MeterRegistry;
import io.weir.config.WeirConfig;
import io.weir.errors.ConfigException;
import io.weir.internal.bounded.BoundedRun;
import io.weir.internal.bounded.BoundedRunPlan;
import io.weir.internal.cluster.ChangelogEnds;
import io.weir.internal.cluster.ClientConfigs;
import io.weir.internal.cluster.InstanceMembers;
import io.weir.internal.cluster.RepartitionPurge;
import io.weir.internal.cluster.TopicSetup;
import io.weir.internal.http.OpsHttpServer;
import io.weir.internal.restore.InstanceTaskRegistry;
import io.weir.internal.restore.StateThread;
import io.weir.internal.savepoint.SavepointControl;
import io.weir.internal.state.InstanceDirectory;
import io.weir.internal.state.LocalStores;
import io.weir.internal.supervision.InstanceMeters;
import io.weir.internal.supervision.InstanceMonitor;
import io.weir.internal.supervision.LivenessWatch;
import io.weir.internal.thread.RunEnd;
import io.weir.internal.thread.StreamThread;
import io.weir.internal.thread.ThreadContext;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.TopologyDescription;
import io.weir.internal.topology.TopologyRecord;
import io.weir.state.ReadOnlyKeyValueStore;
import io.weir.state.rocksdb.RocksDbResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Weir application instance: the composition root that wires a {@link Topology} and a
 * {@link WeirConfig} to Kafka clients, stream threads, metrics and the instance's HTTP endpoints.
 *
 * <p>{@link #start()} checks the cluster first (input and output topics exist; the dead-letter
 * topic is created if missing) and fails with a clear message instead of starting half-way.
 * Every copy of the application started with the same {@code application.id} joins the same
 * consumer group and takes a share of the tasks.
 *
 * <p>{@link #state()} follows what readiness means: {@link State#RUNNING} only once the instance
 * holds an assignment and every task restored its stores; a {@link StateListener} hears every
 * change. Unless {@code http.port} is {@code -1}, the instance serves {@code /health/live},
 * {@code /health/ready}, {@code /metrics} (Prometheus), {@code /topology}, {@code /info} and
 * {@code POST /admin/leave}.
 *
 * <p>Stopping: {@link #runUntilShutdown()} stops on SIGTERM and keeps the static group
 * membership (a restart with the same {@code instance.id} moves no task) unless
 * {@code shutdown.leave.group=true}; {@link #close()} and {@code POST /admin/leave} leave the
 * group so the tasks move at once (scale-in). If a stream thread fails, the instance stops and
 * {@link #state()} becomes {@link State#FAILED}.
 *
 * <p>Thread-safe: any thread may call any method.
 */
public final class WeirApp implements AutoCloseable {

    /**
     * The life cycle of an instance. {@code STARTING}, {@code REBALANCING}, {@code RESTORING} and
     * {@code RUNNING} follow the stream threads: the instance is as far as its least advanced
     * thread; {@code STOPPING} and {@code STOPPED} follow a shutdown, {@code FAILED} a fatal error.
     */
    public enum State {
        /** Created, not started. */
        CREATED,
        /** Started; a stream thread waits for its first assignment from the consumer group. */
        STARTING,
        /** A stream thread gave up partitions and waits for its new assignment. */
        REBALANCING,
        /** Every thread holds an assignment; some tasks restore their stores. */
        RESTORING,
        /** Every thread holds an assignment and every task processes: ready. */
        RUNNING,
        /** Shutting down: committing and closing. */
        STOPPING,
        /** Stopped after a shutdown. */
        STOPPED,
        /** Stopped after a fatal error; {@link #failure()} says which. */
        FAILED;

        /**
         * True from {@code STARTING} to {@code RUNNING}: started, and neither stopping nor failed.
         * A loop that should last as long as the instance works tests this, not {@code RUNNING},
         * which a rebalance or a restore interrupts.
         */
        public boolean isActive() {
            return ordinal() >= STARTING.ordinal() && ordinal() <= RUNNING.ordinal();
        }
    }

    /**
     * Hears every state change. Called on the thread that made the change (the instance's monitor
     * thread, or the one closing it), one change at a time; keep it short and do not block.
     */
    @FunctionalInterface
    public interface StateListener {
        void onChange(State oldState, State newState);
    }

    private static final Logger log = LoggerFactory.getLogger(WeirApp.class);

    private final io.weir.internal.topology.TopologyModel model;
    private final WeirConfig config;
    private final InstanceMeters meters;
    private final AtomicReference<State> state = new AtomicReference<>(State.CREATED);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final List<StateListener> listeners = new CopyOnWriteArrayList<>();
    private final List<StreamThread> streamThreads = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final AtomicBoolean closing = new AtomicBoolean();
    private InstanceDirectory instanceDir;
    private Admin admin;
    private volatile StateThread stateThread;
    private volatile LivenessWatch liveness;
    private volatile SavepointControl savepoints;
    private RocksDbResources rocksDb;
    private volatile InstanceMonitor monitor;
    /** The run, with {@code run.mode=bounded}; else null. */
    private volatile BoundedRun bounded;
    private OpsHttpServer http;
    private final Endpoints endpoints = new Endpoints(this);
    private final LocalStores localStores = new LocalStores(System::currentTimeMillis);

    private WeirApp(Topology topology, WeirConfig config, MeterRegistry registry) {
        this.config = Objects.requireNonNull(config, "config");
        this.model = Objects.requireNonNull(topology, "topology").model().resolve(config.applicationId());
        this.meters = new InstanceMeters(registry);
    }

    /** With a Prometheus registry of its own, served on {@code /metrics}. */
    public static WeirApp create(Topology topology, WeirConfig config) {
        return new WeirApp(topology, config, null);
    }

    /**
     * With the caller's registry as well: Weir's meters go to it and to the Prometheus registry
     * behind {@code /metrics}.
     */
    public static WeirApp create(Topology topology, WeirConfig config, MeterRegistry registry) {
        return new WeirApp(topology, config, Objects.requireNonNull(registry, "registry"));
    }

    /** Adds a listener of state changes (see {@link StateListener} for the thread that calls it). */
    public WeirApp addStateListener(StateListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
        return this;
    }

    /**
     * Checks the cluster and starts the HTTP endpoints and the stream threads; returns once they
     * run (the state is then {@link State#STARTING} until the group assigns tasks).
     *
     * @throws ConfigException if a setting is wrong (for example the state directory or the HTTP
     *     port is taken)
     * @throws IllegalStateException if the cluster cannot be reached or a topic is missing
     */
    public synchronized WeirApp start() {
        if (!transition(State.CREATED, State.STARTING)) {
            throw new IllegalStateException("an application can be started once; it is " + state.get());
        }
        try {
            instanceDir = InstanceDirectory.open(config.stateDir(), config.applicationId(), config.instanceId());
            ClientConfigs clients = new ClientConfigs(config, instanceDir.instanceId());
            if (config.httpPort() >= 0) {
                http = OpsHttpServer.start(config.httpBindAddress(), config.httpPort(), endpoints);
            }
            admin = Admin.create(clients.admin());
            var topologyRecord = TopologyRecord.check(admin, config, clients.plainConsumer("topology"),
                    clients.plainProducer("topology"),
                    TopologyDescription.of(model, config.applicationId(), io.weir.internal.config.WeirVersion.current()));
            io.weir.internal.state.ChangelogTopicIds changelogIds = new TopicSetup(admin, config, model).verifyAndCreate();
            topologyRecord.write();
            if (config.bounded()) {
                bounded = BoundedRunPlan.prepare(admin, config, model, instanceDir.instanceId());
            }
            rocksDb = RocksDbResources.create(RocksDbResources.Config.ofTotalBytes(config.rocksDbMemoryBytes()));
            stateThread = new StateThread(config, model, clients, instanceDir.dir(), rocksDb, meters.registry(),
                    io.micrometer.core.instrument.Tags.of("application", config.applicationId(), "instance",
                            instanceDir.instanceId()));
            InstanceTaskRegistry taskRegistry = new InstanceTaskRegistry(instanceDir.dir(), stateThread,
                    new ChangelogEnds(admin)::endOffsets, changelogIds);
            savepoints = new SavepointControl(config, clients, model, instanceDir.instanceId(), admin,
                    this::stopAfterSavepoint);
            ThreadContext ctx = ThreadContext.create(config, model, instanceDir.instanceId(), clients, admin,
                    new ThreadContext.Shared(meters.registry(), instanceDir.dir(), rocksDb, localStores, taskRegistry,
                            savepoints, new RepartitionPurge(admin, model, config.repartitionPurgeInterval())));
            for (int i = 0; i < config.numStreamThreads(); i++) {
                StreamThread st = new StreamThread(ctx, i,
                        bounded == null ? consumer -> RunEnd.STREAMING : bounded::endFor, this::onThreadFailed);
                Thread t = new Thread(st, st.name());
                t.setUncaughtExceptionHandler((th, e) -> onThreadFailed(e));
                streamThreads.add(st);
                threads.add(t);
            }
            InstanceMonitor m = new InstanceMonitor(ctx, streamThreads, threads, admin, this::followThreads);
            monitor = m;
            meters.bind(ctx.tags(), rocksDb, State.class, state::get, () -> endpoints.readiness().ok(), m::stalled);
            if (!config.failureDetection().isZero()) {
                liveness = new LivenessWatch(config, clients, instanceDir.instanceId(), admin, meters.registry(),
                        ctx.tags(), () -> InstanceStatus.of(this));
                liveness.start();
            }
            savepoints.start();
            stateThread.start(taskRegistry);
            threads.forEach(Thread::start);
            m.start();
            log.info("{} started as instance {} with {} thread(s), {}{}", config.applicationId(),
                    instanceDir.instanceId(), config.numStreamThreads(), config.guarantee().configValue(),
                    http == null ? "; HTTP endpoints disabled (http.port=-1)"
                            : "; health, metrics and topology on http://" + config.httpBindAddress() + ":" + http.port());
        } catch (RuntimeException e) {
            failure.set(e);
            transition(state.get(), State.FAILED);
            releaseResources();
            stopped.countDown();
            throw e;
        }
        return this;
    }

    public State state() {
        return state.get();
    }

    /** The error that stopped the application, if any. */
    public java.util.Optional<Throwable> failure() {
        return java.util.Optional.ofNullable(failure.get());
    }

    /** Where Weir's meters are: the Prometheus registry, or a composite of it and the caller's. */
    public MeterRegistry meterRegistry() {
        return meters.registry();
    }

    /** The port the HTTP endpoints listen on (useful with {@code http.port=0}); -1 when disabled or not started. */
    public int httpPort() {
        OpsHttpServer h = http;
        return h == null ? -1 : h.port();
    }

    /** The standby tasks this instance keeps ({@code warmupsOnly}: the warm-ups among them), sorted. */
    java.util.List<String> standbyTasks(boolean warmupsOnly) {
        StateThread s = stateThread;
        return s == null ? java.util.List.of() : s.standbyTasks(warmupsOnly);
    }

    /** The monitor of the running instance; null before it started the threads. */
    InstanceMonitor monitor() {
        return monitor;
    }

    io.weir.internal.topology.TopologyModel model() {
        return model;
    }

    String prometheusText() {
        return meters.scrape();
    }

    public WeirConfig config() {
        return config;
    }

    /**
     * Read access to a store of the topology, over the tasks this instance runs now. It sees
     * committed state only (never a change an abort could take back), and only the keys of this
     * instance's partitions; any thread may use it.
     *
     * @throws IllegalArgumentException if the topology has no store of that name
     */
    public <K, V> ReadOnlyKeyValueStore<K, V> store(String name) {
        return localStores.view(spec(name, StoreSpec.Kind.KEY_VALUE));
    }

    /**
     * Read access to a window store (a windowed aggregation's results per key and window), with
     * the same guarantees as {@link #store(String)}.
     */
    public <K, V> io.weir.state.ReadOnlyWindowStore<K, V> windowStore(String name) {
        return localStores.windowView(spec(name, StoreSpec.Kind.WINDOW));
    }

    /** Read access to a session store, with the same guarantees as {@link #store(String)}. */
    public <K, V> io.weir.state.ReadOnlySessionStore<K, V> sessionStore(String name) {
        return localStores.sessionView(spec(name, StoreSpec.Kind.SESSION));
    }

    private StoreSpec spec(String name, StoreSpec.Kind kind) {
        StoreSpec spec = model.stores().get(name);
        if (spec == null) {
            throw new IllegalArgumentException("the topology has no store named '" + name + "'; its stores: "
                    + model.stores().keySet());
        }
        if (spec.kind() != kind) {
            throw new IllegalArgumentException("store '" + name + "' is a " + spec.kind() + " store; use "
                    + switch (spec.kind()) {
                        case KEY_VALUE -> "store(name)";
                        case WINDOW -> "windowStore(name)";
                        case SESSION -> "sessionStore(name)";
                    });
        }
        return spec;
    }

    /** The stable id of this instance (configured, or kept in the state directory). */
    public String instanceId() {
        InstanceDirectory d = instanceDir;
        return d == null ? null : d.instanceId();
    }

    /** Waits until the application has stopped, normally or by failure. */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Graceful stop within {@code shutdown.timeout.ms}, leaving the consumer group so the tasks
     * move at once: the end of an instance (scale-in, a test). For a restart, use
     * {@link #close(Duration, boolean)} with {@code leaveGroup=false}.
     */
    @Override
    public void close() {
        close(config.shutdownTimeout(), true);
    }

    public void close(Duration timeout) {
        close(timeout, true);
    }

    /**
     * Stops polling, commits, and closes within {@code timeout}. {@code leaveGroup=false} keeps
     * the instance's static membership so that a restart within the session timeout gets its
     * tasks back without a rebalance; {@code true} (scale-in) hands them over at once. A second
     * call while the first is under way waits for it (at most {@code timeout}).
     */
    public void close(Duration timeout, boolean leaveGroup) {
        if (state.get() == State.CREATED && transition(State.CREATED, State.STOPPED)) {
            stopped.countDown();
            return;
        }
        if (!closing.compareAndSet(false, true)) {
            awaitQuietly(timeout);
            return;
        }
        State before = state.get();
        if (before != State.FAILED && before != State.STOPPED) {
            transition(before, State.STOPPING);
        }
        if (before != State.FAILED) {
            log.info("{} stopping{}", config.applicationId(), leaveGroup
                    ? " and leaving the consumer group: its tasks move to the other instances now"
                    : "; keeping its group membership for a restart with the same instance.id");
        }
        LivenessWatch l = liveness;
        if (l != null) {
            l.announceShutdown(leaveGroup);
        }
        streamThreads.forEach(t -> t.shutdown(leaveGroup));
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Thread t : threads) {
            if (t == Thread.currentThread()) {
                continue;
            }
            try {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            if (t.isAlive()) {
                log.warn("{} did not stop within {}", t.getName(), timeout);
            }
        }
        if (leaveGroup) {
            removeLeftoverMembers(deadline);
        }
        synchronized (this) {
            releaseResources();
        }
        transition(State.STOPPING, State.STOPPED);
        log.info("{} stopped", config.applicationId());
        stopped.countDown();
    }

    /**
     * A consumer closed while it was still joining the group sends no leave request: the
     * coordinator would list it until its session timed out, and the next bounded run or a
     * {@code weir reset} would find the group busy. Kafka Streams removes its static members through
     * the admin client on a leaving close for the same reason.
     */
    private void removeLeftoverMembers(long deadlineNanos) {
        Admin a = admin;
        InstanceDirectory dir = instanceDir;
        if (a == null || dir == null) {
            return;
        }
        // The rest of the shutdown timeout, at least 1 s and at most 5 s: an unreachable coordinator
        // must not hold the close up much longer than the consumers' own close did.
        long leftMs = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
        Duration timeout = Duration.ofMillis(Math.min(Math.max(leftMs, 1000), 5000));
        try {
            int removed = InstanceMembers.removeLeftovers(a, config.applicationId(), dir.instanceId(), timeout);
            if (removed > 0) {
                log.debug("{}: removed {} member(s) the coordinator still listed after their consumers closed",
                        config.applicationId(), removed);
            }
        } catch (ExecutionException | TimeoutException e) {
            log.warn("{}: could not check that this instance left the consumer group ({}); a member it still has"
                    + " there goes when its session times out", config.applicationId(), e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Starts (if needed), then blocks until SIGTERM/SIGINT, a {@code POST /admin/leave} or a
     * failure, and stops gracefully; with {@code run.mode=bounded}, until the run is complete
     * ({@link #runBounded()}), so a {@code main} that ends with it exits normally. On SIGTERM it keeps the static group membership, so a
     * restart with the same {@code instance.id} moves no task, unless {@code shutdown.leave.group}
     * is true.
     *
     * @throws IllegalStateException if the application failed
     */
    public void runUntilShutdown() throws InterruptedException {
        if (state.get() == State.CREATED) {
            start();
        }
        Thread hook = new Thread(() -> close(config.shutdownTimeout(), config.shutdownLeaveGroup()),
                config.applicationId() + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            if (config.bounded()) {
                runBounded();
            }
            stopped.await();
        } finally {
            removeHook(hook);
        }
        Throwable f = failure.get();
        if (f != null) {
            throw new IllegalStateException("application " + config.applicationId() + " failed: " + f, f);
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is already running the hook
        }
    }

    /**
     * Runs the application as a bounded run ({@code run.mode=bounded}): starts it (if needed),
     * processes every input from its committed (or reset) position to the end offsets taken at
     * start (read_committed), or to its first record later than {@code bounded.until}; drains the
     * repartition topics, a sub-topology after the ones that write to it; moves event time to the
     * end ({@link Long#MAX_VALUE}, or {@code bounded.until}) so every window and event-time timer
     * fires; commits, closes leaving the group, logs the summary as one INFO line and returns it.
     * An empty range finishes at once. Output is committed transactionally as in a streaming run,
     * and is the same as a streaming run's on the same input, windows included (a streaming run
     * emits the last windows only once later records or idleness move its watermark past them).
     *
     * <p>One instance holds every task (any number of threads): it fails at start if the consumer
     * group has other members, and stops with a failure if one joins during the run. Event time
     * stays at the end: a later run of the same {@code application.id} sees every window up to it
     * closed (with {@code bounded.until}, a later run continues from that instant).
     *
     * @throws IllegalStateException if {@code run.mode} is not {@code bounded}, another instance is in
     *     the group, the run failed, or it was closed before the end (its committed progress stays)
     */
    public BoundedRunSummary runBounded() throws InterruptedException {
        if (!config.bounded()) {
            throw new IllegalStateException("runBounded() needs run.mode=bounded (WEIR_RUN_MODE=bounded); "
                    + config.applicationId() + " has run.mode=streaming");
        }
        if (state.get() == State.CREATED) {
            start();
        }
        BoundedRun run = bounded;
        while (!run.awaitComplete(Duration.ofSeconds(2)) && stopped.getCount() > 0 && !closing.get()) {
            watchMembers(run);
        }
        Throwable f = failure.get();
        if (f == null && !run.isComplete()) {
            awaitQuietly(config.shutdownTimeout());
            throw new IllegalStateException("the bounded run of " + config.applicationId() + " was closed before the"
                    + " end of its input; what it committed stays, and a new run continues from there");
        }
        if (f == null) {
            close(config.shutdownTimeout(), true);
            f = failure.get();
        }
        if (f != null) {
            awaitQuietly(config.shutdownTimeout());
            throw new IllegalStateException("the bounded run of " + config.applicationId() + " failed: " + f, f);
        }
        BoundedRunSummary summary = new BoundedRunSummary(config.applicationId(), run.inputRecords(),
                run.repartitionRecords(), run.sentAtEnd(), run.duration(), run.endOffsets(), config.boundedUntil());
        log.info("{}", summary);
        return summary;
    }

    /** Another instance joining would take tasks the run waits for: fail instead of waiting for ever. */
    private void watchMembers(BoundedRun run) {
        Admin a = admin;
        if (a == null || run.isComplete()) {
            return;
        }
        try {
            BoundedRunPlan.otherMembers(a, config.applicationId(), instanceDir.instanceId())
                    .ifPresent(problem -> onThreadFailed(new IllegalStateException(problem)));
        } catch (RuntimeException e) {
            log.debug("{}: could not check the group's members", config.applicationId(), e);
        }
    }

    /**
     * A savepoint requested with stop ({@code weir stop --savepoint}) was written: the instance
     * closes and leaves the group, on a thread of its own, and {@link #runUntilShutdown()} returns.
     */
    private void stopAfterSavepoint() {
        if (!closing.get()) {
            new Thread(() -> close(config.shutdownTimeout(), true), config.applicationId() + "-savepoint-stop").start();
        }
    }

    /** Scale-in from outside ({@code POST /admin/leave}): close and leave the group, on a thread of its own. */
    boolean leaveGroupAndStop() {
        State s = state.get();
        if (closing.get() || s == State.CREATED || s == State.FAILED) {
            return false;
        }
        Thread t = new Thread(() -> close(config.shutdownTimeout(), true), config.applicationId() + "-leave");
        t.start();
        return true;
    }

    private void awaitQuietly(Duration timeout) {
        try {
            stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The monitor's tick: while the instance runs, its state follows the threads. */
    private void followThreads() {
        InstanceMonitor m = monitor;
        State current = state.get();
        if (m != null && current.isActive()) {
            State next = switch (m.leastAdvancedPhase()) {
                case STARTING -> State.STARTING;
                case REBALANCING -> State.REBALANCING;
                case RESTORING -> State.RESTORING;
                case RUNNING, STOPPED -> State.RUNNING;
            };
            if (transition(current, next) && next == State.RUNNING) {
                log.info("{} is running: {}", config.applicationId(), m.tasksByThread());
            }
        }
    }

    /** Moves from {@code from} to {@code to} if the state is still {@code from}; tells the listeners. */
    private boolean transition(State from, State to) {
        if (from == to || !state.compareAndSet(from, to)) {
            return false;
        }
        for (StateListener l : listeners) {
            try {
                l.onChange(from, to);
            } catch (RuntimeException e) {
                log.warn("{}: a state listener failed", config.applicationId(), e);
            }
        }
        return true;
    }

    private void onThreadFailed(Throwable e) {
        if (!failure.compareAndSet(null, e)) {
            return;
        }
        log.error("{}: a stream thread failed; stopping the instance", config.applicationId(), e);
        State s = state.get();
        while (s != State.FAILED && !transition(s, State.FAILED)) {
            s = state.get();
        }
        Thread stopper = new Thread(() -> {
            streamThreads.forEach(t -> t.shutdown(false));
            for (Thread t : threads) {
                try {
                    t.join(config.shutdownTimeout().toMillis());
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                }
            }
            synchronized (this) {
                // The HTTP endpoints stay: probes must see the failure (503) until the instance is closed.
                releaseResources(false);
            }
            stopped.countDown();
        }, config.applicationId() + "-failure-stop");
        stopper.start();
    }

    private void releaseResources() {
        releaseResources(true);
    }

    private void releaseResources(boolean includingHttp) {
        InstanceMonitor m = monitor;
        if (m != null) {
            m.close();
        }
        if (stateThread != null) {
            stateThread.close(); // after the stream threads: it closes the standbys' stores
            stateThread = null;
        }
        if (liveness != null) {
            liveness.close();
            liveness = null;
        }
        if (savepoints != null) {
            savepoints.close(); // after the stream threads: a copy under way reads their stores until they close
            savepoints = null;
        }
        if (rocksDb != null) {
            // After the threads closed their stores: the cache must outlive every store using it.
            // A thread that did not stop in time still holds stores; leave the memory to the
            // process rather than free it under them.
            try {
                rocksDb.close();
            } catch (IllegalStateException stillInUse) {
                log.warn("{}: RocksDB memory not freed: {}", config.applicationId(), stillInUse.getMessage());
            }
            rocksDb = null;
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
            admin = null;
        }
        if (instanceDir != null) {
            if (threads.stream().anyMatch(t -> t != Thread.currentThread() && t.isAlive())) {
                // A thread that did not stop may still write its stores: another instance must not
                // take the directory over while it does. The lock goes with the process.
                log.warn("{}: state directory {} stays locked: a stream thread is still running",
                        config.applicationId(), config.stateDir());
            } else {
                instanceDir.close();
            }
        }
        // Last: probes keep answering (503, stopping) while the threads commit and close.
        if (includingHttp) {
            if (http != null) {
                http.close();
                http = null;
            }
            meters.close();
        }
    }
}
