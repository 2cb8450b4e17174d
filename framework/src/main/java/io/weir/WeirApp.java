package io.weir;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.weir.internal.runtime.ClientConfigs;
import io.weir.internal.runtime.InstanceDirectory;
import io.weir.internal.runtime.StreamThread;
import io.weir.internal.runtime.ThreadContext;
import io.weir.internal.runtime.TopicSetup;
import io.weir.internal.state.LocalStores;
import io.weir.internal.topology.StoreSpec;
import io.weir.state.ReadOnlyKeyValueStore;
import io.weir.state.rocksdb.RocksDbResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Weir application instance: the composition root that wires a {@link Topology} and a
 * {@link WeirConfig} to Kafka clients, stream threads and metrics.
 *
 * <p>{@link #start()} checks the cluster first (input and output topics exist; the dead-letter
 * topic is created if missing) and fails with a clear message instead of starting half-way.
 * Every copy of the application started with the same {@code application.id} joins the same
 * consumer group and takes a share of the tasks.
 *
 * <p>{@link #close(Duration)} stops polling, commits, and closes clients within the timeout;
 * {@link #runUntilShutdown()} does the same on SIGTERM. If a stream thread fails, the instance
 * stops and {@link #state()} becomes {@link State#FAILED}.
 *
 * <p>Thread-safe: any thread may call any method.
 */
public final class WeirApp implements AutoCloseable {

    /** Life cycle: CREATED → RUNNING → STOPPING → STOPPED, or FAILED from RUNNING. */
    public enum State { CREATED, RUNNING, STOPPING, STOPPED, FAILED }

    private static final Logger log = LoggerFactory.getLogger(WeirApp.class);

    private final io.weir.internal.topology.TopologyModel model;
    private final WeirConfig config;
    private final MeterRegistry registry;
    private final AtomicReference<State> state = new AtomicReference<>(State.CREATED);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final List<StreamThread> streamThreads = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private InstanceDirectory instanceDir;
    private Admin admin;
    private RocksDbResources rocksDb;
    private final LocalStores localStores = new LocalStores(System::currentTimeMillis);

    private WeirApp(Topology topology, WeirConfig config, MeterRegistry registry) {
        this.config = Objects.requireNonNull(config, "config");
        this.model = Objects.requireNonNull(topology, "topology").model().resolve(config.applicationId());
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    public static WeirApp create(Topology topology, WeirConfig config) {
        return new WeirApp(topology, config, new SimpleMeterRegistry());
    }

    /** With the caller's registry, for example a Prometheus one. */
    public static WeirApp create(Topology topology, WeirConfig config, MeterRegistry registry) {
        return new WeirApp(topology, config, registry);
    }

    /**
     * Checks the cluster and starts the stream threads.
     *
     * @throws ConfigException if a setting is wrong (for example the state directory is taken)
     * @throws IllegalStateException if the cluster cannot be reached or a topic is missing
     */
    public synchronized WeirApp start() {
        if (!state.compareAndSet(State.CREATED, State.RUNNING)) {
            throw new IllegalStateException("an application can be started once; it is " + state.get());
        }
        try {
            instanceDir = InstanceDirectory.open(config.stateDir(), config.applicationId(), config.instanceId());
            ClientConfigs clients = new ClientConfigs(config, model, instanceDir.instanceId());
            admin = Admin.create(clients.admin());
            new TopicSetup(admin, config, model).verifyAndCreate();
            rocksDb = RocksDbResources.create(RocksDbResources.Config.ofTotalBytes(config.rocksDbMemoryBytes()));
            ThreadContext ctx = ThreadContext.create(config, model, clients, admin,
                    new ThreadContext.Shared(registry, instanceDir.dir(), rocksDb, localStores));
            for (int i = 0; i < config.numStreamThreads(); i++) {
                StreamThread st = new StreamThread(ctx, i, this::onThreadFailed);
                Thread t = new Thread(st, st.name());
                t.setUncaughtExceptionHandler((th, e) -> onThreadFailed(e));
                streamThreads.add(st);
                threads.add(t);
            }
            threads.forEach(Thread::start);
            log.info("{} started as instance {} with {} thread(s), {}", config.applicationId(),
                    instanceDir.instanceId(), config.numStreamThreads(), config.guarantee().configValue());
        } catch (RuntimeException e) {
            state.set(State.FAILED);
            failure.set(e);
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

    public MeterRegistry meterRegistry() {
        return registry;
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

    /** Graceful stop within {@code shutdown.timeout.ms}, leaving the consumer group. */
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
     * tasks back without a rebalance; {@code true} (scale-in) hands them over at once.
     */
    public void close(Duration timeout, boolean leaveGroup) {
        State s = state.get();
        if (s == State.CREATED) {
            state.set(State.STOPPED);
            stopped.countDown();
            return;
        }
        if (s == State.RUNNING) {
            state.compareAndSet(State.RUNNING, State.STOPPING);
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
        synchronized (this) {
            releaseResources();
        }
        state.compareAndSet(State.STOPPING, State.STOPPED);
        stopped.countDown();
    }

    /**
     * Starts (if needed), then blocks until SIGTERM/SIGINT or a failure; stops gracefully.
     *
     * @throws IllegalStateException if the application failed
     */
    public void runUntilShutdown() throws InterruptedException {
        if (state.get() == State.CREATED) {
            start();
        }
        Thread hook = new Thread(() -> close(config.shutdownTimeout(), true), config.applicationId() + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        stopped.await();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is already running the hook
        }
        Throwable f = failure.get();
        if (f != null) {
            throw new IllegalStateException("application " + config.applicationId() + " failed: " + f, f);
        }
    }

    private void onThreadFailed(Throwable e) {
        if (!failure.compareAndSet(null, e)) {
            return;
        }
        log.error("{}: a stream thread failed; stopping the instance", config.applicationId(), e);
        state.set(State.FAILED);
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
                releaseResources();
            }
            stopped.countDown();
        }, config.applicationId() + "-failure-stop");
        stopper.start();
    }

    private void releaseResources() {
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
            instanceDir.close();
        }
    }
}
