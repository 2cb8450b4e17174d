package io.weir.samples.alerts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.config.WeirConfig;
import io.weir.samples.common.SampleCommand;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.testkit.KafkaExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The temperature-alerts topology on a real broker under exactly-once.
 *
 * <p>How the tests know every alert has been read: the last reading fed to each input partition
 * is a marker above the threshold. Input and output topics have the same partition count and
 * alerts keep their reading's key, so each marker's alert is the last alert of its partition;
 * {@code read_committed} returns a partition in offset order, so once all markers' alerts are
 * read, every alert before them has been read too. A missing or duplicated alert then fails the
 * assertion instead of timing out.
 */
class TemperatureAlertsIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int PARTITIONS = 4;
    private static final double THRESHOLD = 90.0;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final Serde<Reading> readingSerde = Serdes.json(Reading.class);
    private final Serde<Alert> alertSerde = Serdes.json(Alert.class);

    @TempDir
    Path stateDir;

    @Test
    void alertsExactlyOnceForReadingsAboveThresholdAndDeadLettersMalformedOnes() {
        String readings = KAFKA.uniqueTopic("readings", PARTITIONS);
        String alerts = KAFKA.uniqueTopic("alerts", PARTITIONS);
        String appId = "temperature-alerts-" + readings;

        List<Reading> good = new ArrayList<>(new SampleReadings(7, 5, 1_000_000, 1000).nextRounds(40));
        good.add(new Reading("sensor-edge", 90.0, 2_000_000)); // at the threshold: no alert
        good.add(new Reading("sensor-edge", 90.1, 2_001_000));
        byte[] malformed = "{\"sensor\":\"sensor-bad\",\"temperature\":".getBytes(StandardCharsets.UTF_8);
        byte[] wrongType =
                "{\"sensor\":\"sensor-bad\",\"temperature\":\"hot\",\"timestamp\":1}".getBytes(StandardCharsets.UTF_8);

        List<KeyValue<byte[], byte[]>> records = new ArrayList<>();
        good.forEach(r -> records.add(record(r)));
        records.add(KeyValue.of(utf8("sensor-bad"), malformed));
        records.add(KeyValue.of(utf8("sensor-gone"), null)); // a tombstone: no reading, no alert, no error
        records.add(KeyValue.of(utf8("sensor-bad"), wrongType));
        List<Reading> markers = markers(9_000_000);
        markers.forEach(r -> records.add(record(r)));
        KAFKA.client().produce(readings, records);

        try (WeirApp app = start(appId, readings, alerts)) {
            List<Alert> received = readAlertsUntilMarkers(alerts, markers);

            assertThat(received).containsExactlyInAnyOrderElementsOf(expectedAlerts(good, markers));
            assertThat(received).extracting(Alert::threshold).containsOnly(THRESHOLD);

            List<ConsumerRecord<byte[], byte[]>> dead =
                    KAFKA.client().readUntil(appId + "-dlq", r -> r.size() >= 2, TIMEOUT);
            assertThat(dead).extracting(ConsumerRecord::value).containsExactlyInAnyOrder(malformed, wrongType);
            assertThat(dead)
                    .allSatisfy(r -> assertThat(header(r, "weir.source.topic")).isEqualTo(readings));
            // RUNNING follows the threads on a tick of the monitor once they are done with their
            // rebalances (a generous deadline: a follow-up rebalance may run first).
            await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == WeirApp.State.RUNNING);
        }
    }

    @Test
    void restartedApplicationContinuesWithoutRepeatingAlerts() {
        String readings = KAFKA.uniqueTopic("readings", PARTITIONS);
        String alerts = KAFKA.uniqueTopic("alerts", PARTITIONS);
        String appId = "temperature-alerts-" + readings;
        SampleReadings samples = new SampleReadings(11, 8, 1_000_000, 1000);

        List<Reading> first = samples.nextRounds(25);
        List<Reading> firstMarkers = markers(8_000_000);
        produce(readings, first, firstMarkers);
        try (WeirApp app = start(appId, readings, alerts)) {
            readAlertsUntilMarkers(alerts, firstMarkers);
            // RUNNING follows the threads on a tick of the monitor once they are done with their
            // rebalances (a generous deadline: a follow-up rebalance may run first).
            await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == WeirApp.State.RUNNING);
        }

        List<Reading> second = samples.nextRounds(25);
        List<Reading> secondMarkers = markers(9_000_000);
        produce(readings, second, secondMarkers);
        try (WeirApp app = start(appId, readings, alerts)) {
            List<Alert> received = readAlertsUntilMarkers(alerts, secondMarkers);

            List<Alert> expected = new ArrayList<>(expectedAlerts(first, firstMarkers));
            expected.addAll(expectedAlerts(second, secondMarkers));
            assertThat(received).containsExactlyInAnyOrderElementsOf(expected);
            // RUNNING follows the threads on a tick of the monitor once they are done with their
            // rebalances (a generous deadline: a follow-up rebalance may run first).
            await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == WeirApp.State.RUNNING);
        }
    }

    private WeirApp start(String appId, String readings, String alerts) {
        WeirConfig config = SampleCommand.config(KAFKA, appId, stateDir);
        return WeirApp.create(TemperatureAlerts.topology(readings, alerts, THRESHOLD), config)
                .start();
    }

    /** Reads committed alerts from the beginning until the alert of every marker was read. */
    private List<Alert> readAlertsUntilMarkers(String alerts, List<Reading> markers) {
        List<Alert> markerAlerts = expectedAlerts(List.of(), markers);
        Predicate<List<ConsumerRecord<String, byte[]>>> allMarkersRead =
                records -> decode(records).containsAll(markerAlerts);
        List<ConsumerRecord<String, byte[]>> records = KAFKA.client()
                .readUntil(
                        alerts,
                        new StringDeserializer(),
                        new ByteArrayDeserializer(),
                        IsolationLevel.READ_COMMITTED,
                        allMarkersRead,
                        TIMEOUT);
        assertThat(records)
                .allSatisfy(r -> assertThat(r.key())
                        .isEqualTo(alertSerde.deserialize(alerts, r.value()).sensor()));
        return decode(records);
    }

    /** One reading above the threshold per input partition, keyed to land in that partition. */
    private static List<Reading> markers(long timestamp) {
        List<Reading> markers = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            markers.add(new Reading(keyForPartition(p), 100.0, timestamp));
        }
        return markers;
    }

    /** A key that Kafka's default partitioner (murmur2 of the key) sends to {@code partition}. */
    private static String keyForPartition(int partition) {
        for (int i = 0; ; i++) {
            String key = "marker-" + i;
            if (Utils.toPositive(Utils.murmur2(utf8(key))) % PARTITIONS == partition) {
                return key;
            }
        }
    }

    /** Computed independently of the topology: the alert of every reading strictly above 90. */
    private static List<Alert> expectedAlerts(List<Reading> readings, List<Reading> markers) {
        List<Alert> expected = new ArrayList<>();
        for (List<Reading> list : List.of(readings, markers)) {
            for (Reading r : list) {
                if (r.temperature() > THRESHOLD) {
                    expected.add(new Alert(r.sensor(), r.temperature(), THRESHOLD, r.timestamp()));
                }
            }
        }
        return expected;
    }

    private void produce(String topic, List<Reading> readings, List<Reading> markers) {
        List<KeyValue<byte[], byte[]>> records = new ArrayList<>();
        readings.forEach(r -> records.add(record(r)));
        markers.forEach(r -> records.add(record(r)));
        KAFKA.client().produce(topic, records);
    }

    private KeyValue<byte[], byte[]> record(Reading r) {
        return KeyValue.of(utf8(r.sensor()), readingSerde.serialize("readings", r));
    }

    private List<Alert> decode(List<ConsumerRecord<String, byte[]>> records) {
        List<Alert> alerts = new ArrayList<>(records.size());
        records.forEach(r -> alerts.add(alertSerde.deserialize(r.topic(), r.value())));
        return alerts;
    }

    private static String header(ConsumerRecord<?, ?> record, String key) {
        var h = record.headers().lastHeader(key);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
