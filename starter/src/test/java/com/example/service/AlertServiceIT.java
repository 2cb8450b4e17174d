package com.example.service;

import static com.example.service.AlertService.ALERTS;
import static com.example.service.AlertService.ALERT_COUNTS;
import static com.example.service.AlertService.READINGS;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.WeirApp;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.testkit.KafkaExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service against a real Kafka broker (started in this JVM by the testkit): records in,
 * the expected records out, read as a {@code read_committed} consumer downstream reads them.
 */
class AlertServiceIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.perClass();

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
    private static final Serde<String> KEYS = Serdes.strings();
    private static final Serde<Reading> READING_JSON = Serdes.json(Reading.class);
    private static final Serde<Alert> ALERT_JSON = Serdes.json(Alert.class);

    @TempDir
    Path stateDir;

    @Test
    void writesEachAlertOnceAndCountsAlertsPerSensor() {
        for (String topic : List.of(READINGS, ALERTS, ALERT_COUNTS)) {
            KAFKA.client().createTopic(topic, 2);
        }
        List<Reading> readings = List.of(
                new Reading("sensor-1", 95.0, T0),
                new Reading("sensor-2", 71.3, T0 + 1_000),
                new Reading("sensor-1", 88.0, T0 + 2_000),
                new Reading("sensor-3", 90.0, T0 + 3_000),   // at the threshold: no alert
                new Reading("sensor-2", 99.9, T0 + 4_000),
                new Reading("sensor-1", 102.4, T0 + 5_000));
        KAFKA.client().send(readings.stream().map(AlertServiceIT::record).toList());

        try (WeirApp app = WeirApp.create(AlertService.topology(), AlertService.config()
                .bootstrapServers(KAFKA.bootstrapServers())
                .stateDir(stateDir)
                .set("http.port", 0)     // any free port: tests may run beside a service on 8080
                .environment(Map.of())   // the test broker, whatever WEIR_* variables this machine has
                .build()).start()) {
            // Counts rise to their totals; wait (with a deadline) until the totals are committed.
            Map<String, Long> totals = Map.of("sensor-1", 2L, "sensor-2", 1L);
            KAFKA.client().readUntil(ALERT_COUNTS, new StringDeserializer(), new LongDeserializer(),
                    IsolationLevel.READ_COMMITTED, counts -> lastPerKey(counts).equals(totals), TIMEOUT);
            assertThat(app.failure()).isEmpty();
        }

        // Read after the service stopped, to the end of the topic: a duplicate could not hide.
        List<ConsumerRecord<String, Alert>> alerts = KAFKA.client().readAllCommitted(ALERTS,
                new StringDeserializer(), json(ALERT_JSON), TIMEOUT);
        assertThat(alerts).extracting(ConsumerRecord::value).containsExactlyInAnyOrder(
                new Alert("sensor-1", 95.0, T0),
                new Alert("sensor-2", 99.9, T0 + 4_000),
                new Alert("sensor-1", 102.4, T0 + 5_000));
    }

    private static ProducerRecord<byte[], byte[]> record(Reading r) {
        return new ProducerRecord<>(READINGS, null, r.timestamp(), KEYS.serialize(READINGS, r.sensor()),
                READING_JSON.serialize(READINGS, r));
    }

    private static <T> Deserializer<T> json(Serde<T> serde) {
        return serde::deserialize;
    }

    private static Map<String, Long> lastPerKey(List<ConsumerRecord<String, Long>> records) {
        Map<String, Long> last = new TreeMap<>();
        records.forEach(r -> last.put(r.key(), r.value()));
        return last;
    }
}
