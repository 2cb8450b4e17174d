package io.weir;

import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.weir.config.WeirConfig;
import io.weir.errors.ConfigException;
import io.weir.errors.InstanceFailedException;
import io.weir.errors.InstanceStateException;
import io.weir.errors.WeirException;
import io.weir.internal.http.PeerClient;
import io.weir.internal.kubernetes.KubernetesApi;
import io.weir.internal.kubernetes.ScaleInCheck;
import io.weir.internal.query.MeteredQueries;
import io.weir.internal.query.Ownership;
import io.weir.internal.query.StoreQueryService;
import io.weir.internal.state.LocalStores;
import io.weir.internal.supervision.InstanceMeters;
import io.weir.internal.topology.DescribeRun;
import io.weir.internal.topology.TopologyModel;
import io.weir.internal.tracing.Tracing;
import io.weir.query.KeyOwners;
import io.weir.state.ReadOnlyKeyValueStore;
import io.weir.state.ReadOnlySessionStore;
import io.weir.state.ReadOnlyWindowStore;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A running Weir application instance: the composition root that wires a {@link Topology} and a
 * {@link WeirConfig} to Kafka clients, stream threads, metrics and the instance's HTTP endpoints.
 *
 * <p>{@link #start()} checks the cluster first (input and output topics exist; the dead-letter
 * topic is created if missing) and fails with a clear message instead of starting half-way. What
 * it reports about the configuration, the cluster, the topology or the instance's life cycle is a
 * {@link WeirException} whose type says what to do; a wrong argument is an
 * {@link IllegalArgumentException}.
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
 * {@code shutdown.leave.group=true}, or {@code kubernetes_scale_in} and the instance's StatefulSet
 * pod is being removed by a scale-down; {@link #close()} and {@code POST /admin/leave} leave the
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

    /** How long a query forwarded to the instance that holds the key may take. */
    private static final Duration QUERY_FORWARD_TIMEOUT = Duration.ofSeconds(5);

    private final TopologyModel model;
    private final WeirConfig config;
    private final InstanceMeters meters;
    private final Lifecycle lifecycle;
    private final Shutdown shutdown;
    private final Endpoints endpoints;
    private final LocalStores localStores = new LocalStores(System::currentTimeMillis);
    private final Ownership ownership = new Ownership();
    private final AppStores stores;
    private final StoreQueryService queries;
    /** What {@link #openTelemetry} gave; null for the global one, taken at {@link #start()}. */
    private OpenTelemetry openTelemetry;
    /** The started parts; null before {@link #start()} wired them. */
    private volatile RunningInstance instance;

    private WeirApp(Topology topology, WeirConfig config, MeterRegistry registry) {
        this.config = Objects.requireNonNull(config, "config");
        this.model = Objects.requireNonNull(topology, "topology").model().resolve(config.applicationId());
        this.meters = new InstanceMeters(registry);
        this.lifecycle = new Lifecycle(config.applicationId());
        this.shutdown = new Shutdown(config, lifecycle, meters, () -> instance, this);
        this.stores = new AppStores(model, localStores, () -> instance);
        this.queries = new StoreQueryService(
                model,
                localStores,
                ownership,
                new PeerClient(QUERY_FORWARD_TIMEOUT, () -> running().flatMap(RunningInstance::peerHttp)),
                this::store);
        this.endpoints = new Endpoints(
                this, model, meters, new MeteredQueries(queries, meters.registry(), config.applicationId(), ownership));
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

    /**
     * Traces with {@code openTelemetry} instead of the global one, which {@link #start()} takes
     * otherwise: what the application registered with {@link GlobalOpenTelemetry}, or what the
     * SDK's autoconfigure builds when {@code otel.java.global-autoconfigure.enabled} is true (the
     * no-op otherwise, left unregistered). Tracing is on when its text-map propagator is not the
     * no-op (an SDK, or {@code OTEL_PROPAGATORS} read by the SDK's autoconfigure): every input
     * record gets a span that continues the W3C trace context of its headers, and what it
     * produces (outputs, repartition topics, dead letters) carries the context of the span that
     * produced it. Off, and free, with {@link OpenTelemetry#noop()}. See docs/tracing.md.
     *
     * @throws InstanceStateException if the instance was started already
     */
    public synchronized WeirApp openTelemetry(OpenTelemetry openTelemetry) {
        if (lifecycle.get() != State.CREATED) {
            throw new InstanceStateException("openTelemetry(...) must be called before start(); "
                    + config.applicationId() + " is " + lifecycle.get());
        }
        this.openTelemetry = Objects.requireNonNull(openTelemetry, "openTelemetry");
        return this;
    }

    /** Adds a listener of state changes (see {@link StateListener} for the thread that calls it). */
    public WeirApp addStateListener(StateListener listener) {
        lifecycle.addListener(listener);
        return this;
    }

    /**
     * Checks the cluster and starts the HTTP endpoints and the stream threads; returns once they
     * run (the state is then {@link State#STARTING} until the group assigns tasks). With
     * {@code run.mode=describe} it only writes the topology description (to {@code describe.file},
     * or stdout) and returns with the state {@link State#STOPPED}, having contacted nothing.
     *
     * @throws ConfigException if a setting is wrong (for example the state directory or the HTTP
     *     port is taken, or {@code shutdown.leave.group=kubernetes_scale_in} cannot read the
     *     StatefulSet's replicas)
     * @throws io.weir.errors.ClusterException if the cluster cannot be reached or a topic is missing
     * @throws io.weir.errors.TopologyException if the topology does not fit the topics or the state
     * @throws InstanceStateException if the instance was started before
     */
    public synchronized WeirApp start() {
        if (!lifecycle.transition(State.CREATED, State.STARTING)) {
            throw new InstanceStateException(
                    "an application can be started once; " + config.applicationId() + " is " + lifecycle.get());
        }
        if (config.describeOnly()) {
            describeAndStop();
            return this;
        }
        try {
            if (config.shutdownLeaveGroupOnScaleIn()) {
                shutdown.decideAtSignalWith(ScaleInCheck.start(
                        config.instanceId(), KubernetesApi::requireInCluster, config.shutdownTimeout()));
            }
            RunningInstance.start(
                    config,
                    model,
                    meters,
                    localStores,
                    ownership,
                    endpoints,
                    new InstanceOwner(this, lifecycle, shutdown),
                    Tracing.of(
                            openTelemetry != null ? openTelemetry : Tracing.global(),
                            config.tracingStepSpans(),
                            config.tracingRootRatio(),
                            config.applicationId()),
                    started -> instance = started);
        } catch (RuntimeException e) {
            lifecycle.fail(e);
            meters.close();
            lifecycle.stopped();
            throw e;
        }
        return this;
    }

    /**
     * {@code run.mode=describe}: writes the topology description ({@link DescribeRun}) and stops,
     * without a Kafka client or a thread, so {@link #runUntilShutdown()} returns at once and a
     * {@code main} ending with it exits 0.
     */
    private void describeAndStop() {
        try {
            DescribeRun.write(model, config, System.out);
        } catch (RuntimeException e) {
            lifecycle.fail(e);
            meters.close();
            lifecycle.stopped();
            throw e;
        }
        meters.close();
        lifecycle.transition(State.STARTING, State.STOPPED);
        lifecycle.stopped();
    }

    public State state() {
        return lifecycle.get();
    }

    /** The error that stopped the application, if any. */
    public Optional<Throwable> failure() {
        return lifecycle.failure();
    }

    /** Where Weir's meters are: the Prometheus registry, or a composite of it and the caller's. */
    public MeterRegistry meterRegistry() {
        return meters.registry();
    }

    /** The port the HTTP endpoints listen on (useful with {@code http.port=0}); empty when disabled or not started. */
    public OptionalInt httpPort() {
        RunningInstance i = instance;
        Optional<Integer> port = i == null ? Optional.empty() : i.httpPort();
        return port.map(OptionalInt::of).orElseGet(OptionalInt::empty);
    }

    /**
     * The port of the admin and query endpoints with {@code http.admin.port} (useful with {@code 0});
     * empty when they share {@link #httpPort()}, or before the instance started.
     */
    public OptionalInt httpAdminPort() {
        RunningInstance i = instance;
        Optional<Integer> port = i == null ? Optional.empty() : i.httpAdminPort();
        return port.map(OptionalInt::of).orElseGet(OptionalInt::empty);
    }

    /** The stable id of this instance (configured, or kept in the state directory); empty before it started. */
    public Optional<String> instanceId() {
        RunningInstance i = instance;
        return i == null ? Optional.empty() : Optional.of(i.instanceId());
    }

    public WeirConfig config() {
        return config;
    }

    /**
     * Read access to a store of the topology, over the tasks this instance runs now. It sees
     * committed state only (never a change an abort could take back), and only the keys of this
     * instance's partitions; any thread may use it. A global table's store holds every key, as
     * this instance has read its topic so far.
     *
     * @throws IllegalArgumentException if the topology has no key-value store of that name
     * @throws InstanceStateException   for a global table, while the instance is not started
     */
    public <K, V> ReadOnlyKeyValueStore<K, V> store(String name) {
        return stores.keyValue(name);
    }

    /**
     * Read access to a window store (a windowed aggregation's results per key and window), with
     * the same guarantees as {@link #store(String)}.
     */
    public <K, V> ReadOnlyWindowStore<K, V> windowStore(String name) {
        return stores.window(name);
    }

    /** Read access to a session store, with the same guarantees as {@link #store(String)}. */
    public <K, V> ReadOnlySessionStore<K, V> sessionStore(String name) {
        return stores.session(name);
    }

    /**
     * Which instance holds {@code key} of {@code store}, and which keep standby copies of it, with
     * their HTTP endpoints: what the query endpoints route by. Empty until this instance's first
     * assignment; a snapshot of the group's latest rebalance.
     *
     * @throws IllegalArgumentException if no task holds a store of that name (a global table is on
     *                                  every instance)
     */
    public Optional<KeyOwners> keyOwners(String store, Object key) {
        return queries.owners(store, Objects.requireNonNull(key, "key"));
    }

    /** Waits until the application has stopped, normally or by failure. */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return lifecycle.awaitStopped(timeout);
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
     * tasks back without a rebalance; {@code true} (scale-in) hands them over at once, and removes
     * from the group any member of this instance the coordinator still lists. A second call while
     * the first is under way waits for it (at most {@code timeout}).
     */
    public void close(Duration timeout, boolean leaveGroup) {
        shutdown.close(timeout, leaveGroup);
    }

    /**
     * Starts (if needed), then blocks until SIGTERM/SIGINT, a {@code POST /admin/leave} or a
     * failure, and stops gracefully; with {@code run.mode=bounded}, until the run is complete
     * ({@link #runBounded()}), so a {@code main} that ends with it exits normally. On SIGTERM it
     * keeps the static group membership, so a restart with the same {@code instance.id} moves no
     * task, unless {@code shutdown.leave.group} is true, or is {@code kubernetes_scale_in} and the
     * Kubernetes API says the instance's pod is being removed by a scale-down.
     *
     * @throws InstanceFailedException if the application failed; its cause says why
     */
    public void runUntilShutdown() throws InterruptedException {
        if (lifecycle.get() == State.CREATED) {
            start();
        }
        shutdown.onSignalWhile(() -> {
            if (config.bounded()) {
                runBounded();
            }
            lifecycle.awaitStopped();
        });
        Throwable f = lifecycle.failure().orElse(null);
        if (f != null) {
            throw new InstanceFailedException("application " + config.applicationId() + " failed: " + f, f);
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
     * @throws ConfigException if {@code run.mode} is not {@code bounded}
     * @throws InstanceStateException if it was closed before the end (its committed progress stays)
     * @throws InstanceFailedException if the run failed (another instance joined the group, a
     *     record failed under {@code error.mode=fail}...); its cause says why
     */
    public BoundedRunSummary runBounded() throws InterruptedException {
        if (!config.bounded()) {
            throw new ConfigException(
                    "run.mode",
                    "runBounded() needs run.mode=bounded (WEIR_RUN_MODE=bounded); " + config.applicationId()
                            + " has run.mode=streaming");
        }
        if (lifecycle.get() == State.CREATED) {
            start();
        }
        return BoundedRunner.awaitEnd(config, lifecycle, shutdown, instance);
    }

    // ---- for the endpoints and heartbeats, in this package -------------------------------------

    /** The started parts; empty before {@link #start()} wired them. */
    Optional<RunningInstance> running() {
        return Optional.ofNullable(instance);
    }

    /** Scale-in from outside ({@code POST /admin/leave}): close and leave the group, on a thread of its own. */
    boolean leaveGroupAndStop() {
        return shutdown.leaveGroupAndStop();
    }
}
