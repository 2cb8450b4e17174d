package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.TopologyModels;
import io.weir.common.KeyValue;
import io.weir.config.WeirConfig;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.savepoint.Manifest;
import io.weir.internal.savepoint.SavepointCatalog;
import io.weir.internal.savepoint.SavepointRequest;
import io.weir.internal.savepoint.SavepointRestore;
import io.weir.testing.OpsApp;
import io.weir.testing.OpsInstance;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import io.weir.testkit.SteadyInput;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Savepoints of application processes (child JVMs of {@link OpsApp}, a count per key, exactly
 * once) while records flow: {@code stop} with a savepoint ends every process cleanly after the
 * cut; a roll back to an earlier savepoint under the same application id, with another number of
 * instances and the old local state still on disk, counts every record exactly once; an instance
 * SIGKILLed while a savepoint is taken never leaves an incomplete savepoint listed, and what is
 * listed restores exactly.
 */
class SavepointProcessesIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int PARTITIONS = 6;
    private static final int KEYS = 300;
    private static final int RATE = 400;
    private static final Set<String> ALL_TASKS = OpsInstance.tasks(PARTITIONS);
    private static final Duration START = Duration.ofSeconds(60);
    private static final Duration CATCH_UP = Duration.ofMinutes(2);

    @Test
    void stopWithASavepointEndsEveryProcessAndARollBackToAnEarlierOneCountsExactlyOnce() throws Exception {
        OpsInstance.Spec spec = spec("sp-rollback");
        Path stateA = Files.createTempDirectory("weir-sp-a-");
        Path stateB = Files.createTempDirectory("weir-sp-b-");
        WeirConfig config = config(spec.applicationId());
        SavepointCatalog catalog = new SavepointCatalog(config);
        try (Group group = Group.start(spec, stateA, stateB)) {
            SteadyInput input = group.awaitUnderWay();
            OpsInstance a = group.a();
            OpsInstance b = group.b();

            Manifest first = take(config, false);
            long atFirst = input.acknowledged();
            // The application goes on past the savepoint: its stores and output move beyond it.
            await().atMost(START).until(() -> input.acknowledged() >= atFirst + 1_000);
            Manifest last = take(config, true);

            assertThat(a.jvm().awaitExit(START))
                    .as("exit code of A after stop with a savepoint")
                    .isZero();
            assertThat(b.jvm().awaitExit(START))
                    .as("exit code of B after stop with a savepoint")
                    .isZero();
            assertThat(a.jvm().output()).contains("STOPPED");
            assertThat(last.stopped()).isTrue();
            assertThat(catalog.list()).extracting(Manifest::id).containsExactly(first.id(), last.id());

            // Roll back to the first savepoint, same application id, one instance on A's old state.
            new SavepointRestore(
                            config,
                            TopologyModels.resolved(OpsApp.topology(spec.input(), spec.output()), spec.applicationId()),
                            System.out::println)
                    .restore(catalog, first, new SavepointRestore.Options(false, Map.of()));
            try (OpsInstance again = OpsInstance.start(spec, "a", stateA)) {
                Map<String, Long> model = input.stop(Duration.ofSeconds(30));
                KAFKA.client()
                        .readUntil(spec.output(), r -> Records.lastLongPerKey(r).equals(model), CATCH_UP);
                assertThat(again.jvm().output())
                        .as("A's local state after the roll back")
                        .contains("deleted and recreated");
            }
        }
    }

    @Test
    void anInstanceKilledDuringASavepointLeavesNoIncompleteSavepointListed() throws Exception {
        OpsInstance.Spec spec = spec("sp-kill");
        WeirConfig config = config(spec.applicationId());
        SavepointCatalog catalog = new SavepointCatalog(config);
        try (Group group =
                Group.start(spec, Files.createTempDirectory("weir-sp-a-"), Files.createTempDirectory("weir-sp-b-"))) {
            SteadyInput input = group.awaitUnderWay();
            OpsInstance a = group.a();

            String id = SavepointRequest.newId();
            // When A paused its tasks before the SIGKILL, the request stays incomplete ("6 of 6 tasks
            // paused, 3 written") and waits out its whole time-out before it aborts; 15 s ends that
            // wait sooner and still leaves B time to take over tasks A had not paused
            // (failure.detection.ms, 3 s) and complete. That completion path is the whole subject of
            // aSavepointOfAGroupThatLosesAnInstanceCompletesFromItsSuccessorExactly.
            CompletableFuture<Manifest> taking = takeKilling(a, spec, config, id, Duration.ofSeconds(15));
            Manifest taken;
            try {
                taken = taking.get(2, TimeUnit.MINUTES);
            } catch (ExecutionException e) {
                System.out.println("FIGURE savepoint with a SIGKILL during it: failed ("
                        + e.getCause().getMessage() + ")");
                taken = null;
            }
            List<Manifest> listed = catalog.list();
            if (taken == null) {
                assertThat(listed).as("savepoints listed after a failed one").isEmpty();
                return;
            }
            // B took A's tasks over and paused them at the commits A left: a complete, consistent cut.
            System.out.println("FIGURE savepoint with a SIGKILL during it: complete");
            assertThat(listed).extracting(Manifest::id).containsExactly(id);
            assertForkCountsExactly(spec, catalog, taken, input);
        }
    }

    @Test
    void aSavepointOfAGroupThatLosesAnInstanceCompletesFromItsSuccessorExactly() throws Exception {
        OpsInstance.Spec spec = spec("sp-takeover");
        WeirConfig config = config(spec.applicationId());
        SavepointCatalog catalog = new SavepointCatalog(config);
        try (Group group =
                Group.start(spec, Files.createTempDirectory("weir-sp-a-"), Files.createTempDirectory("weir-sp-b-"))) {
            SteadyInput input = group.awaitUnderWay();
            OpsInstance a = group.a();

            // A is frozen before the request and killed after it: it never pauses its tasks. B removes it
            // from the group (failure detection), takes its tasks over from their last commits and pauses
            // them for the cut before processing anything.
            a.suspend();
            String id = SavepointRequest.newId();
            CompletableFuture<Manifest> taking = takeKilling(a, spec, config, id, Duration.ofSeconds(90));
            Manifest taken = taking.get(2, TimeUnit.MINUTES);
            assertThat(taken.tasks()).hasSize(PARTITIONS);
            assertThat(taken.tasks())
                    .allSatisfy(t -> assertThat(t.offsets())
                            .as("input offsets of task " + t.task())
                            .hasSize(1));
            assertThat(catalog.list()).extracting(Manifest::id).containsExactly(id);
            assertForkCountsExactly(spec, catalog, taken, input);
        }
    }

    /**
     * Restores {@code taken} into a new application, stops the input, sends one more record per key
     * (so every key's count shows up in the fork's output) and checks every count against the input.
     */
    private static void assertForkCountsExactly(
            OpsInstance.Spec spec, SavepointCatalog catalog, Manifest taken, SteadyInput input) throws Exception {
        String fork = "fork-" + spec.applicationId();
        String forkOutput = KAFKA.uniqueTopic(fork + "-out", PARTITIONS);
        new SavepointRestore(
                        config(fork),
                        TopologyModels.resolved(OpsApp.topology(spec.input(), forkOutput), fork),
                        System.out::println)
                .restore(catalog, taken, new SavepointRestore.Options(false, Map.of()));
        Map<String, Long> model = new TreeMap<>(input.stop(Duration.ofSeconds(30)));
        List<KeyValue<String, String>> more = new ArrayList<>();
        for (int k = 0; k < KEYS; k++) {
            more.add(KeyValue.of("k" + k, "last"));
            model.merge("k" + k, 1L, Long::sum);
        }
        KAFKA.client().produceStrings(spec.input(), more);
        OpsInstance.Spec forkSpec = new OpsInstance.Spec(KAFKA.bootstrapServers(), spec.input(), forkOutput, fork);
        try (OpsInstance f = OpsInstance.start(forkSpec, "f", Files.createTempDirectory("weir-sp-f-"))) {
            KAFKA.client().readUntil(forkOutput, r -> Records.lastLongPerKey(r).equals(model), CATCH_UP);
        }
    }

    /**
     * Instances A and B of {@code spec} under the steady input; closing the group closes B, A and
     * the input.
     */
    private record Group(String applicationId, SteadyInput input, OpsInstance a, OpsInstance b)
            implements AutoCloseable {

        static Group start(OpsInstance.Spec spec, Path stateA, Path stateB) {
            SteadyInput input = SteadyInput.start(
                    KAFKA.bootstrapServers(), spec.input(), KEYS, RATE, 1_000_000, Duration.ofMinutes(3));
            try {
                // Side by side: the group forms in one rebalance, not one per instance.
                Map<String, Path> stateDirs = new LinkedHashMap<>();
                stateDirs.put("a", stateA);
                stateDirs.put("b", stateB);
                List<OpsInstance> ab = OpsInstance.startAll(spec, stateDirs);
                return new Group(spec.applicationId(), input, ab.get(0), ab.get(1));
            } catch (RuntimeException | Error e) {
                input.close();
                throw e;
            }
        }

        /**
         * Waits until A and B split the tasks, the input is under way and every task committed;
         * returns the input.
         */
        SteadyInput awaitUnderWay() {
            OpsInstance.awaitSplit(ALL_TASKS, START, a, b);
            await().atMost(START).until(() -> input.acknowledged() >= 1_000);
            // Every task committed once, so each has input offsets to put in a savepoint: started
            // together, A and B split the tasks before either committed anything.
            await().atMost(START)
                    .until(() -> KAFKA.admin()
                                    .listConsumerGroupOffsets(applicationId)
                                    .partitionsToOffsetAndMetadata()
                                    .get(30, TimeUnit.SECONDS)
                                    .size()
                            == PARTITIONS);
            return input;
        }

        @Override
        public void close() {
            try {
                b.close();
            } finally {
                try {
                    a.close();
                } finally {
                    input.close();
                }
            }
        }
    }

    /**
     * Requests a savepoint in the background and SIGKILLs {@code a} once the request is on the
     * control topic, so that the instance dies while the savepoint is under way.
     */
    private static CompletableFuture<Manifest> takeKilling(
            OpsInstance a, OpsInstance.Spec spec, WeirConfig config, String id, Duration timeout) {
        CompletableFuture<Manifest> taking = CompletableFuture.supplyAsync(
                () -> new SavepointRequest(config, System.out::println).take(id, false, timeout, null));
        KAFKA.client().readAtLeast(InternalTopic.CONTROL.of(spec.applicationId()), 1, START);
        a.jvm().kill();
        return taking;
    }

    private static Manifest take(WeirConfig config, boolean stop) {
        return new SavepointRequest(config, System.out::println)
                .take(SavepointRequest.newId(), stop, Duration.ofSeconds(60), null);
    }

    private static WeirConfig config(String applicationId) {
        return WeirConfig.builder()
                .applicationId(applicationId)
                .bootstrapServers(KAFKA.bootstrapServers())
                .environment(Map.of())
                .build();
    }

    private static OpsInstance.Spec spec(String name) {
        String input = KAFKA.uniqueTopic(name + "-in", PARTITIONS);
        String output = KAFKA.uniqueTopic(name + "-out", PARTITIONS);
        return new OpsInstance.Spec(KAFKA.bootstrapServers(), input, output, name + "-" + input);
    }
}
