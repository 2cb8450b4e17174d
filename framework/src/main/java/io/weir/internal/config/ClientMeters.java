package io.weir.internal.config;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka clients' own metrics (fetch latency and records lag, request rates and errors, the
 * producer's transaction times, ...) of an instance's clients, bound to its registry through
 * Micrometer's {@code KafkaClientMetrics} and tagged with {@code application}, {@code instance},
 * {@code thread} and {@code role} ({@link ClientRole}) besides Kafka's own tags.
 *
 * <p>What it guarantees: a client's meters leave the registry when its {@link Binding} closes
 * ({@link KafkaClients} closes it with the client), and every binding still open when this closes
 * (a client whose thread did not stop); nothing of a closed binding runs again. One scheduler
 * thread, whatever the number of clients, binds each client's meters (off the creating thread:
 * a client's start waits for nothing) and refreshes them every {@link #REFRESH}, because Kafka adds
 * metrics as a client meets partitions and brokers.
 *
 * <p>Threads: any.
 */
public final class ClientMeters implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ClientMeters.class);

    /**
     * How often a client's meters are matched with its metrics: a partition newly assigned gets its
     * series (its {@code records-lag}) within this long. Micrometer's default is a minute; matching
     * costs a comparison of the client's metric names while nothing changed.
     */
    static final Duration REFRESH = Duration.ofSeconds(10);

    private final MeterRegistry registry;
    private final Tags instanceTags;
    private final ScheduledThreadPoolExecutor scheduler;
    private final Set<Binding> open = ConcurrentHashMap.newKeySet();

    /**
     * @param instanceTags {@code application} and {@code instance}
     * @param threadName the name of the scheduler's thread
     */
    public ClientMeters(MeterRegistry registry, Tags instanceTags, String threadName) {
        this.registry = registry;
        this.instanceTags = instanceTags;
        this.scheduler = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        scheduler.setRemoveOnCancelPolicy(true); // a closed client's refresh leaves the queue at once
    }

    Binding bind(Consumer<?, ?> consumer, ClientRole role) {
        return bind(role, (tags, schedule) -> new KafkaClientMetrics(consumer, tags, schedule, REFRESH));
    }

    Binding bind(Producer<?, ?> producer, ClientRole role) {
        return bind(role, (tags, schedule) -> new KafkaClientMetrics(producer, tags, schedule, REFRESH));
    }

    Binding bind(AdminClient admin, ClientRole role) {
        return bind(role, (tags, schedule) -> new KafkaClientMetrics(admin, tags, schedule, REFRESH));
    }

    private Binding bind(ClientRole role, BinderFactory factory) {
        Binding b = new Binding(instanceTags.and("thread", role.thread()).and("role", role.name()));
        open.add(b);
        b.start(factory);
        return b;
    }

    /** The clients bound now. */
    int bound() {
        return open.size();
    }

    /** Removes the meters of every client still bound and stops the scheduler. */
    @Override
    public void close() {
        List.copyOf(open).forEach(Binding::close);
        scheduler.shutdownNow();
    }

    private interface BinderFactory {
        KafkaClientMetrics make(Tags tags, ScheduledExecutorService schedule);
    }

    /** One client's meters; {@link #close()} removes them. */
    final class Binding implements AutoCloseable {
        private final Object lock = new Object();
        private final Tags tags;
        private final BindingSchedule schedule;
        /** Guarded by {@code lock}. */
        private KafkaClientMetrics binder;

        private Binding(Tags tags) {
            this.tags = tags;
            this.schedule = new BindingSchedule(scheduler, lock);
        }

        private void start(BinderFactory factory) {
            try {
                // Runs under the lock, unless the client closed first: then never.
                schedule.execute(() -> {
                    try {
                        binder = factory.make(tags, schedule);
                        binder.bindTo(registry);
                    } catch (RuntimeException e) {
                        log.warn("the Kafka client metrics of {} could not be bound: {}", tags, e.toString());
                    }
                });
            } catch (RejectedExecutionException closed) {
                // The instance closed its meters (a thread that did not stop makes a client after): unmetered.
                log.debug("the Kafka client metrics of {} are not bound: the instance's meters are closed", tags);
            }
        }

        /** Removes the client's meters and stops their refresh; idempotent. */
        @Override
        public void close() {
            synchronized (lock) {
                schedule.shutdownNow();
                if (binder != null) {
                    binder.close();
                    binder = null;
                }
            }
            open.remove(this);
        }
    }
}
