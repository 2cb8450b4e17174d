package com.example.service;

import static com.example.service.AlertService.ALERTS;
import static com.example.service.AlertService.ALERT_COUNTS;
import static com.example.service.AlertService.READINGS;

import io.weir.WeirApp;
import io.weir.serde.Serdes;
import io.weir.testkit.EmbeddedKafka;
import io.weir.testkit.KafkaTestClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
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
 * The service on a Kafka broker started in this JVM, to try it without any infrastructure:
 * {@code mvn -q test-compile exec:exec}. Creates the topics, feeds a reading per sensor every
 * second, and prints the alerts and counts as a downstream {@code read_committed} consumer sees
 * them, until Ctrl-C. The broker's data and the service's state are deleted on exit.
 */
public final class LocalRun {

    private static final List<String> SENSORS = List.of("sensor-1", "sensor-2", "sensor-3");

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
        Path stateDir = Files.createTempDirectory("my-weir-service-");
        try (EmbeddedKafka kafka = EmbeddedKafka.start();
             KafkaTestClient client = KafkaTestClient.connect(kafka.bootstrapServers())) {
            for (String topic : List.of(READINGS, ALERTS, ALERT_COUNTS)) {
                client.createTopic(topic, 2);
            }
            try (WeirApp app = WeirApp.create(AlertService.topology(), AlertService.config()
                         .bootstrapServers(kafka.bootstrapServers())
                         .stateDir(stateDir)
                         .environment(Map.of())   // only the embedded broker, whatever WEIR_* is set
                         .build()).start();
                 KafkaConsumer<byte[], byte[]> outputs = readCommitted(kafka.bootstrapServers())) {
                System.out.printf("Broker at %s; feeding '%s' every second; alerts above %.1f °F. Ctrl-C to stop.%n",
                        kafka.bootstrapServers(), READINGS, AlertService.THRESHOLD);
                System.out.printf("Health, metrics and topology on http://localhost:%d"
                        + " (/health/ready, /metrics, /topology, /info)%n", app.httpPort().orElseThrow());
                feedAndPrint(client, outputs, app, stopRequested);
                System.out.println("Stopping: the service commits what is in flight, then the broker stops");
            }
        } finally {
            deleteRecursively(stateDir);
            cleanedUp.countDown();
        }
    }

    private static void feedAndPrint(KafkaTestClient client, KafkaConsumer<byte[], byte[]> outputs, WeirApp app,
                                     CountDownLatch stopRequested) {
        Random random = new Random();
        long nextFeed = System.nanoTime();
        while (stopRequested.getCount() > 0) {
            if (app.state() == WeirApp.State.FAILED) {
                System.out.println("The service failed: " + app.failure().orElse(null));
                return;
            }
            if (System.nanoTime() - nextFeed >= 0) {
                client.send(readings(random));
                nextFeed += TimeUnit.SECONDS.toNanos(1);
            }
            for (ConsumerRecord<byte[], byte[]> r : outputs.poll(Duration.ofMillis(200))) {
                System.out.println(describe(r));
            }
        }
    }

    /** One reading per sensor, between 60 and 100 °F, so about a quarter raise an alert. */
    private static List<ProducerRecord<byte[], byte[]>> readings(Random random) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        long now = System.currentTimeMillis();
        for (String sensor : SENSORS) {
            double temperature = Math.round((60 + 40 * random.nextDouble()) * 10) / 10.0;
            records.add(new ProducerRecord<>(READINGS, null, now, Serdes.strings().serialize(READINGS, sensor),
                    Serdes.json(Reading.class).serialize(READINGS, new Reading(sensor, temperature, now))));
        }
        return records;
    }

    private static String describe(ConsumerRecord<byte[], byte[]> r) {
        String sensor = Serdes.strings().deserialize(r.topic(), r.key());
        if (r.topic().equals(ALERTS)) {
            Alert alert = Serdes.json(Alert.class).deserialize(r.topic(), r.value());
            return String.format(Locale.ROOT, "alert  %s %.1f °F", sensor, alert.temperature());
        }
        return String.format(Locale.ROOT, "count  %s %d", sensor, Serdes.longs().deserialize(r.topic(), r.value()));
    }

    /** Reads both output topics from the start, committed records only. */
    private static KafkaConsumer<byte[], byte[]> readCommitted(String bootstrapServers) {
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : List.of(ALERTS, ALERT_COUNTS)) {
            consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
        }
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
