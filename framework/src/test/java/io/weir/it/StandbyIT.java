package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.weir.Topology;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.config.WeirConfig;
import io.weir.testing.CountingApp;
import io.weir.testing.TestApps;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Standby replicas against a real broker, two instances in this JVM: each keeps a copy of the
 * other's stores by tailing their changelogs, and when one leaves, the other takes its tasks over
 * from those copies, restoring no more than the copies lagged, not the whole state.
 */
class StandbyIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int PARTITIONS = 4;
    private static final int KEYS = 20_000;

    @Test
    void standbysFollowTheOtherInstanceAndATakeOverRestoresOnlyTheirLag() throws Exception {
        String input = KAFKA.uniqueTopic("standby-in", PARTITIONS);
        String output = KAFKA.uniqueTopic("standby-out", PARTITIONS);
        String appId = "standby-" + input;
        Topology topology = CountingApp.topology(input, output);
        KAFKA.client().produceStrings(input, keys("x"));

        try (WeirApp a = TestApps.start(topology, config(appId, "a"));
                WeirApp b = TestApps.start(topology, config(appId, "b"))) {
            KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).size() == KEYS, Duration.ofMinutes(2));
            // Every task active on one instance and standing by on the other, the copies caught up.
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() -> {
                        assertThat(sum(a.meterRegistry(), "weir.standby.tasks")
                                        + sum(b.meterRegistry(), "weir.standby.tasks"))
                                .as("standby tasks of both instances")
                                .isEqualTo(PARTITIONS);
                        assertThat(sum(a.meterRegistry(), "weir.standby.tasks"))
                                .as("standby tasks of a")
                                .isPositive();
                        assertThat(sum(a.meterRegistry(), "weir.standby.lag.records")
                                        + sum(b.meterRegistry(), "weir.standby.lag.records"))
                                .as("standby lag")
                                .isZero();
                    });
            double restoredBefore = sum(a.meterRegistry(), "weir.restore.records");

            b.close(); // leaves the group: a takes b's tasks over from its standby copies
            await().atMost(Duration.ofMinutes(1))
                    .until(() ->
                            a.state() == WeirApp.State.RUNNING && sum(a.meterRegistry(), "weir.standby.tasks") == 0);
            KAFKA.client().produceStrings(input, keys("y"));
            Map<String, Long> twice = new HashMap<>();
            for (int k = 0; k < KEYS; k++) {
                twice.put("k" + k, 2L);
            }
            KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).equals(twice), Duration.ofMinutes(2));
            double restored = sum(a.meterRegistry(), "weir.restore.records") - restoredBefore;
            assertThat(restored)
                    .as("records a restored to take over b's half of %d keys", KEYS)
                    .isLessThan(KEYS / 20.0);
        }
    }

    @Test
    void aNewInstanceWarmsUpBeforeItTakesTasksOverAndThenRestoresOnlyATail() throws Exception {
        String input = KAFKA.uniqueTopic("warmup-in", PARTITIONS);
        String output = KAFKA.uniqueTopic("warmup-out", PARTITIONS);
        String appId = "warmup-" + input;
        Topology topology = CountingApp.topology(input, output);
        KAFKA.client().produceStrings(input, keys("x"));

        try (WeirApp a = TestApps.start(topology, warmupConfig(appId, "a"))) {
            KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).size() == KEYS, Duration.ofMinutes(2));
            try (WeirApp b = TestApps.start(topology, warmupConfig(appId, "b"))) {
                // b has no state: rather than restore there, a keeps the tasks while b warms copies up.
                await().atMost(Duration.ofMinutes(1))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> sum(b.meterRegistry(), "weir.warmup.tasks") > 0);
                assertThat(activeTasks(b))
                        .as("b's active tasks while it warms up")
                        .isZero();
                // Caught up, the warm-ups hand their tasks over: b runs its share, restoring no more than a tail.
                await().atMost(Duration.ofMinutes(2))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> activeTasks(b) == PARTITIONS / 2
                                && b.state() == WeirApp.State.RUNNING
                                && sum(b.meterRegistry(), "weir.warmup.tasks") == 0);
                assertThat(sum(b.meterRegistry(), "weir.restore.records"))
                        .as("records b restored as active")
                        .isLessThan(KEYS / 20.0);
                assertThat(sum(b.meterRegistry(), "weir.standby.handovers"))
                        .as("warm-ups that handed their open stores to the tasks")
                        .isEqualTo(PARTITIONS / 2);
                KAFKA.client().produceStrings(input, keys("y"));
                Map<String, Long> twice = new HashMap<>();
                for (int k = 0; k < KEYS; k++) {
                    twice.put("k" + k, 2L);
                }
                KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).equals(twice), Duration.ofMinutes(2));
            }
        }
    }

    /** One standby, and a recovery lag small enough that an empty instance is not caught up. */
    private static WeirConfig warmupConfig(String appId, String instance) {
        return TestApps.config(KAFKA.bootstrapServers(), appId)
                .instanceId(instance)
                .set("acceptable.recovery.lag", 100)
                .build();
    }

    /** The instance's active tasks: its consumer-lag meters have one per input partition of each. */
    private static long activeTasks(WeirApp app) {
        return app.meterRegistry().find("weir.consumer.lag").gauges().stream()
                .map(g -> g.getId().getTag("task"))
                .distinct()
                .count();
    }

    private static WeirConfig config(String appId, String instance) {
        return TestApps.config(KAFKA.bootstrapServers(), appId)
                .instanceId(instance)
                .set("num.standby.replicas", 1)
                .build();
    }

    private static List<KeyValue<String, String>> keys(String value) {
        List<KeyValue<String, String>> records = new ArrayList<>(KEYS);
        for (int k = 0; k < KEYS; k++) {
            records.add(KeyValue.of("k" + k, value));
        }
        return records;
    }

    private static double sum(MeterRegistry registry, String name) {
        return registry.find(name).gauges().stream().mapToDouble(Gauge::value).sum()
                + registry.find(name).counters().stream()
                        .mapToDouble(c -> c.count())
                        .sum();
    }
}
