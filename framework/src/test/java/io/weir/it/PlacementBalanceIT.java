package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.Topology;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.config.WeirConfig;
import io.weir.testing.TestApps;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 20, item 4, against a real broker: a word count (a stateless sub-topology 0 that splits
 * and repartitions, a stateful sub-topology 1 that counts) on two instances. One instance leaves
 * and comes back; the placement then gives each instance half of the stateful tasks and half of
 * the stateless ones, as Kafka Streams' assignor does, not all the state to one instance and all
 * the stateless tasks to the other (what a user saw before: equal task counts, unequal work).
 */
class PlacementBalanceIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int PARTITIONS = 4;

    @Test
    void afterAnInstanceComesBackEachHoldsHalfTheStatefulAndHalfTheStatelessTasks() throws Exception {
        String input = KAFKA.uniqueTopic("placement-in", PARTITIONS);
        String output = KAFKA.uniqueTopic("placement-out", PARTITIONS);
        String appId = "placement-" + input;
        Topology topology = SavepointIT.wordCount(input, output); // sub-topology 0 splits, 1 counts
        WeirConfig configA = config(appId, "a");
        WeirConfig configB = config(appId, "b");
        produceLines(input, 0);

        try (WeirApp a = TestApps.start(topology, configA)) {
            WeirApp b = TestApps.start(topology, configB);
            awaitBalanced(a, b);
            b.close(); // leaves the group: a takes every task, its state included
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> activeTasks(a).size() == 2 * PARTITIONS);
            produceLines(input, 1);

            try (WeirApp back = TestApps.start(topology, configB)) { // the same instance id and state directory
                awaitBalanced(a, back);
                KAFKA.client()
                        .readUntil(
                                output,
                                r -> Records.lastLongPerKey(r).values().stream().allMatch(c -> c == 2L)
                                        && Records.lastLongPerKey(r).size() == 100,
                                Duration.ofMinutes(2));
            }
        }
    }

    /** Each instance two of the four stateful tasks (1_*) and two of the four stateless ones (0_*), nothing on both. */
    private static void awaitBalanced(WeirApp a, WeirApp b) {
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> {
                    Set<String> onA = activeTasks(a);
                    Set<String> onB = activeTasks(b);
                    Set<String> both = new TreeSet<>(onA);
                    both.retainAll(onB);
                    assertThat(both).as("tasks active on a and on b").isEmpty();
                    assertThat(onA.size() + onB.size())
                            .as("tasks placed (a: %s, b: %s)", onA, onB)
                            .isEqualTo(2 * PARTITIONS);
                    assertThat(subtopology(onA, "1_"))
                            .as("a's stateful tasks (b: %s)", onB)
                            .hasSize(PARTITIONS / 2);
                    assertThat(subtopology(onA, "0_"))
                            .as("a's stateless tasks (b: %s)", onB)
                            .hasSize(PARTITIONS / 2);
                });
    }

    private static Set<String> subtopology(Set<String> tasks, String prefix) {
        return tasks.stream().filter(t -> t.startsWith(prefix)).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The instance's active tasks: its consumer-lag meters carry one task tag per input partition it reads. */
    private static Set<String> activeTasks(WeirApp app) {
        return app.meterRegistry().find("weir.consumer.lag").gauges().stream()
                .map(g -> g.getId().getTag("task"))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** 100 lines "w<i>" (i below 100), one word each: every word counted once per call. */
    private static void produceLines(String input, int round) {
        List<KeyValue<String, String>> lines = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            lines.add(KeyValue.of("line-" + round + "-" + i, "w" + i));
        }
        KAFKA.client().produceStrings(input, lines);
    }

    private static WeirConfig config(String appId, String instance) {
        return TestApps.config(KAFKA.bootstrapServers(), appId)
                .instanceId(instance)
                .set("shutdown.leave.group", "true")
                .build();
    }
}
