package io.weir.testdriver.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.weir.internal.cluster.ClientConfigs;
import io.weir.internal.config.KafkaClients;
import io.weir.internal.task.AsyncSignal;
import io.weir.internal.task.TopicLimits;
import io.weir.internal.thread.ActivationListener;
import io.weir.internal.thread.TaskManager;
import io.weir.internal.thread.ThreadContext;
import io.weir.internal.thread.ThreadHealth;
import io.weir.internal.thread.ThreadMetrics;
import io.weir.internal.thread.ThreadTasks;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.kafka.common.TopicPartition;

/**
 * The stream thread the driver plays: the thread's own {@link TaskManager}, wired to the in-memory
 * topics, the mock clients and the driver's clock, every partition a source reads assigned, and
 * its loop ({@link #run}) run on the caller's thread until nothing is left to do.
 */
final class DriverThread {

    /** Process–commit rounds one call may take before it is taken for a cycle that never settles. */
    private static final int MAX_ROUNDS = 10_000;

    static final String INSTANCE = "test-driver";

    /** How long one wait for a call in flight lasts before the loop looks again. */
    private static final long ASYNC_WAIT_MS = 100;

    private final DriverConsumer consumer;
    private final TaskManager manager;
    private final boolean waitForCalls;

    /** Assigns every partition a source reads; their tasks are created in task order. */
    DriverThread(
            DriverSetup setup,
            DriverTopics topics,
            DriverConsumer consumer,
            DriverStorage storage,
            MeterRegistry registry,
            Map<String, Object> globalStores,
            LongSupplier wallClock) {
        this.consumer = consumer;
        this.waitForCalls = setup.awaitCalls();
        ClientConfigs clients = new ClientConfigs(setup.config(), INSTANCE, KafkaClients.unmetered());
        ThreadContext ctx = new ThreadContext(
                setup.config(),
                setup.model(),
                INSTANCE,
                clients,
                new TopicLimits(topics::maxMessageBytes, topics::partitions, clients.maxRequestSize()),
                wallClock,
                new io.weir.internal.task.Backlog(),
                new io.weir.internal.task.InstanceCalls(),
                new ThreadContext.Shared(
                        registry,
                        storage.dir(),
                        storage.rocksDb(),
                        storage.localStores(),
                        null,
                        null,
                        null,
                        globalStores,
                        new io.weir.internal.query.Ownership(),
                        io.weir.internal.thread.GroupRejoins.none(),
                        setup.tracing()));
        String name = clients.threadName(0);
        ThreadMetrics metrics = new ThreadMetrics(registry, ctx.tags(), name, new ThreadHealth(name));
        storage.localStores()
                .bindEntries(registry, ctx.tags(), setup.model().stores().keySet());
        // Commits come when the driver asks (each pipe, or every commitEvery pipes), not by time.
        manager = new TaskManager(
                ctx,
                name,
                metrics,
                new ThreadTasks.Options(Long.MAX_VALUE, setup.storesInMemory()),
                new TaskManager.Plugins(
                        consumer.consumer(),
                        () -> new DriverProducer(topics, consumer.consumer(), wallClock),
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

    TaskManager manager() {
        return manager;
    }

    /**
     * What a stream thread's loop does, until nothing is left to do: fetch (the poll), then the
     * manager's step: finish restores, process, punctuate, and (if {@code commit}) commit. Records
     * a commit appended to repartition topics are fetched by their tasks in the next round.
     */
    void run(boolean commit) {
        for (int round = 0; ; round++) {
            if (round == MAX_ROUNDS) {
                throw new IllegalStateException("processing did not settle after " + MAX_ROUNDS + " rounds: the"
                        + " topology keeps consuming records it produces");
            }
            consumer.fetch();
            if (commit) {
                manager.requestCommit();
            }
            manager.step(() -> true);
            // A step may have work without records: calls held at the instance's bound may start
            // once another task's call finished.
            if (!manager.tasks().hasBuffered()
                    && !consumer.fetchable()
                    && !manager.tasks().asyncReady()) {
                AsyncSignal calls = manager.tasks().asyncSignal();
                if (!waitForCalls || calls.inFlight() == 0) {
                    return;
                }
                // Calls in flight finish on other threads: wait for one, apply it, go on. Every
                // attempt ends by its time-out, so this ends too.
                calls.await(ASYNC_WAIT_MS);
                round--; // waiting is not a round of records
            }
        }
    }
}
