package io.weir.samples.sensors;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.samples.common.CommittedWindows;
import io.weir.samples.common.SampleCommand;
import io.weir.state.Windowed;
import io.weir.testkit.KafkaExtension;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The sensor-sums sample on a real broker under exactly-once, checked here again from the committed output. */
class SensorSumsIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    @TempDir
    Path stateDir;

    @Test
    void sampleCommandPassesItsCheckAgainstAnExistingCluster() {
        String input = KAFKA.uniqueTopic("sensor-readings", 3);
        String tumbling = KAFKA.uniqueTopic("sensor-sums-1m", 3);
        String sliding = KAFKA.uniqueTopic("sensor-sums-1m-every-30s", 3);
        String appId = "sensor-sums-" + input;

        int exit = SampleCommand.run(
                new SensorSumsApp(),
                KAFKA,
                appId,
                stateDir,
                "--input-topic",
                input,
                "--tumbling-topic",
                tumbling,
                "--sliding-topic",
                sliding,
                "--sensors",
                "3",
                "--minutes",
                "5",
                "--out-of-orderness",
                "0");

        assertThat(exit).isZero();
        Map<Windowed<String>, Long> slidingSums = onceEach(sliding);
        assertThat(onceEach(tumbling)).hasSize(3 * 5);
        assertThat(slidingSums).hasSize(3 * 11);
        // The worked example's figures: sensor-1's sliding window from its first reading sums 27, the next 22.
        long first = slidingSums.keySet().stream()
                        .filter(w -> w.key().equals("sensor-1"))
                        .mapToLong(Windowed::start)
                        .min()
                        .orElseThrow()
                + 30_000;
        assertThat(slidingSums)
                .containsEntry(new Windowed<>("sensor-1", first, first + 60_000), 27L)
                .containsEntry(new Windowed<>("sensor-1", first + 30_000, first + 90_000), 22L);
        // Without out-of-orderness the delayed reading missed one tumbling and one sliding window.
        assertThat(KAFKA.client().readAllCommitted(appId + "-late", (t, b) -> b, (t, b) -> b, CommittedWindows.TIMEOUT))
                .hasSize(2);
    }

    private static Map<Windowed<String>, Long> onceEach(String topic) {
        List<ConsumerRecord<Windowed<String>, Long>> records = CommittedWindows.read(KAFKA, topic);
        Map<Windowed<String>, Long> sums = new HashMap<>();
        records.forEach(r -> assertThat(sums.put(r.key(), r.value()))
                .as("%s emitted twice", r.key())
                .isNull());
        return sums;
    }
}
