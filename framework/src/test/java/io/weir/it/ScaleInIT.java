package io.weir.it;

import static io.weir.it.MembershipLoad.ALL_TASKS;
import static io.weir.it.MembershipLoad.KEYS;
import static io.weir.it.MembershipLoad.PARTITIONS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.internal.kubernetes.KubernetesApi;
import io.weir.testing.ExactCounts;
import io.weir.testing.OpsInstance;
import io.weir.testing.StartedInstances;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.SteadyInput;
import io.weir.testkit.kubernetes.KubernetesApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code shutdown.leave.group=kubernetes_scale_in} with three instances of a stateful, exactly-once
 * application run as the pods {@code weir-0..2} of a StatefulSet {@code weir}: processes that see
 * the Kubernetes API as pods do ({@code KUBERNETES_SERVICE_HOST}/{@code _PORT}, a service account's
 * token, CA and namespace files), served by an in-memory API server holding the StatefulSet. Each
 * is stopped by SIGTERM, as the kubelet stops a pod, and the consumer session timeout is 5 minutes,
 * beyond every wait of the test, so a task that moves moved because its instance left the group
 * (or was removed by another's failure detection, which the test checks did not happen):
 * <ul>
 *   <li>a rollout restart of {@code weir-1} while the StatefulSet still wants 3 replicas keeps its
 *       membership: no task moves to the others, and {@code weir-1} gets its own tasks back;</li>
 *   <li>a scale-down to 2 replicas, then SIGTERM to {@code weir-2}: it leaves the group and its tasks
 *       move to {@code weir-0} and {@code weir-1} at once, not after the session timeout.</li>
 * </ul>
 * Every input is counted exactly once throughout. Durations are printed, never asserted: a loaded
 * machine makes a healthy run slower, and the deadlines of the waits only fail a run that hangs.
 */
class ScaleInIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    /** Far beyond every wait of the test ({@link #START}): no member's session expires while it runs. */
    private static final Duration SESSION_TIMEOUT = Duration.ofMinutes(5);

    private static final Duration START = Duration.ofSeconds(90);
    private static final Duration SETTLED = Duration.ofSeconds(5);

    @Test
    void aPodRemovedByAScaleDownLeavesAtOnceAndAPodRestartedByARolloutKeepsItsTasks() throws Exception {
        String input = KAFKA.uniqueTopic("scale-in-in", PARTITIONS);
        String output = KAFKA.uniqueTopic("scale-in-out", PARTITIONS);
        try (KubernetesApiServer kubernetes = KubernetesApiServer.start("weir-it")) {
            kubernetes.createStatefulSet("weir", 3);
            OpsInstance.Spec spec = new OpsInstance.Spec(KAFKA.bootstrapServers(), input, output, "scale-in-" + input)
                    .withEnv("WEIR_SHUTDOWN_LEAVE_GROUP", "kubernetes_scale_in")
                    .withEnv("WEIR_CONSUMER_SESSION_TIMEOUT_MS", Long.toString(SESSION_TIMEOUT.toMillis()))
                    .withJvmOption(
                            "-D" + KubernetesApi.SERVICE_ACCOUNT_DIR_PROPERTY + "=" + kubernetes.serviceAccountDir());
            for (var e : kubernetes.podEnvironment().entrySet()) {
                spec = spec.withEnv(e.getKey(), e.getValue());
            }
            List<Path> state = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                state.add(Files.createTempDirectory("weir-scale-in-" + i + "-"));
            }
            try (SteadyInput records = MembershipLoad.input(KAFKA, input, 180_000, Duration.ofMinutes(10));
                    StartedInstances pods = new StartedInstances()) {
                // Side by side: the group forms in one rebalance, not one per pod.
                Map<String, Path> stateDirs = new LinkedHashMap<>();
                for (int i = 0; i < 3; i++) {
                    stateDirs.put("weir-" + i, state.get(i));
                }
                List<OpsInstance> started = OpsInstance.startAll(spec, stateDirs);
                started.forEach(pods::add);
                OpsInstance weir0 = started.get(0);
                OpsInstance weir1 = started.get(1);
                OpsInstance weir2 = started.get(2);
                OpsInstance.awaitSplit(ALL_TASKS, START, weir0, weir1, weir2);
                assertThat(weir2.jvm().output())
                        .contains("shutdown.leave.group=kubernetes_scale_in: pod weir-2"
                                + " (ordinal 2) of StatefulSet weir in namespace weir-it, desired replicas 3 now");
                awaitSettled(weir0, weir1, weir2);
                await().atMost(START).until(() -> records.acknowledged() >= 2L * KEYS);

                // A rollout restarts weir-1: SIGTERM while the StatefulSet still wants 3 replicas.
                Set<String> tasks0 = weir0.tasks();
                Set<String> tasks1 = weir1.tasks();
                Set<String> tasks2 = weir2.tasks();
                double rebalances0 = weir0.metric("weir_rebalances_total");
                double rebalances2 = weir2.metric("weir_rebalances_total");
                long terminated = System.nanoTime();
                weir1.jvm().terminate(Duration.ofSeconds(40));
                assertThat(weir1.jvm().output())
                        .contains(
                                "pod weir-1 (ordinal 1) is below the desired replicas of"
                                        + " StatefulSet weir (3): a restart",
                                "keeping its group membership");
                OpsInstance weir1Again = pods.add(OpsInstance.start(spec, "weir-1", state.get(1)));
                await().atMost(START).pollInterval(Duration.ofMillis(100)).until(weir1Again::ready);
                long awayMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - terminated);
                assertThat(weir1Again.tasks())
                        .as("weir-1's tasks after its restart")
                        .isEqualTo(tasks1);
                assertThat(weir0.tasks()).as("weir-0's tasks").isEqualTo(tasks0);
                assertThat(weir2.tasks()).as("weir-2's tasks").isEqualTo(tasks2);
                assertThat(weir0.metric("weir_rebalances_total"))
                        .as("weir-0's rebalances while weir-1 restarted")
                        .isEqualTo(rebalances0);
                assertThat(weir2.metric("weir_rebalances_total"))
                        .as("weir-2's rebalances while weir-1 restarted")
                        .isEqualTo(rebalances2);
                System.out.printf(
                        "FIGURE kubernetes_rollout_restart_away_ms=%d (SIGTERM to ready again, no task" + " moved)%n",
                        awayMs);

                // kubectl scale --replicas=2: the controller lowers spec.replicas, then deletes weir-2.
                kubernetes.setReplicas("weir", 2);
                long asked = System.nanoTime();
                CompletableFuture<Void> stopping =
                        CompletableFuture.runAsync(() -> weir2.jvm().terminate(Duration.ofSeconds(40)));
                OpsInstance.awaitSplit(ALL_TASKS, START, weir0, weir1Again);
                long handOverMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - asked);
                stopping.get(45, TimeUnit.SECONDS);
                assertThat(weir2.jvm().output())
                        .contains(
                                "pod weir-2 (ordinal 2) is at or above the desired replicas"
                                        + " of StatefulSet weir (2): removed by a scale-down",
                                "leaving the consumer group");
                System.out.printf(
                        "FIGURE kubernetes_scale_in_hand_over_ms=%d (SIGTERM to weir-0 and weir-1 ready with"
                                + " every task; session timeout %d ms)%n",
                        handOverMs, SESSION_TIMEOUT.toMillis());
                // Within START, far below the session timeout, and not by failure detection: weir-2 left.
                assertThat(weir0.metric("weir_failure_detection_removals_total")
                                + weir1Again.metric("weir_failure_detection_removals_total"))
                        .as("instances weir-0 and weir-1 removed")
                        .isZero();

                ExactCounts.assertCountedOnce(
                        KAFKA.client(), output, records.stop(Duration.ofSeconds(30)), Duration.ofMinutes(1));
            }
        }
    }

    /** Waits until no instance has received an assignment for {@link #SETTLED}. */
    private static void awaitSettled(OpsInstance... instances) {
        OpsInstance.awaitNoRebalanceFor(SETTLED, START, instances);
    }
}
