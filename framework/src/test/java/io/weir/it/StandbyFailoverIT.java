package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.testing.AggregatesCheck;
import io.weir.testing.AggregatesWorkload;
import io.weir.testing.EosAggregatesApp;
import io.weir.testing.InstanceGroup;
import io.weir.testing.OpsInstance;
import io.weir.testing.PrometheusText;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.SteadyInput;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Failover to a standby (issue 10): three instances of {@link EosAggregatesApp} with
 * {@code num.standby.replicas=1}; one is SIGKILLed and not restarted. Each of its tasks resumes on
 * a survivor at least as caught up as the task's standby (the standby's instance, or one whose
 * earlier state is as fresh), restoring at most what the standby lagged behind at the kill (not the
 * whole changelog), and every output stays exactly-once.
 *
 * <p>The input is held while the victim commits its last work, so the lag read just before the
 * kill is at least the lag at the kill (the changelog's end no longer moves; a standby only
 * catches up): restored records {@code <=} that lag is then an exact bound, not a race.
 */
class StandbyFailoverIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int PARTITIONS = 6;
    private static final int RECORDS = 60_000;
    private static final int KEYS = 6_000;
    private static final Duration SETTLE = Duration.ofMinutes(2);
    static final String STANDBY_LAG = "weir_standby_lag_records";
    static final String RESTORED = "weir_restore_records_total";

    @Test
    void aKilledInstancesTasksResumeOnTheirStandbysRestoringAtMostTheLag() throws Exception {
        long seed = new SecureRandom().nextLong();
        System.out.println("StandbyFailoverIT seed=" + seed);
        AggregatesWorkload workload = AggregatesWorkload.generate(seed, RECORDS, KEYS);
        String input = KAFKA.uniqueTopic("standby-in", PARTITIONS);
        String echo = KAFKA.uniqueTopic("standby-echo", PARTITIONS);
        String aggregates = KAFKA.uniqueTopic("standby-agg", PARTITIONS);
        OpsInstance.Spec spec = new OpsInstance.Spec(KAFKA.bootstrapServers(), input, echo, "standby-" + input)
                .withApp(EosAggregatesApp.class, aggregates)
                .withEnv("WEIR_NUM_STANDBY_REPLICAS", "1")
                // This state is small (a few thousand records a task): with the default 10,000 every
                // survivor would count as caught up and balance could send a task where it restores
                // its whole changelog. Only a copy as fresh as the standby counts here.
                .withEnv("WEIR_ACCEPTABLE_RECOVERY_LAG", "0");
        int half = RECORDS / 2;
        try (InstanceGroup group = new InstanceGroup(spec, PARTITIONS);
                SteadyInput producer = SteadyInput.start(
                        KAFKA.bootstrapServers(), input, workload::record, 5_000, RECORDS, Duration.ofMinutes(10));
                AggregatesCheck check =
                        AggregatesCheck.start(KAFKA.bootstrapServers(), workload, input, echo, aggregates)) {
            producer.holdAt(half);
            // Side by side: one join of three instead of three joins, each moving tasks and warming standbys.
            group.startAll("a", "b", "c");
            group.awaitSettled(SETTLE, "three instances (seed " + seed + ")");
            // Half the input processed and committed; the input is held, so the changelog ends stay put.
            await().atMost(SETTLE)
                    .alias("outputs of the first half (seed " + seed + ")")
                    .until(() -> check.outputsRead() >= 2L * half);
            OpsInstance victim = group.get("a");
            Set<String> victimTasks = new TreeSet<>(); // a's tasks at the kill
            Map<String, String> standbyOf = new TreeMap<>(); // task -> instance keeping its standby
            Map<String, Double> lagAtKill = new TreeMap<>();
            // A standby of a quiet task catches up with its changelog's committed end (a lag of 1 allows
            // for a meter that counts the final commit marker as an offset). A's tasks are read again in
            // every round, and must be the same before and after the lags are read, with the group
            // settled: after the group first settled, a warm-up that catches up still moves a task (its
            // rebalance comes when it catches up), so tasks read once could be a's no longer at the kill,
            // and a restore under way on b or c would count in the restores after the kill.
            await().atMost(SETTLE)
                    .pollInterval(Duration.ofMillis(500))
                    .alias("a's tasks stable, their standbys on b or c caught up, every instance ready (seed " + seed
                            + ")")
                    .until(() -> {
                        Set<String> owned = victim.tasks();
                        standbyOf.clear();
                        lagAtKill.clear();
                        for (String id : List.of("b", "c")) {
                            standbyLags(group.get(id)).forEach((task, lag) -> {
                                if (owned.contains(task)) {
                                    standbyOf.put(task, id);
                                    lagAtKill.put(task, lag);
                                }
                            });
                        }
                        boolean caughtUp = !owned.isEmpty()
                                && standbyOf.keySet().equals(owned)
                                && lagAtKill.values().stream().allMatch(lag -> lag <= 1);
                        if (!caughtUp
                                || !group.settled(Set.of())
                                || !victim.tasks().equals(owned)) {
                            return false;
                        }
                        victimTasks.clear();
                        victimTasks.addAll(owned);
                        return true;
                    });
            assertThat(victimTasks).as("a's tasks (seed %d)", seed).isNotEmpty();
            double restoredBefore =
                    group.get("b").metric(RESTORED) + group.get("c").metric(RESTORED);
            double lag =
                    lagAtKill.values().stream().mapToDouble(Double::doubleValue).sum();

            group.kill("a");
            group.awaitSettled(SETTLE, "b and c owning every task after a's SIGKILL (seed " + seed + ")");
            Map<String, Set<String>> tasks = group.tasks(Set.of());
            // Each task goes to the least-behind survivor: the one with its standby, or one whose state
            // left on disk (it ran the task before the group settled) is just as caught up. Which of the
            // two does not matter; that nothing more than the standby lag is restored does (below).
            Set<String> resumed = new TreeSet<>();
            tasks.values().forEach(resumed::addAll);
            assertThat(resumed)
                    .as("tasks running on b and c after a's SIGKILL (seed %d)", seed)
                    .containsAll(victimTasks);
            double restored = group.get("b").metric(RESTORED) + group.get("c").metric(RESTORED) - restoredBefore;
            System.out.printf(
                    "StandbyFailoverIT seed=%d: a's tasks %s moved to their standbys %s; restored %.0f"
                            + " records, standby lag at the kill %.0f%n",
                    seed, victimTasks, standbyOf, restored, lag);
            assertThat(restored)
                    .as("records restored after the failover, standby lag at the kill %s (seed %d)", lagAtKill, seed)
                    .isLessThanOrEqualTo(lag);

            producer.holdAt(Long.MAX_VALUE);
            await().atMost(SETTLE).until(() -> producer.sent() == RECORDS);
            producer.stop(Duration.ofMinutes(1));
            await().atMost(SETTLE).alias("every output (seed " + seed + ")").until(check::complete);
            for (String id : group.runningIds()) {
                group.get(id).jvm().terminate(Duration.ofSeconds(60));
                group.exited(id);
            }
            check.finish(Duration.ofMinutes(1));
            assertThat(check.problems())
                    .as("outputs that differ from the model (seed %d; %s)", seed, check.progress())
                    .isEmpty();
            assertThat(check.missing()).as("keys not all there (seed %d)", seed).isEmpty();
        }
    }

    /** The standby lag per task an instance reports (summed over the task's stores). */
    private static Map<String, Double> standbyLags(OpsInstance instance) {
        Map<String, Double> lags = new TreeMap<>();
        List<PrometheusText.Sample> samples = instance.samples(STANDBY_LAG);
        if (samples != null) {
            samples.forEach(s -> lags.merge(s.labels().get("task"), s.value(), Double::sum));
        }
        return lags;
    }
}
