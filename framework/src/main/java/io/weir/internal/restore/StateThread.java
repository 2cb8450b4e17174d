package io.weir.internal.restore;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.weir.config.WeirConfig;
import io.weir.internal.assign.MemberHooks.MemberAssignment;
import io.weir.internal.cluster.ClientConfigs;
import io.weir.internal.state.TaskStores;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.TopologyModel;
import io.weir.processor.TaskId;
import io.weir.state.changelog.RestoreListener;
import io.weir.state.changelog.RestoreSession;
import io.weir.state.internal.BytesStore;
import io.weir.state.rocksdb.RocksDbResources;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The instance's state thread ({@code <app>-<instance>-state}). It restores the stores of new
 * active tasks from their changelogs, and keeps standby and warm-up copies of other instances'
 * tasks following their changelogs, so stream threads never block on a restore: a stream thread
 * hands a task's stores over ({@link #restore}), keeps the task paused, and lets it process once
 * the restore is done. Active restores come first: standbys wait while one is under way.
 *
 * <p>A standby task opens only its persistent, logged stores (in-memory stores are rebuilt by
 * whoever becomes active), in the same directories an active task of this instance would use, so
 * when the task becomes active here its stores are where its standby left them and only the tail
 * is restored. A store still held by an active task of this instance is retried, not waited for.
 * A warm-up is a standby the assignor placed where it wants to move the task: once it is within
 * {@code acceptable.recovery.lag}, the stream thread it was assigned to asks for a rebalance
 * ({@link #takeRebalanceRequest}; warm-ups that catch up within {@link #PROMOTION_BATCH_WAIT} of
 * each other ask together), and every {@code probing.rebalance.interval.ms} while warm-ups run in
 * case none ever gets there.
 *
 * <p>Meters (tagged task and store): {@code weir.standby.lag.records} (changelog records the
 * standby has not applied) and {@code weir.standby.lag.seconds} (how long since it last had
 * none); {@code weir.standby.tasks} and {@code weir.warmup.tasks}.
 *
 * <p>Threads: the public methods are for any thread; {@link #release} and {@link #cancel} block
 * until the state thread has done what they ask (it answers within about 100 ms, or once a
 * store's in-flight batch is applied). Everything else runs on the state thread.
 */
public final class StateThread implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StateThread.class);
    private static final Duration STEP = Duration.ofMillis(100);
    private static final Duration LOCK_RETRY = Duration.ofMillis(200);
    private static final Duration FAILURE_RETRY = Duration.ofSeconds(5);
    private static final long CALL_TIMEOUT_SECONDS = 60;
    private static final Duration CLEANUP_CHECK = Duration.ofSeconds(30);

    /** What a stream thread needs to know about a restore it handed over. */
    public static final class RestoreTicket {
        final TaskId task;
        final Set<TopicPartition> changelogs;
        private volatile boolean done;
        private volatile RuntimeException failure;

        RestoreTicket(TaskId task, Set<TopicPartition> changelogs) {
            this.task = task;
            this.changelogs = Set.copyOf(changelogs);
        }

        /** True once every store is restored; throws if the restore failed. */
        public boolean done() {
            RuntimeException f = failure;
            if (f != null) {
                throw f;
            }
            return done;
        }
    }

    private final WeirConfig config;
    private final TopologyModel model;
    private final ClientConfigs clients;
    private final Path instanceDir;
    private final RocksDbResources rocksDb;
    private final MeterRegistry registry;
    private final Tags tags;
    private final Thread thread;
    private final LinkedBlockingQueue<Runnable> commands = new LinkedBlockingQueue<>();
    private final Map<TaskId, Long> standbyOffsets = new ConcurrentHashMap<>();
    /** How long a caught-up warm-up waits for the instance's other warm-ups to catch up too (see {@link #requestPromotions}). */
    static final Duration PROMOTION_BATCH_WAIT = Duration.ofSeconds(2);
    private final Map<Integer, String> rebalanceRequests = new ConcurrentHashMap<>();
    private volatile boolean running = true;
    private volatile InstanceTaskRegistry taskRegistry;
    /** The standbys (true: a warm-up) as the state thread last reconciled them, for other threads. */
    private volatile Map<TaskId, Boolean> standbyView = Map.of();

    // ---- state thread only ----------------------------------------------------------------------
    private final List<RestoreTicket> restoring = new ArrayList<>();
    private final Map<Integer, MemberAssignment> assigned = new TreeMap<>();
    private final Map<TaskId, StandbyTask> standbys = new TreeMap<>();
    private KafkaConsumer<byte[], byte[]> restoreConsumer;
    private KafkaConsumer<byte[], byte[]> standbyConsumer;
    private KafkaConsumer<byte[], byte[]> logEndConsumer;
    private RestoreSession restores;
    private RestoreSession tails;
    private long lastProbeNanos = System.nanoTime();
    private long lastFlushNanos = System.nanoTime();
    private long standbysFailedUntil;
    private long lastCleanupNanos = System.nanoTime();
    private final java.util.concurrent.atomic.AtomicInteger standbyCount = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger warmupCount = new java.util.concurrent.atomic.AtomicInteger();

    public StateThread(WeirConfig config, TopologyModel model, ClientConfigs clients, Path instanceDir,
                        RocksDbResources rocksDb, MeterRegistry registry, Tags tags) {
        this.config = config;
        this.model = model;
        this.clients = clients;
        this.instanceDir = instanceDir;
        this.rocksDb = rocksDb;
        this.registry = registry;
        this.tags = tags;
        this.thread = new Thread(this::run, clients.threadName(0).replaceFirst("-0$", "") + "-state");
        this.thread.setDaemon(true);
        Gauge.builder("weir.standby.tasks", standbyCount, java.util.concurrent.atomic.AtomicInteger::get)
                .description("standby tasks (warm-ups included) this instance keeps").tags(tags).register(registry);
        Gauge.builder("weir.warmup.tasks", warmupCount, java.util.concurrent.atomic.AtomicInteger::get)
                .description("standby tasks placed here to take over a task once caught up").tags(tags)
                .register(registry);
    }

    /** Starts the state thread; {@code tasks} tells which tasks are active on this instance. */
    public void start(InstanceTaskRegistry tasks) {
        this.taskRegistry = tasks;
        thread.start();
    }

    // ---- called by stream threads ---------------------------------------------------------------

    /** Restores {@code stores} (changelog to store) of a new active task; poll the ticket. */
    public RestoreTicket restore(TaskId task, Map<TopicPartition, BytesStore> stores,
                          Function<TopicPartition, RestoreListener> listeners) {
        RestoreTicket ticket = new RestoreTicket(task, stores.keySet());
        commands.add(() -> {
            restores().add(stores, listeners);
            restoring.add(ticket);
            settleRestores();
        });
        return ticket;
    }

    /** Stops a restore (its task left the thread); its stores are not written once this returns. */
    public void cancel(RestoreTicket ticket) {
        call(() -> {
            if (restoring.remove(ticket) && restores != null) {
                restores.remove(ticket.changelogs);
            }
        });
    }

    /** Closes the standby copies of tasks about to become active here; returns once they are closed. */
    void release(Collection<TaskId> ids) {
        Set<TaskId> wanted = Set.copyOf(ids);
        Map<TaskId, Boolean> view = standbyView;
        if (wanted.stream().noneMatch(view::containsKey)) {
            // No copy to hand over (the caller marked the tasks active first, so none will open:
            // see maintainStandbys); do not wait for the state thread in a rebalance callback.
            return;
        }
        call(() -> {
            for (TaskId id : wanted) {
                StandbyTask standby = standbys.remove(id);
                if (standby != null) {
                    closeStandby(standby, "it becomes active here");
                }
            }
        });
    }

    /** A stream thread's standby and warm-up tasks from the latest assignment. */
    public void assign(int threadIndex, MemberAssignment assignment) {
        commands.add(() -> {
            assigned.put(threadIndex, assignment);
            lastProbeNanos = System.nanoTime();
            reconcileStandbys();
        });
    }

    /** Re-checks which standbys should run (an active task left this instance). */
    void reconcile() {
        commands.add(this::reconcileStandbys);
    }

    /** The standbys' stores' offset sums, for the assignor. */
    Map<TaskId, Long> standbyOffsetSums() {
        return Map.copyOf(standbyOffsets);
    }

    /** The standby tasks ({@code warmupsOnly}: the warm-ups among them), sorted; for {@code /info}. */
    public List<String> standbyTasks(boolean warmupsOnly) {
        Map<TaskId, Boolean> view = standbyView;
        List<String> ids = new ArrayList<>();
        view.forEach((id, warmup) -> {
            if (warmup || !warmupsOnly) {
                ids.add(id.toString());
            }
        });
        return ids;
    }

    /** Why stream thread {@code threadIndex} should rebalance now, or null; asking clears it. */
    public String takeRebalanceRequest(int threadIndex) {
        return rebalanceRequests.remove(threadIndex);
    }

    // ---- the state thread -----------------------------------------------------------------------

    private void run() {
        while (running) {
            try {
                runCommands();
                if (restores != null && !restores.isEmpty()) {
                    restores.step(STEP); // actives first: standbys wait
                    settleRestores();
                } else if (tails != null && !tails.isEmpty() && System.nanoTime() - standbysFailedUntil >= 0) {
                    // A command (an active task's restore, a standby to hand over) ends the slice early:
                    // a task waiting for it holds its partitions' output.
                    tails.step(STEP, () -> !commands.isEmpty());
                    maintainStandbys();
                } else {
                    Runnable next = commands.poll(STEP.toMillis(), TimeUnit.MILLISECONDS);
                    if (next != null) {
                        next.run();
                    }
                    maintainStandbys();
                }
                maybeCleanUp();
            } catch (InterruptedException e) {
                break;
            } catch (RuntimeException e) {
                onFailure(e);
            }
        }
        shutDown();
    }

    private void runCommands() {
        Runnable c;
        while ((c = commands.poll()) != null) {
            c.run();
        }
    }

    /** Marks the restores whose stores are all caught up. */
    private void settleRestores() {
        for (RestoreTicket t : List.copyOf(restoring)) {
            if (t.changelogs.stream().noneMatch(restores::isRestoring)) {
                restoring.remove(t);
                t.done = true;
            }
        }
    }

    /**
     * An active restore failing fails its tasks (and with them the instance, as a restore on a
     * stream thread would); a standby failing is logged and its standbys start over later.
     */
    private void onFailure(RuntimeException e) {
        if (!restoring.isEmpty()) {
            for (RestoreTicket t : restoring) {
                t.failure = e;
            }
            restoring.clear();
            closeQuietly(restores);
            restores = null;
            return;
        }
        log.warn("standby tasks stopped after an error; retrying in {} s: {}", FAILURE_RETRY.toSeconds(),
                e.toString());
        for (StandbyTask s : new ArrayList<>(standbys.values())) {
            closeStandby(s, null);
        }
        standbys.clear();
        closeQuietly(tails);
        tails = null;
        standbysFailedUntil = System.nanoTime() + FAILURE_RETRY.toNanos();
        reconcileStandbys();
    }

    // ---- standbys ---------------------------------------------------------------------------------

    /** Opens the standbys the assignment wants and closes those it no longer wants. */
    private void reconcileStandbys() {
        Map<TaskId, Integer> wanted = new TreeMap<>();
        Set<TaskId> warmups = new java.util.HashSet<>();
        assigned.forEach((threadIndex, a) -> {
            for (TaskId id : a.standbys()) {
                if (!taskRegistry.isActive(id) && !standbySpecs(id).isEmpty()) {
                    wanted.putIfAbsent(id, threadIndex);
                }
            }
            warmups.addAll(a.warmups());
        });
        for (StandbyTask s : new ArrayList<>(standbys.values())) {
            if (!wanted.containsKey(s.id)) {
                standbys.remove(s.id);
                closeStandby(s, null);
            }
        }
        wanted.forEach((id, threadIndex) -> {
            StandbyTask s = standbys.computeIfAbsent(id, k -> new StandbyTask(k, registry, tags));
            s.threadIndex = threadIndex;
            s.warmup = warmups.contains(id);
        });
        publishStandbys();
    }

    /** Makes the standby set visible to other threads (meters, {@code /info}). */
    private void publishStandbys() {
        standbyCount.set(standbys.size());
        warmupCount.set((int) standbys.values().stream().filter(s -> s.warmup).count());
        Map<TaskId, Boolean> view = new TreeMap<>();
        standbys.values().forEach(s -> view.put(s.id, s.warmup));
        standbyView = java.util.Collections.unmodifiableMap(view);
    }

    private List<StoreSpec> standbySpecs(TaskId id) {
        if (id.subtopology() >= model.subtopologies().size()) {
            return List.of();
        }
        return model.storesOf(model.subtopologies().get(id.subtopology())).stream()
                .filter(s -> s.persistent() && s.logged()).toList();
    }

    /** Opens standbys whose stores are free, publishes lags and offsets, flushes, asks for rebalances. */
    private void maintainStandbys() {
        if (standbys.isEmpty() || System.nanoTime() - standbysFailedUntil < 0) {
            return;
        }
        long now = System.nanoTime();
        for (StandbyTask s : new ArrayList<>(standbys.values())) {
            if (taskRegistry.isActive(s.id)) {
                // Became active here while its standby was being placed: the active's stores win.
                standbys.remove(s.id);
                closeStandby(s, "it became active here");
            } else if (s.stores == null && now - s.retryAtNanos >= 0) {
                open(s);
            }
        }
        boolean flush = now - lastFlushNanos >= config.stateFlushInterval().toNanos();
        boolean anyWarmup = false;
        for (StandbyTask s : standbys.values()) {
            if (s.stores == null) {
                continue;
            }
            long lag = s.updateLag(tails, now);
            standbyOffsets.put(s.id, s.stores.changelogOffsetSum());
            if (flush) {
                s.stores.flushNow();
            }
            if (s.warmup) {
                anyWarmup = true;
                if (!s.promotionRequested) {
                    boolean caughtUp = lag >= 0 && lag <= config.acceptableRecoveryLag();
                    s.caughtUpSinceNanos = !caughtUp ? 0 : s.caughtUpSinceNanos != 0 ? s.caughtUpSinceNanos : now;
                    s.lastLag = lag;
                }
            }
        }
        if (flush) {
            lastFlushNanos = now;
        }
        requestPromotions(now);
        if (anyWarmup && now - lastProbeNanos >= config.probingRebalanceInterval().toNanos()) {
            lastProbeNanos = now;
            StandbyTask first = standbys.values().stream().filter(s -> s.warmup).findFirst().orElseThrow();
            rebalanceRequests.putIfAbsent(first.threadIndex, "probing the progress of warm-up tasks");
        }
    }

    /**
     * Asks for the rebalance that moves caught-up warm-ups here: once every warm-up of this instance
     * is caught up, or {@link #PROMOTION_BATCH_WAIT} after the first one was. Every rebalance holds
     * every task of the group for a moment (two rounds: the old owners revoke, then the new ones get
     * the tasks), so warm-ups that catch up within a short time of each other move in one rebalance
     * rather than in one each.
     */
    private void requestPromotions(long now) {
        List<StandbyTask> waiting = new ArrayList<>();
        boolean allCaughtUp = true;
        long firstCaughtUp = Long.MAX_VALUE;
        for (StandbyTask s : standbys.values()) {
            if (!s.warmup || s.promotionRequested) {
                continue;
            }
            if (s.stores == null || s.caughtUpSinceNanos == 0) {
                allCaughtUp = false;
            } else {
                waiting.add(s);
                firstCaughtUp = Math.min(firstCaughtUp, s.caughtUpSinceNanos);
            }
        }
        if (waiting.isEmpty() || !allCaughtUp && now - firstCaughtUp < PROMOTION_BATCH_WAIT.toNanos()) {
            return;
        }
        for (StandbyTask s : waiting) {
            s.promotionRequested = true;
            String reason = "warm-up of task " + s.id + " caught up (" + s.lastLag + " records behind)";
            rebalanceRequests.merge(s.threadIndex, reason, (a, b) -> a + ", " + b);
            log.info("{}; rebalancing to move it here", reason);
        }
    }

    private void open(StandbyTask s) {
        TaskStores stores;
        try {
            stores = TaskStores.open(standbySpecs(s.id), s.id, instanceDir.resolve(s.id.toString()),
                    new TaskStores.Options(config.applicationId(), rocksDb, config.stateFlushInterval(), 0,
                            System::currentTimeMillis, taskRegistry.changelogTopicIds()), Duration.ZERO);
        } catch (io.weir.errors.StoreLockedException e) {
            s.retryAtNanos = System.nanoTime() + LOCK_RETRY.toNanos(); // its active here is still closing
            return;
        }
        s.stores = stores;
        Map<TopicPartition, BytesStore> byChangelog = new HashMap<>();
        stores.all().forEach(store -> byChangelog.put(store.changelog(), store.committed()));
        s.bind(byChangelog.keySet(), stores);
        tails().tail(byChangelog, tp -> RestoreListener.NONE);
        log.info("standby{} task {} started from changelog offsets {}", s.warmup ? " (warm-up)" : "", s.id,
                s.describeOffsets());
    }

    private void closeStandby(StandbyTask s, String why) {
        if (s.stores != null) {
            if (tails != null) {
                tails.remove(s.changelogs);
            }
            try {
                s.stores.close();
            } catch (RuntimeException e) {
                log.warn("closing the stores of standby task {} failed: {}", s.id, e.toString());
            }
            s.stores = null;
            if (why != null) {
                log.info("standby task {} closed: {}", s.id, why);
            }
        }
        s.removeMeters();
        standbyOffsets.remove(s.id);
        publishStandbys();
    }

    /**
     * Deletes the directories of tasks neither active nor standby here and unused for
     * {@code state.cleanup.delay.ms}. On this thread, so it cannot race with a stream thread
     * opening the task: {@link InstanceTaskRegistry#activating} marks the task active and then waits for
     * this thread ({@link #release}) before the stores open.
     */
    private void maybeCleanUp() {
        long now = System.nanoTime();
        if (now - lastCleanupNanos < CLEANUP_CHECK.toNanos()) {
            return;
        }
        lastCleanupNanos = now;
        long cutoff = System.currentTimeMillis() - config.stateCleanupDelay().toMillis();
        try (java.util.stream.Stream<Path> dirs = java.nio.file.Files.list(instanceDir)) {
            for (Path dir : (Iterable<Path>) dirs::iterator) {
                TaskId id = taskIdOf(dir);
                if (id == null || taskRegistry.isActive(id) || standbys.containsKey(id)
                        || lastUsedMillis(dir) > cutoff) {
                    continue;
                }
                io.weir.state.rocksdb.RocksDbStore.deleteRecursively(dir);
                log.info("deleted the local state of task {}: not run on this instance for more than {} s"
                        + " (state.cleanup.delay.ms)", id, config.stateCleanupDelay().toSeconds());
            }
        } catch (java.io.IOException e) {
            log.debug("cannot list {} for clean-up", instanceDir, e);
        }
    }

    private static TaskId taskIdOf(Path dir) {
        if (!java.nio.file.Files.isDirectory(dir)) {
            return null;
        }
        try {
            return TaskId.parse(dir.getFileName().toString());
        } catch (IllegalArgumentException notATask) {
            return null;
        }
    }

    /** When the task last wrote its checkpoint (on every flush and close), else when its directory changed. */
    private static long lastUsedMillis(Path dir) {
        try {
            Path checkpoint = dir.resolve(".checkpoint");
            return java.nio.file.Files.getLastModifiedTime(java.nio.file.Files.exists(checkpoint) ? checkpoint : dir)
                    .toMillis();
        } catch (java.io.IOException e) {
            return Long.MAX_VALUE; // cannot tell: keep it
        }
    }

    // ---- clients ----------------------------------------------------------------------------------

    private RestoreSession restores() {
        if (restores == null) {
            restoreConsumer = newConsumer("restore", false);
            restores = newSession(restoreConsumer);
        }
        return restores;
    }

    private RestoreSession tails() {
        if (tails == null) {
            standbyConsumer = newConsumer("standby", false);
            tails = newSession(standbyConsumer);
        }
        return tails;
    }

    private RestoreSession newSession(KafkaConsumer<byte[], byte[]> consumer) {
        // A store may be ahead of the read_committed end while a dead producer's transaction holds
        // the end back, and a changelog's last transaction may be committed without its markers
        // yet; both resolve within the transaction timeout, so wait that long before concluding
        // the changelog was recreated (and wiping the store) or restoring short of the log end.
        return new RestoreSession(consumer, STEP, config.transactionTimeout().plusSeconds(5), this::logEnds);
    }

    private KafkaConsumer<byte[], byte[]> newConsumer(String role, boolean readUncommitted) {
        Map<String, Object> c = clients.plainConsumer("state-" + role);
        if (readUncommitted) {
            c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        }
        return new KafkaConsumer<>(c);
    }

    /** The log ends (high watermarks) of {@code changelogs}, unresolved transactions included. */
    private Map<TopicPartition, Long> logEnds(Set<TopicPartition> changelogs) {
        if (logEndConsumer == null) {
            logEndConsumer = newConsumer("log-end", true);
        }
        return logEndConsumer.endOffsets(changelogs);
    }

    // ---- calls and shutdown ----------------------------------------------------------------------

    /** Runs {@code action} on the state thread and waits for it; inline if the thread has ended. */
    private void call(Runnable action) {
        if (!thread.isAlive() || Thread.currentThread() == thread) {
            synchronized (this) {
                action.run();
            }
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        commands.add(() -> {
            try {
                action.run();
                done.complete(null);
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        try {
            done.get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the state thread", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the state thread did not answer within " + CALL_TIMEOUT_SECONDS + " s");
        }
    }

    /** Stops the thread; the standbys' stores are closed (call after the stream threads stopped). */
    @Override
    public void close() {
        running = false;
        commands.add(() -> { });
        try {
            thread.join(TimeUnit.SECONDS.toMillis(CALL_TIMEOUT_SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!thread.isAlive() && thread.getState() == Thread.State.NEW) {
            shutDown();
        }
    }

    private void shutDown() {
        for (StandbyTask s : new ArrayList<>(standbys.values())) {
            closeStandby(s, null);
        }
        standbys.clear();
        for (RestoreTicket t : restoring) {
            t.failure = new IllegalStateException("the instance is shutting down");
        }
        restoring.clear();
        closeQuietly(restores);
        closeQuietly(tails);
        restores = null;
        tails = null;
        for (KafkaConsumer<byte[], byte[]> c : new KafkaConsumer[] {restoreConsumer, standbyConsumer, logEndConsumer}) {
            if (c != null) {
                try {
                    c.close(Duration.ofSeconds(5));
                } catch (RuntimeException e) {
                    log.debug("closing a state consumer failed", e);
                }
            }
        }
        restoreConsumer = null;
        standbyConsumer = null;
        logEndConsumer = null;
    }

    private static void closeQuietly(RestoreSession session) {
        if (session != null) {
            try {
                session.close();
            } catch (RuntimeException e) {
                log.debug("closing a restore session failed", e);
            }
        }
    }
}
