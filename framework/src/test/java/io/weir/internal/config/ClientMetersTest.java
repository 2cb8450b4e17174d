package io.weir.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.weir.testing.PrometheusText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Metered clients put their Kafka metrics into the registry, tagged with their thread and role,
 * and take them out whichever way they close; one scheduler thread serves every client. No broker:
 * a client registers its metrics when it is built.
 */
class ClientMetersTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    /** The scheduler thread's name, this test's own: a closed scheduler's thread may outlive its test a moment. */
    private final String scheduler = "test-client-metrics-" + java.util.UUID.randomUUID();

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ClientMeters meters =
            new ClientMeters(registry, Tags.of("application", "app", "instance", "i1"), scheduler);
    private final KafkaClients kafka = KafkaClients.metered(meters);

    @AfterEach
    void close() {
        meters.close();
        registry.close();
    }

    @Test
    void clientsMetricsAppearTaggedWithThreadAndRoleAndLeaveWithTheClient() {
        KafkaConsumer<byte[], byte[]> consumer =
                kafka.consumer(ClientRole.ofThread("consumer", "app-i1-0"), consumer());
        KafkaProducer<byte[], byte[]> producer =
                kafka.producer(ClientRole.ofThread("producer", "app-i1-0"), producer());
        Admin admin = kafka.admin(ClientRole.ofInstance("admin"), admin());

        await().atMost(WAIT).until(() -> roles().containsAll(Set.of("consumer", "producer", "admin")));
        Meter lag = registry.find("kafka.consumer.fetch.manager.records.lag.max")
                .tag("role", "consumer")
                .meter();
        assertThat(lag).isNotNull();
        assertThat(lag.getId().getTags())
                .extracting(t -> t.getKey() + "=" + t.getValue())
                .contains("application=app", "instance=i1", "thread=app-i1-0", "role=consumer");
        assertThat(registry.find("kafka.producer.txn.commit.time.ns.total")
                        .tag("thread", "app-i1-0")
                        .meter())
                .isNotNull();
        assertThat(registry.find("kafka.admin.client.request.total")
                        .tag("thread", "")
                        .meter())
                .isNotNull();

        producer.close(Duration.ofSeconds(1)); // as a stream thread drops a fenced producer
        assertThat(roles()).doesNotContain("producer").contains("consumer", "admin");
        consumer.close();
        admin.close(Duration.ofSeconds(1));
        assertThat(kafkaMeters()).isEmpty();
        assertThat(meters.bound()).isZero();
    }

    @Test
    void prometheusExportsThreadAndInstanceClientsOfOneFamilyWithTheSameLabels() {
        kafka.consumer(ClientRole.ofThread("consumer", "app-i1-0"), consumer());
        kafka.consumer(ClientRole.ofInstance("liveness-consumer"), consumer("liveness"));

        await().atMost(WAIT).until(() -> roles().containsAll(Set.of("consumer", "liveness-consumer")));
        List<PrometheusText.Sample> fetchLatency = PrometheusText.parse(registry.scrape()).stream()
                .filter(s -> s.name().equals("kafka_consumer_fetch_manager_fetch_latency_avg"))
                .toList();
        assertThat(fetchLatency)
                .extracting(s -> s.labels().get("role") + "@" + s.labels().get("thread"))
                .containsExactlyInAnyOrder("consumer@app-i1-0", "liveness-consumer@");
        assertThat(fetchLatency.get(0).labels().keySet())
                .containsExactlyInAnyOrderElementsOf(
                        fetchLatency.get(1).labels().keySet())
                .contains("application", "instance", "thread", "role", "client_id");
    }

    @Test
    void oneSchedulerThreadServesEveryClientAndClosingTheMetersRemovesWhatIsStillBound() {
        List<KafkaConsumer<byte[], byte[]>> consumers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            consumers.add(kafka.consumer(ClientRole.ofThread("consumer", "app-i1-" + i), consumer("c" + i)));
        }
        await().atMost(WAIT).until(() -> threadsOf().size() == 8);
        assertThat(liveThreads(scheduler)).isEqualTo(1);
        assertThat(liveThreads("micrometer-kafka-metrics")).isZero();

        meters.close(); // as the instance does after a thread that did not stop
        assertThat(kafkaMeters()).isEmpty();
        assertThat(meters.bound()).isZero();
        consumers.forEach(KafkaConsumer::close);
        await().atMost(WAIT).until(() -> liveThreads(scheduler) == 0);
    }

    @Test
    void aClientMadeAfterTheMetersClosedIsUnmeteredAndWorks() {
        meters.close();
        KafkaConsumer<byte[], byte[]> late = kafka.consumer(ClientRole.ofThread("consumer", "app-i1-0"), consumer());
        late.close();
        assertThat(kafkaMeters()).isEmpty();
    }

    @Test
    void aClosedScheduleNeverRunsAgainAndLeavesTheSharedSchedulerRunning() throws Exception {
        ScheduledThreadPoolExecutor shared = new ScheduledThreadPoolExecutor(1);
        shared.setRemoveOnCancelPolicy(true);
        try {
            Object lock = new Object();
            BindingSchedule schedule = new BindingSchedule(shared, lock);
            AtomicInteger runs = new AtomicInteger();
            schedule.scheduleAtFixedRate(runs::incrementAndGet, 0, 5, TimeUnit.MILLISECONDS);
            await().atMost(WAIT).until(() -> runs.get() >= 2);

            schedule.shutdownNow();
            int after = runs.get();
            assertThat(shared.getQueue()).isEmpty();
            assertThat(shared.isShutdown()).isFalse();
            assertThat(shared.schedule(() -> "still serving", 0, TimeUnit.MILLISECONDS)
                            .get())
                    .isEqualTo("still serving");
            assertThat(runs.get()).isEqualTo(after);
            schedule.execute(runs::incrementAndGet); // a task given after the close is dropped
            assertThat(shared.getQueue()).isEmpty();
            assertThat(schedule.isShutdown()).isTrue();
        } finally {
            shared.shutdownNow();
        }
    }

    @Test
    void unmeteredClientsRegisterNothing() {
        try (KafkaConsumer<byte[], byte[]> c =
                KafkaClients.unmetered().consumer(ClientRole.ofInstance("tool-consumer"), consumer())) {
            assertThat(c.getClass()).isEqualTo(KafkaConsumer.class);
        }
        assertThat(kafkaMeters()).isEmpty();
    }

    private Set<String> roles() {
        return kafkaMeters().stream().map(m -> m.getId().getTag("role")).collect(Collectors.toSet());
    }

    private Set<String> threadsOf() {
        return kafkaMeters().stream().map(m -> m.getId().getTag("thread")).collect(Collectors.toSet());
    }

    private List<Meter> kafkaMeters() {
        return registry.getMeters().stream()
                .filter(m -> m.getId().getName().startsWith("kafka."))
                .toList();
    }

    private static long liveThreads(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(name) && t.isAlive())
                .count();
    }

    private static Map<String, Object> consumer() {
        return consumer("c");
    }

    private static Map<String, Object> consumer(String id) {
        return Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:1",
                ConsumerConfig.CLIENT_ID_CONFIG,
                "app-i1-" + id,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class);
    }

    private static Map<String, Object> producer() {
        return Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1",
                ProducerConfig.CLIENT_ID_CONFIG, "app-i1-0-producer",
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "app-i1-0",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    }

    private static Map<String, Object> admin() {
        return Map.of("bootstrap.servers", "localhost:1", "client.id", "app-i1-admin");
    }
}
