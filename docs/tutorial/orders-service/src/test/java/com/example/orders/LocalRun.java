package com.example.orders;

import static com.example.orders.OrdersService.CUSTOMERS;
import static com.example.orders.OrdersService.ORDERS;
import static com.example.orders.OrdersService.ORDERS_PER_MINUTE;

import io.weir.WeirApp;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import io.weir.testkit.EmbeddedKafka;
import io.weir.testkit.KafkaTestClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The service on a Kafka broker started in this JVM: {@code mvn -q test-compile exec:exec}.
 * Creates the topics, writes six customers in three regions, then about ten orders a second, and
 * prints each minute's counts as a downstream {@code read_committed} consumer sees them, until
 * Ctrl-C. The service answers queries on {@code http://localhost:8080} meanwhile. The broker's data
 * and the service's state are deleted on exit.
 */
public final class LocalRun {

    private static final Map<String, Customer> CUSTOMER_ROWS = Map.of(
            "c-1", new Customer("Ada", "north"), "c-2", new Customer("Bob", "north"),
            "c-3", new Customer("Cleo", "south"), "c-4", new Customer("Dan", "south"),
            "c-5", new Customer("Eve", "west"), "c-6", new Customer("Fay", "west"));

    private LocalRun() {
    }

    /** Runs until Ctrl-C (SIGINT) or SIGTERM. */
    public static void main(String[] args) throws IOException {
        CountDownLatch stopRequested = new CountDownLatch(1);
        CountDownLatch cleanedUp = new CountDownLatch(1);
        // The JVM exits when its shutdown hooks return: this one waits until the service and the
        // broker are closed, so Ctrl-C stops them gracefully and leaves no files behind.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopRequested.countDown();
            try {
                cleanedUp.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        Path stateDir = Files.createTempDirectory("orders-service-");
        try (EmbeddedKafka kafka = EmbeddedKafka.start();
             KafkaTestClient client = KafkaTestClient.connect(kafka.bootstrapServers())) {
            client.createTopic(CUSTOMERS, 2, Map.of("cleanup.policy", "compact")); // also the table's changelog
            client.createTopic(ORDERS, 4);
            client.createTopic(ORDERS_PER_MINUTE, 2);
            List<ProducerRecord<byte[], byte[]>> customers = new ArrayList<>();
            CUSTOMER_ROWS.forEach((id, c) -> customers.add(new ProducerRecord<>(CUSTOMERS,
                    Serdes.strings().serialize(CUSTOMERS, id), Serdes.json(Customer.class).serialize(CUSTOMERS, c))));
            client.send(customers);
            try (WeirApp app = WeirApp.create(OrdersService.topology(), OrdersService.config()
                         .bootstrapServers(kafka.bootstrapServers())
                         .stateDir(stateDir)
                         .environment(Map.of())   // only the embedded broker, whatever WEIR_* is set
                         .build()).start();
                 KafkaConsumer<byte[], byte[]> counts = readCommitted(kafka.bootstrapServers())) {
                System.out.printf("Broker at %s; ten orders a second on '%s'; counts on '%s' once each minute"
                        + " is over (plus 10 s for late orders). Ctrl-C to stop.%n",
                        kafka.bootstrapServers(), ORDERS, ORDERS_PER_MINUTE);
                System.out.printf("Ask for this minute's counts so far: curl -s"
                        + " localhost:%d/stores/orders-per-minute/keys/north/windows%n", app.httpPort().orElseThrow());
                feedAndPrint(client, counts, app, stopRequested);
                System.out.println("Stopping: the service commits what is in flight, then the broker stops");
            }
        } finally {
            deleteRecursively(stateDir);
            cleanedUp.countDown();
        }
    }

    private static void feedAndPrint(KafkaTestClient client, KafkaConsumer<byte[], byte[]> counts, WeirApp app,
                                     CountDownLatch stopRequested) {
        Random random = new Random();
        List<String> customerIds = List.copyOf(CUSTOMER_ROWS.keySet());
        while (stopRequested.getCount() > 0) {
            if (app.state() == WeirApp.State.FAILED) {
                System.out.println("The service failed: " + app.failure().orElse(null));
                return;
            }
            List<ProducerRecord<byte[], byte[]>> orders = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                long now = System.currentTimeMillis();
                Order order = new Order(customerIds.get(random.nextInt(customerIds.size())),
                        Math.round(random.nextDouble() * 10_000) / 100.0, now);
                orders.add(new ProducerRecord<>(ORDERS, null, now, Serdes.strings().serialize(ORDERS,
                        UUID.randomUUID().toString()), Serdes.json(Order.class).serialize(ORDERS, order)));
            }
            client.send(orders);
            for (ConsumerRecord<byte[], byte[]> r : counts.poll(Duration.ofMillis(200))) {
                Windowed<String> window = Serdes.windowed(Serdes.strings()).deserialize(r.topic(), r.key());
                System.out.printf("%s  %-5s %d orders%n", Instant.ofEpochMilli(window.start()), window.key(),
                        Serdes.longs().deserialize(r.topic(), r.value()));
            }
        }
    }

    /** Reads the counts from the start, committed records only. */
    private static KafkaConsumer<byte[], byte[]> readCommitted(String bootstrapServers) {
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        consumer.partitionsFor(ORDERS_PER_MINUTE)
                .forEach(p -> partitions.add(new TopicPartition(ORDERS_PER_MINUTE, p.partition())));
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return consumer;
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
