package io.weir.it;

import static io.weir.it.MembershipLoad.ALL_TASKS;
import static io.weir.it.MembershipLoad.KEYS;
import static io.weir.it.MembershipLoad.PARTITIONS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.testing.ExactCounts;
import io.weir.testing.OpsInstance;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.SteadyInput;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fast failure detection ({@code failure.detection.ms}) with two processes, A and B, of a
 * stateful exactly-once application, while records flow. The consumers' session timeout is set
 * to 5 minutes, far beyond what the tests wait, so only the instances' own detection can explain a
 * hand-over: a SIGKILLed A loses its tasks to B, and B fences A's transactional ids so the
 * transaction A left open aborts at once (read_committed output resumes long before the
 * transaction timeout, also 5 minutes); a frozen A (SIGSTOP, as in a long
 * GC pause) is removed by B all the same, and once it continues it is fenced, rejoins and
 * gets a share back. Every input is counted exactly once in both cases. How long the hand-over
 * took is printed, not asserted: the waits' deadlines only fail a run that hangs.
 */
class FailureDetectionIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration START = Duration.ofSeconds(60);
    /** Far beyond every wait of the tests: no session or transaction times out while they run. */
    private static final Duration TIMEOUTS = Duration.ofMinutes(5);
    /** Less than {@link #TIMEOUTS} by far: a hand-over within it is the detection's doing. */
    private static final Duration HAND_OVER = Duration.ofSeconds(90);
    /** For what B does right after a removal (count it, log it) to show in its metrics and output. */
    private static final Duration AFTER_REMOVAL = Duration.ofSeconds(10);

    @Test
    void aKilledInstanceLosesItsTasksAfterTheDetectionTimeNotTheSessionTimeout() throws Exception {
        // Transactions time out after TIMEOUTS, longer than the test waits: only the fence can abort
        // the one A leaves open in time.
        OpsInstance.Spec spec =
                spec("fd-kill").withEnv("WEIR_TRANSACTION_TIMEOUT_MS", Long.toString(TIMEOUTS.toMillis()));
        try (SteadyInput input = MembershipLoad.input(KAFKA, spec.input(), 60_000, Duration.ofSeconds(120));
                MembershipLoad.Pair ab = MembershipLoad.Pair.start(spec, "weir-fd-")) {
            OpsInstance a = ab.a();
            OpsInstance b = ab.b();
            OpsInstance.awaitSplit(ALL_TASKS, START, a, b);
            await().atMost(START).until(() -> input.acknowledged() >= 2L * KEYS);

            long killed = System.nanoTime();
            a.jvm().kill();
            // Everything A wrote is below these ends, committed or in the transaction it left open.
            Map<TopicPartition, Long> writtenAtKill = ends(spec.output(), IsolationLevel.READ_UNCOMMITTED);
            await().atMost(HAND_OVER)
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> b.tasks().equals(ALL_TASKS));
            long handOverMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
            System.out.printf(
                    "FIGURE failure_detection_hand_over_ms=%d (failure.detection.ms=2000,"
                            + " consumer.session.timeout.ms=%d)%n",
                    handOverMs, TIMEOUTS.toMillis());
            // read_committed readers get past A's open transaction once B fenced A's transactional
            // ids: the last stable offsets pass every end at the kill, well before the timeout.
            await().atMost(HAND_OVER).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
                Map<TopicPartition, Long> stable = ends(spec.output(), IsolationLevel.READ_COMMITTED);
                writtenAtKill.forEach((tp, end) -> assertThat(stable.get(tp))
                        .as("last stable offset of %s", tp)
                        .isGreaterThanOrEqualTo(end));
            });
            System.out.printf(
                    "FIGURE failure_detection_output_resumed_ms=%d (transaction.timeout.ms=%d)%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed), TIMEOUTS.toMillis());
            await().atMost(AFTER_REMOVAL)
                    .untilAsserted(() -> assertThat(b.jvm().output()).contains("fenced its transactional ids"));
            // B counts the removal and logs it after the admin call returns, while the group already
            // rebalances: the tasks can show on B first. Wait for both (never longer than it takes to
            // run those two lines), then check the count is exactly one.
            await().atMost(AFTER_REMOVAL).until(() -> b.metric("weir_failure_detection_removals_total") >= 1.0);
            assertThat(b.metric("weir_failure_detection_removals_total"))
                    .as("B removed A from the group")
                    .isEqualTo(1.0);
            await().atMost(AFTER_REMOVAL)
                    .untilAsserted(() -> assertThat(b.jvm().output()).contains("instance a sent no heartbeat"));

            ExactCounts.assertCountedOnce(
                    KAFKA.client(), spec.output(), input.stop(Duration.ofSeconds(30)), Duration.ofMinutes(1));
        }
    }

    @Test
    void aFrozenInstanceRemovedByMistakeIsFencedAndNothingIsLostOrDoubled() throws Exception {
        OpsInstance.Spec spec = spec("fd-freeze");
        try (SteadyInput input = MembershipLoad.input(KAFKA, spec.input(), 60_000, Duration.ofSeconds(120));
                MembershipLoad.Pair ab = MembershipLoad.Pair.start(spec, "weir-fd-")) {
            OpsInstance a = ab.a();
            OpsInstance b = ab.b();
            OpsInstance.awaitSplit(ALL_TASKS, START, a, b);
            await().atMost(START).until(() -> input.acknowledged() >= 2L * KEYS);

            a.suspend();
            try {
                await().atMost(HAND_OVER)
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> b.tasks().equals(ALL_TASKS));
                // Counted after the removal call returns, maybe after the tasks moved (see above).
                await().atMost(AFTER_REMOVAL).until(() -> b.metric("weir_failure_detection_removals_total") >= 1.0);
                assertThat(b.metric("weir_failure_detection_removals_total"))
                        .as("B removed the frozen A")
                        .isEqualTo(1.0);
            } finally {
                a.resume();
            }
            // A wakes up believing it owns its old tasks: its commits are refused, it rejoins, and the
            // group splits the tasks again.
            OpsInstance.awaitSplit(ALL_TASKS, START, a, b);

            ExactCounts.assertCountedOnce(
                    KAFKA.client(), spec.output(), input.stop(Duration.ofSeconds(30)), Duration.ofMinutes(1));
        }
    }

    /** The output's end offsets as a reader at {@code isolation} sees them (committed: the last stable offsets). */
    private static Map<TopicPartition, Long> ends(String topic, IsolationLevel isolation) throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            request.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        Map<TopicPartition, Long> ends = new TreeMap<>(Comparator.comparing(TopicPartition::toString));
        KAFKA.client()
                .admin()
                .listOffsets(request, new ListOffsetsOptions(isolation))
                .all()
                .get(30, TimeUnit.SECONDS)
                .forEach((tp, info) -> ends.put(tp, info.offset()));
        return ends;
    }

    private static OpsInstance.Spec spec(String name) {
        return MembershipLoad.spec(KAFKA, name, TIMEOUTS).withEnv("WEIR_FAILURE_DETECTION_MS", "2000");
    }
}
