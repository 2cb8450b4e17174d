package io.weir.it;

import static io.weir.it.MembershipLoad.ALL_TASKS;
import static io.weir.it.MembershipLoad.KEYS;
import static io.weir.it.MembershipLoad.PARTITIONS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.testing.ExactCounts;
import io.weir.testing.OpsInstance;
import io.weir.testing.StartedInstances;
import io.weir.testkit.HttpProbe;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.SteadyInput;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Rollouts of a stateful, exactly-once application run as two processes, A and B, while records
 * flow: a restart of A (SIGTERM, start again with the same instance id and state) moves no task
 * of B, gives A its own tasks back and restores at most a tail; a scale-in of A (the explicit
 * path: {@code POST /admin/leave}, or SIGTERM with {@code shutdown.leave.group=true}) hands A's
 * tasks to B by leaving the group: the consumer session timeout is set far beyond every deadline of
 * the tests ({@link #SESSION_TIMEOUT}), and B removes no instance itself, so nothing else can move
 * them. Every input is counted exactly once throughout.
 *
 * <p>Durations are printed, never asserted: a loaded machine makes a healthy run slower, and the
 * deadlines of the waits only fail a run that hangs.
 *
 * <p>Prints the figures issue 8 asks for as {@code FIGURE name=value} lines.
 */
class RolloutIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration START = Duration.ofSeconds(60);
    private static final Duration SETTLED = Duration.ofSeconds(5);
    /** Far beyond every wait of the tests: no member's session expires while they run. */
    private static final Duration SESSION_TIMEOUT = Duration.ofMinutes(5);

    @Test
    void restartWithTheSameInstanceIdMovesNoTaskAndRestoresOnlyTheTail() throws Exception {
        // Static membership keeps A's tasks while A is away for less than the session timeout. The default
        // (10 s) is about what a restart takes on a loaded 2-core machine, so give it room: this test is about
        // what happens within the timeout.
        // failure.detection.ms at its minimum: the restart (a JVM start) outlasts it, so only A's announcement
        // that it will be back keeps B from removing it.
        OpsInstance.Spec spec = spec("rollout-restart").withEnv("WEIR_FAILURE_DETECTION_MS", "1000");
        Path stateA = Files.createTempDirectory("weir-rollout-a-");
        Path stateB = Files.createTempDirectory("weir-rollout-b-");
        // The input must flow until B has written past the end of the window, after A's restart: bounded well
        // past the test's own deadlines (two starts, the split, the settling, the restart), not at 120 s.
        try (SteadyInput input = MembershipLoad.input(KAFKA, spec.input(), 180_000, Duration.ofMinutes(10));
                OutputArrivals arrivals = OutputArrivals.start(KAFKA.bootstrapServers(), spec.output());
                StartedInstances processes = new StartedInstances()) {
            OpsInstance a = processes.add(OpsInstance.start(spec, "a", stateA));
            await().atMost(START).pollInterval(Duration.ofMillis(50)).until(a::ready);
            System.out.printf(
                    "FIGURE empty_state_start_to_ready_ms=%d (first instance of the group, process start"
                            + " to /health/ready 200)%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - a.startedNanos()));
            OpsInstance b = processes.add(OpsInstance.start(spec, "b", stateB));
            awaitSplit(a, b);
            // A cooperative join can take a further round after the split (a commit of the old generation is
            // then refused and retried); the restart must start from a settled group to count rebalances.
            awaitSettled(a, b);
            Set<String> tasksA = a.tasks();
            Set<String> tasksB = b.tasks();
            Set<Integer> partitionsB = partitions(tasksB);
            // Every key had records three times over and A wrote results: its stores hold its share of the keys.
            await().atMost(START)
                    .until(() -> input.acknowledged() >= 3L * KEYS && arrivals.count(partitions(tasksA)) >= KEYS / 2);
            long flowing = System.nanoTime();
            double rebalancesB = b.metric("weir_rebalances_total");
            double restoredB = b.metric("weir_restore_records_total");

            try (TaskSampler samplerB = TaskSampler.start(b)) {
                long terminated = System.nanoTime();
                a.jvm().terminate(Duration.ofSeconds(40));
                assertThat(a.jvm().output()).contains("keeping its group membership");
                OpsInstance aAgain = processes.add(OpsInstance.start(spec, "a", stateA));
                await().atMost(START).pollInterval(Duration.ofMillis(50)).until(aAgain::ready);
                long ready = System.nanoTime();
                long startToReadyMs = TimeUnit.NANOSECONDS.toMillis(ready - aAgain.startedNanos());
                long downMs = TimeUnit.NANOSECONDS.toMillis(ready - terminated);
                assertThat(aAgain.tasks()).as("A's tasks after its restart").isEqualTo(tasksA);
                // B keeps writing for a while after A is back: the window covers the whole rollout.
                long windowEnd = ready + TimeUnit.SECONDS.toNanos(2);
                await().atMost(Duration.ofSeconds(20))
                        .until(() -> System.nanoTime() > windowEnd && arrivals.lastArrival(partitionsB) > windowEnd);
                samplerB.stop();

                assertThat(samplerB.seen())
                        .as("B's tasks sampled every 200 ms during A's restart")
                        .containsOnly(tasksB);
                assertThat(samplerB.samples()).isGreaterThan(5);
                assertThat(b.metric("weir_rebalances_total"))
                        .as("B's rebalances")
                        .isEqualTo(rebalancesB);
                assertThat(b.metric("weir_failure_detection_removals_total"))
                        .as("instances B removed from the group while A restarted (A announced its restart)")
                        .isZero();
                assertThat(b.metric("weir_restore_records_total"))
                        .as("B's restores")
                        .isEqualTo(restoredB);

                long pauseMs = arrivals.longestGapMs(partitionsB, terminated, windowEnd);
                long before = Math.max(flowing, terminated - (windowEnd - terminated));
                long usualMs = arrivals.longestGapMs(partitionsB, before, terminated);
                double restored = aAgain.metric("weir_restore_records_total");
                long keysOfA = IntStream.range(0, KEYS)
                        .filter(k -> partitions(tasksA).contains(partition("k" + k)))
                        .count();
                System.out.printf(
                        "FIGURE restart_output_pause_ms=%d (longest gap between B's committed outputs"
                                + " from A's SIGTERM to 2 s after A is ready; before the SIGTERM: %d ms)%n",
                        pauseMs, usualMs);
                System.out.printf(
                        "FIGURE restart_start_to_ready_ms=%d (A down, SIGTERM to ready: %d ms)%n",
                        startToReadyMs, downMs);
                System.out.printf("FIGURE restart_restored_records=%.0f (A holds %d keys)%n", restored, keysOfA);
                // B's output did not wait for A: every partition of B got committed output while A was
                // down (SIGTERM to ready again, a JVM start at least), which a rebalance stopping B would prevent.
                for (int partition : partitionsB) {
                    assertThat(arrivals.count(Set.of(partition), terminated, ready))
                            .as(
                                    "B's committed outputs on partition %d between A's SIGTERM and A ready again",
                                    partition)
                            .isPositive();
                }
                assertThat(restored)
                        .as("records A restored after a clean stop, of %d keys it holds", keysOfA)
                        .isLessThan(keysOfA / 10.0);
            }
            ExactCounts.assertCountedOnce(
                    KAFKA.client(), spec.output(), input.stop(Duration.ofSeconds(30)), Duration.ofMinutes(1));
        }
    }

    @Test
    void adminLeaveHandsTheTasksOverByLeavingTheGroup() throws Exception {
        OpsInstance.Spec spec = spec("rollout-leave");
        scaleIn(spec, "admin_leave", a -> {
            HttpProbe.Response r = a.http().post("/admin/leave");
            assertThat(r.status()).as("POST /admin/leave: %s", r.body()).isEqualTo(202);
            assertThat(a.jvm().awaitExit(Duration.ofSeconds(35)))
                    .as("exit code after /admin/leave")
                    .isZero();
            assertThat(a.jvm().output()).contains("leaving the consumer group", "STOPPED");
        });
    }

    @Test
    void sigtermWithLeaveGroupHandsTheTasksOverByLeavingTheGroup() throws Exception {
        OpsInstance.Spec spec = spec("rollout-sigterm-leave");
        scaleIn(spec.withEnv("WEIR_SHUTDOWN_LEAVE_GROUP", "true"), "sigterm_leave_group", a -> {
            a.jvm().terminate(Duration.ofSeconds(35));
            assertThat(a.jvm().output()).contains("leaving the consumer group");
        });
    }

    /** A leaves through {@code stop}; B owns every task long before A's session could expire; the counts stay exact. */
    private static void scaleIn(OpsInstance.Spec spec, String figure, StopAction stop) throws Exception {
        try (SteadyInput input = MembershipLoad.input(KAFKA, spec.input(), 60_000, Duration.ofSeconds(120));
                MembershipLoad.Pair ab = MembershipLoad.Pair.start(spec, "weir-scale-in-")) {
            OpsInstance a = ab.a();
            OpsInstance b = ab.b();
            awaitSplit(a, b);
            await().atMost(START).until(() -> input.acknowledged() >= 2L * KEYS);

            long asked = System.nanoTime();
            CompletableFuture<Void> stopping = CompletableFuture.runAsync(() -> {
                try {
                    stop.stop(a);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(START)
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> b.tasks().equals(ALL_TASKS));
            long handOverMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - asked);
            // Not a session expiry (far beyond the wait) nor B's failure detection: A left the group.
            assertThat(b.metric("weir_failure_detection_removals_total"))
                    .as("instances B removed")
                    .isZero();
            await().atMost(START).pollInterval(Duration.ofMillis(50)).until(b::ready);
            long readyMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - asked);
            stopping.get(40, TimeUnit.SECONDS);
            System.out.printf(
                    "FIGURE scale_in_%s_hand_over_ms=%d (B ready with all tasks: %d ms)%n",
                    figure, handOverMs, readyMs);

            ExactCounts.assertCountedOnce(
                    KAFKA.client(), spec.output(), input.stop(Duration.ofSeconds(30)), Duration.ofMinutes(1));
        }
    }

    @FunctionalInterface
    private interface StopAction {
        void stop(OpsInstance a) throws Exception;
    }

    private static OpsInstance.Spec spec(String name) {
        return MembershipLoad.spec(KAFKA, name, SESSION_TIMEOUT);
    }

    /** Both instances ready, each with a share of the tasks, together all of them. */
    private static void awaitSplit(OpsInstance a, OpsInstance b) {
        OpsInstance.awaitSplit(ALL_TASKS, START, a, b);
    }

    /** Waits until neither instance has received an assignment for {@link #SETTLED}. */
    private static void awaitSettled(OpsInstance a, OpsInstance b) {
        OpsInstance.awaitNoRebalanceFor(SETTLED, START, a, b);
    }

    private static Set<Integer> partitions(Set<String> tasks) {
        return tasks.stream()
                .map(t -> Integer.parseInt(t.substring(t.indexOf('_') + 1)))
                .collect(Collectors.toSet());
    }

    /** The partition a key goes to, input and output alike (same partition count, default partitioner). */
    private static int partition(String key) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % PARTITIONS;
    }

    /** Asks an instance for its tasks every 200 ms and keeps every distinct answer. */
    private static final class TaskSampler implements AutoCloseable {
        private final Set<Set<String>> seen = new java.util.LinkedHashSet<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;
        private int samples;

        private TaskSampler(OpsInstance instance) {
            thread = new Thread(
                    () -> {
                        while (running.get()) {
                            Set<String> tasks = instance.tasks();
                            synchronized (this) {
                                seen.add(tasks);
                                samples++;
                            }
                            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
                        }
                    },
                    "task-sampler-" + instance.id());
            thread.setDaemon(true);
        }

        static TaskSampler start(OpsInstance instance) {
            TaskSampler s = new TaskSampler(instance);
            s.thread.start();
            return s;
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join(HttpProbe.TIMEOUT.toMillis() + 1_000);
        }

        synchronized List<Set<String>> seen() {
            return new ArrayList<>(seen);
        }

        synchronized int samples() {
            return samples;
        }

        @Override
        public void close() {
            try {
                stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * When each committed output record became visible to a read_committed reader tailing the
     * topic (from its end when started), per partition: what a downstream consumer sees of a pause.
     */
    private static final class OutputArrivals implements AutoCloseable {
        private final List<long[]> arrivals = new ArrayList<>(); // {nanoTime, partition}, guarded by itself
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        private OutputArrivals(String bootstrap, String topic) {
            thread = new Thread(
                    () -> {
                        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                                Map.of(
                                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                                        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                                        ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "20"),
                                new ByteArrayDeserializer(),
                                new ByteArrayDeserializer())) {
                            List<TopicPartition> partitions = IntStream.range(0, PARTITIONS)
                                    .mapToObj(p -> new TopicPartition(topic, p))
                                    .toList();
                            consumer.assign(partitions);
                            consumer.seekToEnd(partitions);
                            while (running.get()) {
                                var records = consumer.poll(Duration.ofMillis(50));
                                long now = System.nanoTime();
                                synchronized (arrivals) {
                                    for (ConsumerRecord<byte[], byte[]> r : records) {
                                        arrivals.add(new long[] {now, r.partition()});
                                    }
                                }
                            }
                        }
                    },
                    "output-arrivals-" + topic);
            thread.setDaemon(true);
        }

        static OutputArrivals start(String bootstrap, String topic) {
            OutputArrivals a = new OutputArrivals(bootstrap, topic);
            a.thread.start();
            return a;
        }

        private List<long[]> snapshot() {
            synchronized (arrivals) {
                return new ArrayList<>(arrivals);
            }
        }

        long count(Set<Integer> partitions) {
            return snapshot().stream()
                    .filter(a -> partitions.contains((int) a[1]))
                    .count();
        }

        /** Arrivals on {@code partitions} in [from, to] ({@link System#nanoTime()}). */
        long count(Set<Integer> partitions, long from, long to) {
            return snapshot().stream()
                    .filter(a -> partitions.contains((int) a[1]) && a[0] >= from && a[0] <= to)
                    .count();
        }

        /** The {@link System#nanoTime()} of the latest arrival on {@code partitions}; MIN_VALUE if none. */
        long lastArrival(Set<Integer> partitions) {
            return snapshot().stream()
                    .filter(a -> partitions.contains((int) a[1]))
                    .mapToLong(a -> a[0])
                    .max()
                    .orElse(Long.MIN_VALUE);
        }

        /** The longest time in [from, to] without an arrival on {@code partitions}, edges included. */
        long longestGapMs(Set<Integer> partitions, long from, long to) {
            long previous = from;
            long longest = 0;
            for (long[] a : snapshot()) {
                if (a[0] < from || a[0] > to || !partitions.contains((int) a[1])) {
                    continue;
                }
                longest = Math.max(longest, a[0] - previous);
                previous = a[0];
            }
            longest = Math.max(longest, to - previous);
            return TimeUnit.NANOSECONDS.toMillis(longest);
        }

        @Override
        public void close() {
            running.set(false);
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
