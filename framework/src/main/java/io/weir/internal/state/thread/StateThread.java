package io.weir.internal.state.thread;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.weir.common.internal.Worker;
import io.weir.config.WeirConfig;
import io.weir.internal.assign.MemberHooks.MemberAssignment;
import io.weir.internal.cluster.ClientConfigs;
import io.weir.internal.state.StoreHandOver;
import io.weir.internal.state.restore.ActiveRestores;
import io.weir.internal.state.restore.RestoreTicket;
import io.weir.internal.state.restore.StateConsumers;
import io.weir.internal.state.restore.StateDirCleanup;
import io.weir.internal.state.standby.Standbys;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.TopologyModel;
import io.weir.processor.TaskId;
import io.weir.state.changelog.RestoreListener;
import io.weir.state.changelog.RestoreSession;
import io.weir.state.changelog.SourceRecords;
import io.weir.state.internal.BytesStore;
import io.weir.state.rocksdb.RocksDbResources;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The instance's state thread ({@code <app>-<instance>-state}). It restores the stores of new
 * active tasks from their changelogs ({@link ActiveRestores}), and keeps standby and warm-up copies
 * of other instances' tasks following their changelogs ({@link Standbys}), so stream threads never
 * block on a restore: a stream thread hands a task's stores over ({@link #restore}), keeps the task
 * paused, and lets it process once the restore is done. It also deletes the state of tasks no
 * longer run here ({@link StateDirCleanup}).
 *
 * <p>Active restores come first: standbys wait while one is under way, and a command waiting (an
 * active task's restore, a standby to hand over) ends a standby slice early. An active restore
 * failing fails its tasks; a standby failing is logged and the standbys start over later.
 *
 * <p>Threads: the public methods are for any thread; they queue a command for the state thread,
 * and {@link #release} and {@link #cancel} block until it has run (the thread answers within about
 * 100 ms, or once a store's in-flight batch is applied). Everything else runs on the state thread.
 */
public final class StateThread implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StateThread.class);
    /** How long the thread works on one thing (restores, standbys, waiting) before it looks at its commands. */
    static final Duration STEP = StateConsumers.STEP;

    private static final long CALL_TIMEOUT_SECONDS = 60;

    private final String threadName;
    private volatile Worker worker;
    private boolean prepared;
    private final LinkedBlockingQueue<Runnable> commands = new LinkedBlockingQueue<>();
    private final StateConsumers consumers;
    private final ActiveRestores restores;
    private final Standbys standbys;
    private final StateDirCleanup cleanup;
    private volatile InstanceTaskRegistry taskRegistry;
    /** The changelog topics of the instance's logged stores; empty: no restore will ever come. */
    private final Set<String> changelogs;

    /** @param localStores where standby copies are offered to queries that accept their lag */
    public StateThread(
            WeirConfig config,
            TopologyModel model,
            ClientConfigs clients,
            Path instanceDir,
            RocksDbResources rocksDb,
            MeterRegistry registry,
            Tags tags,
            io.weir.internal.state.LocalStores localStores) {
        this.threadName = clients.threadName(0).replaceFirst("-0$", "") + "-state";
        this.consumers = new StateConsumers(
                clients, config.transactionTimeout(), RestoreSession.BulkLoad.from(config.restoreBulkMinRecords()));
        this.restores = new ActiveRestores(consumers::restoreSession, consumers::startOffsets);
        this.standbys = new Standbys(config, model, instanceDir, rocksDb, registry, tags, consumers, localStores);
        this.changelogs = model.stores().values().stream()
                .filter(StoreSpec::logged)
                .map(store -> store.changelogTopic(config.applicationId()))
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
        this.cleanup = new StateDirCleanup(
                instanceDir,
                config.stateCleanupDelay(),
                id -> taskRegistry.isActive(id) || standbys.has(id),
                System::currentTimeMillis);
    }

    /** Starts the state thread; {@code tasks} tells which tasks are active on this instance. */
    public void start(InstanceTaskRegistry tasks) {
        this.taskRegistry = tasks;
        standbys.bind(tasks::isActive, tasks.changelogTopicIds());
        // Not interrupted: a restore or a standby writes its stores between polls, and a no-op
        // command wakes the thread from its wait for commands.
        worker = Worker.named(threadName)
                .interruptOnStop(false)
                .wakeUp(() -> commands.add(() -> {}))
                .onExit(this::shutDown)
                .joinTimeout(Duration.ofSeconds(CALL_TIMEOUT_SECONDS))
                .loop(self -> step());
    }

    // ---- called by stream threads ---------------------------------------------------------------

    /** Restores {@code stores} (changelog to store) of a new active task; poll the ticket. */
    public RestoreTicket restore(
            TaskId task, Map<TopicPartition, BytesStore> stores, Function<TopicPartition, RestoreListener> listeners) {
        return restore(task, stores, Map.of(), listeners);
    }

    /**
     * As {@link #restore(TaskId, Map, Function)}; the partitions of {@code sources} are source
     * topics serving as changelogs, restored up to the group's committed offset of the partition
     * (looked up on the state thread) through their {@link SourceRecords}.
     */
    public RestoreTicket restore(
            TaskId task,
            Map<TopicPartition, BytesStore> stores,
            Map<TopicPartition, SourceRecords> sources,
            Function<TopicPartition, RestoreListener> listeners) {
        RestoreTicket ticket = new RestoreTicket(task, stores.keySet());
        Map<TopicPartition, SourceRecords> bounded = Map.copyOf(sources);
        commands.add(() -> restores.add(ticket, stores, listeners, bounded));
        return ticket;
    }

    /** Stops a restore (its task left the thread); its stores are not written once this returns. */
    public void cancel(RestoreTicket ticket) {
        call(() -> restores.cancel(ticket));
    }

    /**
     * Ends the standby copies of tasks about to become active here; returns their open stores,
     * once the copies no longer use them.
     */
    StoreHandOver release(Collection<TaskId> ids) {
        Set<TaskId> wanted = Set.copyOf(ids);
        if (!standbys.holdsAny(wanted)) {
            // No copy to hand over (the caller marked the tasks active first, so none will open:
            // see Standbys.maintain); do not wait for the state thread in a rebalance callback.
            return StoreHandOver.NONE;
        }
        // Not taken if the caller gave up waiting: closed, or their directories would stay locked.
        return call(() -> standbys.release(wanted), StoreHandOver::closeRest);
    }

    /**
     * A stream thread's standby and warm-up tasks from the latest assignment, and the tasks that
     * assignment makes active on this instance (an open standby of one waits for {@link #release}).
     */
    public void assign(int threadIndex, MemberAssignment assignment, Set<TaskId> activeHere) {
        Set<TaskId> active = Set.copyOf(activeHere);
        commands.add(() -> standbys.assign(threadIndex, assignment, active));
    }

    /** Re-checks which standbys should run (an active task left this instance). */
    void reconcile() {
        commands.add(standbys::reconcile);
    }

    /** The standbys' stores' offset sums, for the assignor. */
    Map<TaskId, Long> standbyOffsetSums() {
        return standbys.offsetSums();
    }

    /** The standby tasks ({@code warmupsOnly}: the warm-ups among them), sorted; for {@code /info}. */
    public List<String> standbyTasks(boolean warmupsOnly) {
        return standbys.ids(warmupsOnly);
    }

    /** Why stream thread {@code threadIndex} should rebalance now, or null; asking clears it. */
    public String takeRebalanceRequest(int threadIndex) {
        return standbys.takeRebalanceRequest(threadIndex);
    }

    // ---- the state thread -----------------------------------------------------------------------

    /** One pass of the state thread: its commands, then a slice of restores, standbys or waiting. */
    private void step() throws InterruptedException {
        if (!prepared) {
            prepared = true;
            prepare();
        }
        try {
            runCommands();
            if (restores.underWay()) {
                // Actives first: standbys wait. A command ends the slice early: the next
                // task's restore joins this one instead of starting up to a slice later.
                restores.step(() -> !commands.isEmpty());
            } else if (standbys.canStep()) {
                // A command (an active task's restore, a standby to hand over) ends the slice early:
                // a task waiting for it holds its partitions' output.
                standbys.step(() -> !commands.isEmpty());
            } else {
                Runnable next = commands.poll(STEP.toMillis(), TimeUnit.MILLISECONDS);
                if (next != null) {
                    next.run();
                }
                standbys.maintain(() -> !commands.isEmpty());
            }
            cleanup.maybeCleanUp();
        } catch (RuntimeException e) {
            onFailure(e);
        }
    }

    /**
     * While the stream threads join their group: the first restore then starts without creating
     * its consumers first (a tenth of a second warm, more in a new JVM).
     */
    private void prepare() {
        if (changelogs.isEmpty()) {
            return;
        }
        try {
            restores.prepare();
            consumers.connect(changelogs);
        } catch (RuntimeException e) {
            // The first restore creates them again, and fails with what failed here.
            log.debug("the state consumers could not be created ahead of a restore", e);
        }
    }

    private void runCommands() {
        Runnable c;
        while ((c = commands.poll()) != null) {
            c.run();
        }
    }

    /**
     * An active restore failing fails its tasks (and with them the instance, as a restore on a
     * stream thread would); a standby failing is logged and its standbys start over later.
     */
    private void onFailure(RuntimeException e) {
        if (!restores.fail(e)) {
            standbys.fail(e);
        }
    }

    // ---- calls and shutdown ----------------------------------------------------------------------

    /** Runs {@code action} on the state thread and waits for it; inline if the thread has ended. */
    private void call(Runnable action) {
        call(
                () -> {
                    action.run();
                    return null;
                },
                result -> {});
    }

    /**
     * Runs {@code action} on the state thread and waits for its result; inline if the thread has
     * ended. A result that comes after the caller gave up goes to {@code abandoned}.
     */
    private <T> T call(Supplier<T> action, java.util.function.Consumer<T> abandoned) {
        Worker w = worker;
        if (w == null || !w.alive() || w.isCurrentThread()) {
            synchronized (this) {
                return action.get();
            }
        }
        CompletableFuture<T> done = new CompletableFuture<>();
        commands.add(() -> {
            try {
                done.complete(action.get());
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        try {
            return done.get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            done.thenAccept(abandoned);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the state thread", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            done.thenAccept(abandoned);
            throw new IllegalStateException("the state thread did not answer within " + CALL_TIMEOUT_SECONDS + " s");
        }
    }

    /** Stops the thread; the standbys' stores are closed (call after the stream threads stopped). */
    @Override
    public void close() {
        Worker w = worker;
        if (w == null) {
            shutDown(); // never started: nothing runs on a thread of its own
        } else {
            w.close(); // its last act closes the standbys, restores and consumers
        }
    }

    private void shutDown() {
        standbys.close();
        restores.close();
        consumers.close();
    }
}
