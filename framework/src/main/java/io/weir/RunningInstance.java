package io.weir;

import io.micrometer.core.instrument.Tags;
import io.weir.common.internal.Deadline;
import io.weir.config.WeirConfig;
import io.weir.internal.bounded.BoundedRun;
import io.weir.internal.bounded.BoundedRunPlan;
import io.weir.internal.cluster.ClientConfigs;
import io.weir.internal.cluster.access.AccessCheck;
import io.weir.internal.cluster.topics.ChangelogEnds;
import io.weir.internal.cluster.topics.RepartitionPurge;
import io.weir.internal.cluster.topics.TopicSetup;
import io.weir.internal.config.ClientMeters;
import io.weir.internal.config.ClientRole;
import io.weir.internal.config.KafkaClients;
import io.weir.internal.config.WeirVersion;
import io.weir.internal.http.security.PeerHttp;
import io.weir.internal.query.Ownership;
import io.weir.internal.savepoint.SavepointControl;
import io.weir.internal.state.ChangelogTopicIds;
import io.weir.internal.state.InstanceDirectory;
import io.weir.internal.state.LocalStores;
import io.weir.internal.state.global.GlobalTables;
import io.weir.internal.state.global.GlobalThread;
import io.weir.internal.state.thread.InstanceTaskRegistry;
import io.weir.internal.state.thread.StateThread;
import io.weir.internal.supervision.InstanceMeters;
import io.weir.internal.supervision.InstanceMonitor;
import io.weir.internal.supervision.LivenessWatch;
import io.weir.internal.task.TopicLimits;
import io.weir.internal.thread.GroupRejoins;
import io.weir.internal.thread.RunEnd;
import io.weir.internal.thread.StreamThread;
import io.weir.internal.thread.ThreadContext;
import io.weir.internal.topology.TopologyDescription;
import io.weir.internal.topology.TopologyModel;
import io.weir.internal.topology.TopologyRecord;
import io.weir.internal.tracing.Tracing;
import io.weir.state.rocksdb.RocksDbResources;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parts of a started {@link WeirApp}, wired in start order and closed in the reverse: the
 * state directory's lock, the HTTP endpoints, the admin client, the state thread, savepoint
 * control, liveness, the stream threads and the monitor that watches them. {@link WeirApp} keeps
 * the life cycle (its states, listeners and failures); this class only makes and releases what a
 * running instance holds.
 *
 * <p>Threading: {@link #start} on the thread starting the application; {@link #stopThreads} and
 * {@link #release} on the thread closing it (never concurrently: {@link WeirApp} serialises them);
 * the accessors from any thread.
 */
final class RunningInstance {

    /** The instance's start and stop lines come from the application's logger, as operators filter them. */
    private static final Logger log = LoggerFactory.getLogger(WeirApp.class);

    /** What the instance tells its {@link WeirApp}, and what it asks of it. */
    interface Owner {
        /** A stream thread failed with this; the instance stops. */
        void threadFailed(Throwable failure);

        /** The monitor's tick: the owner's state follows the threads. */
        void tick();

        /** A savepoint requested with stop was written: the owner closes and leaves the group. */
        void stopAfterSavepoint();

        /** The owner's state now, for the state gauges. */
        WeirApp.State state();

        /** The owner's status line, sent with the liveness heartbeats. */
        String statusLine();
    }

    /** How long the global tables may take to load at start-up before the start fails. */
    private static final Duration GLOBAL_RESTORE_TIMEOUT = Duration.ofMinutes(10);

    private final WeirConfig config;
    private final Tracing tracing;
    private final StreamThreads threads = new StreamThreads();
    private InstanceDirectory instanceDir;
    private Admin admin;
    /** The Kafka clients' own meters, with {@code metrics.kafka.clients.enabled}; else null. */
    private ClientMeters clientMeters;

    private InstanceHttp http;
    private StateThread stateThread;
    private InstanceTaskRegistry taskRegistry;
    private SavepointControl savepoints;
    private LivenessWatch liveness;
    /** Rebalances the instances start, heard through the liveness topic, for the threads to join at once. */
    private final GroupRejoins rejoins = new GroupRejoins();

    private RocksDbResources rocksDb;
    private InstanceMonitor monitor;
    private BoundedRun bounded;
    private GlobalTables globalTables;
    private GlobalThread globalThread;

    private RunningInstance(WeirConfig config, Tracing tracing) {
        this.config = config;
        this.tracing = tracing;
    }

    /**
     * Checks the cluster and starts every part; on failure releases what it started and rethrows.
     * {@code partsStarted} hears of the instance before its threads start, so that a failure of
     * theirs finds it.
     */
    static RunningInstance start(
            WeirConfig config,
            TopologyModel model,
            InstanceMeters meters,
            LocalStores localStores,
            Ownership ownership,
            Endpoints endpoints,
            Owner owner,
            Tracing tracing,
            Consumer<RunningInstance> partsStarted) {
        RunningInstance instance = new RunningInstance(config, tracing);
        try {
            instance.startParts(model, meters, localStores, ownership, endpoints, owner);
            partsStarted.accept(instance);
            instance.startThreads();
            return instance;
        } catch (RuntimeException e) {
            instance.release(true);
            throw e;
        }
    }

    private void startParts(
            TopologyModel declared,
            InstanceMeters meters,
            LocalStores localStores,
            Ownership ownership,
            Endpoints endpoints,
            Owner owner) {
        StartTimeline timeline = new StartTimeline(config.applicationId());
        instanceDir = InstanceDirectory.open(config.stateDir(), config.applicationId(), config.instanceId());
        String instanceId = instanceDir.instanceId();
        if (config.kafkaClientMetrics()) {
            clientMeters = new ClientMeters(
                    meters.registry(),
                    Tags.of("application", config.applicationId(), "instance", instanceId),
                    config.applicationId() + "-" + instanceId + "-client-metrics");
        }
        ClientConfigs clients = new ClientConfigs(
                config,
                instanceId,
                clientMeters == null ? KafkaClients.unmetered() : KafkaClients.metered(clientMeters));
        timeline.mark("instance directory");
        http = InstanceHttp.start(config, endpoints);
        timeline.mark("HTTP server");
        // Before the stream threads join: their subscriptions carry the endpoint to the group. Queries
        // are served where /stores/ is: the admin port when there is one.
        ownership.advertise(instanceId, http.advertisedUrl());
        admin = clients.kafka().admin(ClientRole.ofInstance("admin"), clients.admin());
        TopologyModel model;
        TopicSetup topicSetup;
        TopologyRecord topologyRecord;
        // Read while the checks below run: a consumer's start and a round trip off a restart's path.
        try (TopologyRecord.Recorded recorded =
                TopologyRecord.Recorded.readInBackground(config, clients.plainConsumer("topology"))) {
            // First: a missing ACL fails here with one message naming each, not later inside a client.
            AccessCheck.require(admin, config, declared, clients.threadName(0));
            timeline.mark("access check");
            topicSetup = new TopicSetup(admin, config, declared);
            // Which tables use their compacted source topic as changelog: every part runs with this.
            model = topicSetup.model();
            timeline.mark("topics described");
            topologyRecord = TopologyRecord.check(
                    config,
                    clients.plainProducer("topology"),
                    TopologyDescription.of(model, config.applicationId(), WeirVersion.current()),
                    recorded);
            timeline.mark("topology record read");
        }
        ChangelogTopicIds changelogIds = topicSetup.verifyAndCreate();
        timeline.mark("topics verified and created");
        topologyRecord.write();
        timeline.mark("topology record written");
        if (config.bounded()) {
            bounded = BoundedRunPlan.prepare(admin, config, model, instanceId);
        }
        // Before any stream thread exists: no stream record is joined with a global table still loading.
        rocksDb = RocksDbResources.create(RocksDbResources.Config.ofTotalBytes(config.rocksDbMemoryBytes()));
        globalTables = GlobalTables.onDisk(
                model.globalTables().values(), instanceDir.dir().resolve("global"), rocksDb);
        globalThread = GlobalThread.start(
                globalTables,
                clients,
                admin,
                config.deadLetterTopic(),
                new TopicLimits(admin, clients.maxRequestSize()),
                config.errorHandler(),
                meters.registry(),
                Tags.of("application", config.applicationId(), "instance", instanceId),
                GLOBAL_RESTORE_TIMEOUT,
                owner::threadFailed);
        timeline.mark("global tables");
        stateThread = new StateThread(
                config,
                model,
                clients,
                instanceDir.dir(),
                rocksDb,
                meters.registry(),
                Tags.of("application", config.applicationId(), "instance", instanceId),
                localStores);
        taskRegistry = new InstanceTaskRegistry(
                instanceDir.dir(), stateThread, new ChangelogEnds(admin)::endOffsets, changelogIds);
        savepoints = new SavepointControl(config, clients, model, instanceId, admin, owner::stopAfterSavepoint);
        timeline.mark("state thread and savepoint control");
        ThreadContext ctx = ThreadContext.create(
                config,
                model,
                instanceId,
                clients,
                admin,
                new ThreadContext.Shared(
                        meters.registry(),
                        instanceDir.dir(),
                        rocksDb,
                        localStores,
                        taskRegistry,
                        savepoints,
                        new RepartitionPurge(admin, model, config.repartitionPurgeInterval()),
                        globalTables.views(),
                        ownership,
                        rejoins,
                        tracing));
        for (int i = 0; i < config.numStreamThreads(); i++) {
            threads.add(
                    new StreamThread(
                            ctx,
                            i,
                            bounded == null ? consumer -> RunEnd.STREAMING : bounded::endFor,
                            owner::threadFailed),
                    owner::threadFailed);
        }
        monitor = new InstanceMonitor(ctx, threads.streamThreads(), threads.threads(), admin, owner::tick);
        meters.bind(
                ctx.tags(),
                rocksDb,
                WeirApp.State.class,
                owner::state,
                () -> endpoints.readiness().ok(),
                monitor::stalled);
        localStores.bindEntries(meters.registry(), ctx.tags(), model.stores().keySet());
        if (!config.failureDetection().isZero()) {
            liveness = new LivenessWatch(
                    config, clients, instanceId, admin, meters.registry(), ctx.tags(), owner::statusLine, rejoins);
            rejoins.announceThrough(liveness::announceRebalance);
        }
        timeline.mark("threads and monitors created");
    }

    private void startThreads() {
        if (liveness != null) {
            liveness.start();
        }
        savepoints.start();
        stateThread.start(taskRegistry);
        threads.start();
        monitor.start();
        log.info(
                "{} started as instance {} with {} thread(s), {}{}",
                config.applicationId(),
                instanceDir.instanceId(),
                config.numStreamThreads(),
                config.guarantee().configValue(),
                http.describe());
    }

    String instanceId() {
        return instanceDir.instanceId();
    }

    /** The read view of a global table's store. */
    Object globalStore(String name) {
        return globalTables.views().get(name);
    }

    /** How this instance calls its peers' endpoints; empty without an HTTP server. */
    Optional<PeerHttp> peerHttp() {
        return http == null ? Optional.empty() : http.peerHttp();
    }

    Optional<Integer> httpPort() {
        return http == null ? Optional.empty() : http.port();
    }

    /** With {@code http.admin.port}: the port of the admin and query endpoints. */
    Optional<Integer> httpAdminPort() {
        return http == null ? Optional.empty() : http.adminPort();
    }

    InstanceMonitor monitor() {
        return monitor;
    }

    /** The run, with {@code run.mode=bounded}. */
    Optional<BoundedRun> bounded() {
        return Optional.ofNullable(bounded);
    }

    Admin admin() {
        return admin;
    }

    /** The standby tasks this instance keeps ({@code warmupsOnly}: the warm-ups among them), sorted. */
    List<String> standbyTasks(boolean warmupsOnly) {
        return stateThread == null ? List.of() : stateThread.standbyTasks(warmupsOnly);
    }

    /**
     * Asks every stream thread to stop ({@code leaveGroup}: leaving the consumer group) and waits
     * for them until {@code deadline}; a leaving stop then removes what the coordinator still lists
     * of the instance.
     */
    void stopThreads(boolean leaveGroup, Deadline deadline) {
        if (liveness != null) {
            liveness.announceShutdown(leaveGroup);
        }
        threads.stop(leaveGroup, deadline);
        if (leaveGroup && admin != null && instanceDir != null) {
            LeftoverMembers.remove(admin, config.applicationId(), instanceDir.instanceId(), deadline);
        }
    }

    /** After a thread failed: stops the others without leaving the group, waiting up to {@code timeout} for each. */
    void stopAfterFailure(Duration timeout) {
        threads.stopAfterFailure(timeout);
    }

    /**
     * Releases every part, in the reverse of the start order; the HTTP endpoints only with
     * {@code includingHttp} (after a failure probes must keep seeing it until the instance is closed).
     */
    void release(boolean includingHttp) {
        if (monitor != null) {
            monitor.close();
        }
        if (stateThread != null) {
            stateThread.close(); // after the stream threads: it closes the standbys' stores
            stateThread = null;
        }
        if (liveness != null) {
            liveness.close();
            liveness = null;
        }
        if (globalThread != null) {
            globalThread.close(); // after the stream threads: their joins read the global tables
            globalThread = null;
        }
        if (globalTables != null) {
            globalTables.close();
            globalTables = null;
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
        if (clientMeters != null) {
            clientMeters.close(); // after every client: removes the meters of any a stuck thread still holds
            clientMeters = null;
        }
        releaseStateDirectory();
        // Last: probes keep answering (503, stopping) while the threads commit and close.
        if (includingHttp && http != null) {
            http.close();
            http = null;
        }
    }

    private void releaseStateDirectory() {
        if (instanceDir == null) {
            return;
        }
        if (threads.anyStillRunning()) {
            // A thread that did not stop may still write its stores: another instance must not
            // take the directory over while it does. The lock goes with the process.
            log.warn(
                    "{}: state directory {} stays locked: a stream thread is still running",
                    config.applicationId(),
                    config.stateDir());
        } else {
            instanceDir.close();
        }
    }
}
