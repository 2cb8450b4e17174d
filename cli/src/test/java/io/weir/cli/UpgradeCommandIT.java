package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.cli.WeirTest.Outcome;
import io.weir.common.KeyValue;
import io.weir.common.internal.Poll;
import io.weir.config.WeirConfig;
import io.weir.dsl.RecordStream;
import io.weir.internal.kubernetes.KubernetesApi;
import io.weir.internal.savepoint.Manifest;
import io.weir.internal.savepoint.SavepointCatalog;
import io.weir.serde.Serdes;
import io.weir.testing.CountingApp;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir upgrade --mode savepoint} against a real broker and an in-memory Kubernetes API, the
 * test playing the StatefulSet controller: two instances of v1 count records per key; the command
 * gets v2's topology from the description v2 writes with {@code run.mode=describe}, and then:
 * <ul>
 *   <li>a state change (v2 repartitions before its count, so the store moves to another
 *       sub-topology): savepoint, stop, scale to 0 (on which the test closes the instances), restore
 *       into v2; v2 starts and every count is exact, records produced while it was stopped included;
 *       a rollback to v1 restores the pre-upgrade savepoint, exact again;</li>
 *   <li>a safe change: nothing is touched;</li>
 *   <li>a change a savepoint cannot carry (a store's value format): refused before anything is touched;</li>
 *   <li>a scale the API refuses, after the savepoint: exit 1, one line naming the savepoint and the way back;
 *       then the worst case for a rollback (the record deleted by a restore that failed half-way, the
 *       StatefulSet at 0): the rollback restores the pre-upgrade savepoint and v1 counts exactly;</li>
 *   <li>a failure after the scale to 0, as the restore begins: the old version is put back (the
 *       savepoint restored into its own topology, the replicas scaled back) and counts exactly;</li>
 *   <li>an upgrade killed after the scale to 0 (its mark left on the StatefulSet): the next attempt
 *       resumes from its savepoint without taking another;</li>
 *   <li>{@code helm upgrade --atomic} to a version that never starts: the pre-rollback hook of the
 *       revision before (a rolling one) restores the marked savepoint and v1 counts exactly.</li>
 * </ul>
 */
class UpgradeCommandIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration CATCH_UP = Duration.ofMinutes(1);
    private static final String STATEFULSET = "counter";

    @TempDir
    Path dir;

    private MockKubernetes kubernetes;
    private String input;
    private String output;
    private String app;
    private final List<WeirApp> running = new CopyOnWriteArrayList<>();
    private final Map<String, Long> produced = new TreeMap<>();

    @BeforeEach
    void cluster() throws Exception {
        kubernetes = new MockKubernetes();
        kubernetes.createStatefulSet(STATEFULSET, 2);
        input = KAFKA.uniqueTopic("upgrade-in", 3);
        output = KAFKA.uniqueTopic("upgrade-out", 3);
        app = "upgrade-" + input;
    }

    @AfterEach
    void stop() throws Exception {
        running.forEach(WeirApp::close);
        kubernetes.close();
    }

    // ---- the versions ----------------------------------------------------------------------------

    /** v1: a count per key. */
    private Topology v1() {
        return CountingApp.topology(input, output);
    }

    /** The same count after a filter: a stateless node added, safe for a rolling upgrade. */
    private Topology v1WithFilter() {
        return CountingApp.topology(
                input, output, "counts", s -> s.filter((k, v) -> v != null).groupByKey());
    }

    /** v2: the same count, behind a repartition (by the same key): the store moves to sub-topology 1. */
    private Topology v2() {
        return CountingApp.topology(
                input, output, "counts", s -> s.groupBy((k, v) -> k, Serdes.strings(), Serdes.strings()));
    }

    /** v1 with its store renamed: its state carries over only with --map-store counts=totals. */
    private Topology v1Renamed() {
        return CountingApp.topology(input, output, "totals", RecordStream::groupByKey);
    }

    /** The store's values as strings: no savepoint can carry that. */
    private Topology v2WithStringCounts() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .groupByKey()
                .aggregate(() -> "", (k, v, agg) -> agg + "x", Serdes.strings(), "counts")
                .toStream()
                .to(output + "-strings", Serdes.strings(), Serdes.strings());
        return b.build();
    }

    // ---- fixtures --------------------------------------------------------------------------------

    private WeirConfig.Builder config(String instance) throws Exception {
        return WeirConfig.builder()
                .applicationId(app)
                .bootstrapServers(KAFKA.bootstrapServers())
                .stateDir(Files.createTempDirectory(dir, "state-"))
                .instanceId(instance)
                .set("http.port", -1)
                .environment(Map.of());
    }

    private void startInstances(Topology topology) throws Exception {
        for (int i = 0; i < 2; i++) {
            running.add(WeirApp.create(topology, config("pod-" + i).build()).start());
        }
    }

    /** What the version writes with run.mode=describe, as the hook's init container runs it. */
    private Path describe(Topology topology, String name) throws Exception {
        Path file = dir.resolve(name + ".json");
        WeirApp described = WeirApp.create(
                        topology,
                        config("describe")
                                .set("run.mode", "describe")
                                .set("describe.file", file.toString())
                                .build())
                .start();
        assertThat(described.state()).isEqualTo(WeirApp.State.STOPPED);
        return file;
    }

    private void produce(int records) {
        List<KeyValue<String, String>> batch = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            String key = "k" + (i % 20);
            batch.add(KeyValue.of(key, "v" + i));
            produced.merge(key, 1L, Long::sum);
        }
        KAFKA.client().produceStrings(input, batch);
    }

    private void awaitExactCounts() {
        Map<String, Long> expected = new TreeMap<>(produced);
        KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).equals(expected), CATCH_UP);
    }

    /** --mode of the next command. */
    private String mode = "savepoint";

    private Outcome upgrade(Path topologyFile, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "upgrade",
                "--mode",
                mode,
                "--app",
                app,
                "--topology-file",
                topologyFile.toString(),
                "--statefulset",
                STATEFULSET,
                "--release",
                "counter",
                "-b",
                KAFKA.bootstrapServers(),
                "--stop-timeout",
                "60"));
        args.addAll(List.of(kubernetes.options()));
        args.addAll(List.of(more));
        return WeirTest.runShown(args.toArray(String[]::new));
    }

    /**
     * The StatefulSet controller, played: once the replicas are 0, the instances are closed (the pods
     * deleted), and records keep arriving while the application is stopped.
     */
    private CompletableFuture<Void> controller(int recordsWhileStopped) {
        KubernetesApi api = kubernetes.api();
        return CompletableFuture.runAsync(() -> {
            try {
                assertThat(Poll.until(
                                () -> api.statefulSetReplicas(STATEFULSET) == 0,
                                Duration.ofMinutes(2),
                                Duration.ofMillis(100)))
                        .as("scaled to 0")
                        .isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            running.forEach(WeirApp::close);
            running.clear();
            produce(recordsWhileStopped);
        });
    }

    private List<Manifest> savepoints() throws Exception {
        return new SavepointCatalog(config("reader").build()).list();
    }

    // ---- the tests -------------------------------------------------------------------------------

    @Test
    void aStateChangeGoesThroughASavepointAndTheNewVersionCountsExactly() throws Exception {
        startInstances(v1());
        produce(600);
        awaitExactCounts();
        CompletableFuture<Void> controller = controller(200);

        Outcome upgraded = upgrade(describe(v2(), "v2"));

        assertThat(upgraded.code()).as(upgraded.err()).isEqualTo(Weir.OK);
        assertThat(upgraded.out())
                .contains(
                        "Verdict: NEEDS_SAVEPOINT_OR_RESET",
                        "state change: taking savepoint" + " pre-upgrade-",
                        "scaling statefulset counter from 2 to 0 replicas",
                        "restored savepoint pre-upgrade-");
        controller.get();
        assertThat(kubernetes.api().statefulSetReplicas(STATEFULSET))
                .as("left at 0: Helm brings the replicas back")
                .isZero();
        List<Manifest> taken = savepoints();
        assertThat(taken).singleElement().satisfies(m -> {
            assertThat(m.id()).startsWith("pre-upgrade-");
            assertThat(m.stopped()).isTrue();
        });

        // Helm applies the new StatefulSet: its pods start from the restored state.
        kubernetes.api().scaleStatefulSet(STATEFULSET, 2);
        startInstances(v2());
        produce(400);
        awaitExactCounts(); // nothing lost (the 200 produced while stopped included), nothing counted twice

        // helm rollback: the pre-rollback hook restores the pre-upgrade savepoint into v1.
        CompletableFuture<Void> again = controller(100);
        Outcome rolledBack = upgrade(describe(v1(), "v1"), "--rollback", "--savepoint-prefix", "pre-upgrade-");
        assertThat(rolledBack.code()).as(rolledBack.err()).isEqualTo(Weir.OK);
        assertThat(rolledBack.out())
                .contains(
                        "rolling back to savepoint " + taken.get(0).id(),
                        "restored savepoint " + taken.get(0).id());
        again.get();
        kubernetes.api().scaleStatefulSet(STATEFULSET, 2);
        startInstances(v1());
        produce(100);
        // v1 goes on from the savepoint: every record since is counted again, once.
        awaitExactCounts();
    }

    @Test
    void aRenamedStoreCarriesItsStateWhenMapped() throws Exception {
        startInstances(v1());
        produce(300);
        awaitExactCounts();
        Path renamed = describe(v1Renamed(), "v1-renamed");

        Outcome unmapped = upgrade(renamed);
        Outcome mistyped = upgrade(renamed, "--map-store", "counts=total");

        assertThat(unmapped.code()).isEqualTo(Weir.FAILED);
        assertThat(unmapped.err()).contains("refused: the new version drops the state of store(s) [counts]");
        assertThat(mistyped.code()).isEqualTo(Weir.FAILED);
        assertThat(mistyped.err())
                .contains(
                        "refused: --map-store counts=total (upgrade.mapStores) names a store the"
                                + " new version does not have",
                        "nothing was changed");
        assertThat(savepoints()).isEmpty();
        assertThat(kubernetes.api().statefulSetReplicas(STATEFULSET)).isEqualTo(2);

        CompletableFuture<Void> controller = controller(100);
        Outcome upgraded = upgrade(renamed, "--map-store", "counts=totals");

        assertThat(upgraded.code()).as(upgraded.err()).isEqualTo(Weir.OK);
        assertThat(upgraded.out()).contains("restored savepoint pre-upgrade-");
        controller.get();
        kubernetes.api().scaleStatefulSet(STATEFULSET, 2);
        startInstances(v1Renamed());
        produce(100);
        awaitExactCounts(); // the renamed store went on from the old counts
    }

    @Test
    void aFirstInstallHasNothingToCarry() throws Exception {
        Outcome upgraded = upgrade(describe(v2(), "v2"));

        assertThat(upgraded.code()).as(upgraded.err()).isEqualTo(Weir.OK);
        assertThat(upgraded.out()).contains("no topology recorded for " + app, "nothing to carry over");
        assertThat(kubernetes.api().statefulSetReplicas(STATEFULSET)).isEqualTo(2);
    }

    @Test
    void aSafeChangeRollsWithoutASavepoint() throws Exception {
        startInstances(v1());
        produce(300);
        awaitExactCounts();

        Outcome upgraded = upgrade(describe(v1WithFilter(), "v1-filter"));

        assertThat(upgraded.code()).as(upgraded.err()).isEqualTo(Weir.OK);
        assertThat(upgraded.out()).contains("Verdict: SAFE", "the change is safe for a rolling upgrade: no savepoint");
        assertThat(savepoints()).isEmpty();
        assertThat(kubernetes.api().statefulSetReplicas(STATEFULSET)).isEqualTo(2);
        assertThat(running).allSatisfy(a -> assertThat(a.state().isActive()).isTrue());
    }

    @Test
    void aChangeNoSavepointCanCarryIsRefusedBeforeAnythingIsTouched() throws Exception {
        startInstances(v1());
        produce(100);
        awaitExactCounts();
        KAFKA.createTopic(output + "-strings", 3, Map.of());

        Outcome refused = upgrade(describe(v2WithStringCounts(), "v2-strings"));

        assertThat(refused.code()).isEqualTo(Weir.FAILED);
        assertThat(refused.err())
                .contains(
                        "refused: a savepoint cannot carry store(s) [counts]",
                        "nothing was changed, the old version keeps running")
                .doesNotContain("\n  caused by");
        assertThat(refused.err().strip().lines()).hasSize(1);
        assertThat(savepoints()).isEmpty();
        assertThat(kubernetes.api().statefulSetReplicas(STATEFULSET)).isEqualTo(2);
        produce(100);
        awaitExactCounts();
    }

    @Test
    void aFailureAfterTheSavepointNamesItAndTheWayBack() throws Exception {
        startInstances(v1());
        produce(200);
        awaitExactCounts();
        kubernetes
                .expect()
                .patch()
                .withPath("/apis/apps/v1/namespaces/" + MockKubernetes.NAMESPACE + "/statefulsets/" + STATEFULSET
                        + "/scale")
                .andReturn(403, """
                {"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "Forbidden", "code": 403,
                 "message": "statefulsets.apps \\"counter\\" is forbidden: User \\"system:serviceaccount:streaming:x\\"\
                 cannot patch resource \\"statefulsets/scale\\""}
                """)
                .once();

        Outcome failed = upgrade(describe(v2(), "v2"));

        assertThat(failed.code()).isEqualTo(Weir.FAILED);
        List<Manifest> taken = savepoints();
        assertThat(taken).hasSize(1);
        assertThat(failed.err().strip().lines()).hasSize(1);
        assertThat(failed.err())
                .contains(
                        "upgrade of " + app + " failed: scaling statefulset counter to 0 failed",
                        "403",
                        "Its state is in savepoint " + taken.get(0).id(),
                        "helm rollback counter",
                        "weir savepoint restore --app " + app + " --id "
                                + taken.get(0).id());
        assertThat(failed.out()).doesNotContain("restoring");
        running.forEach(WeirApp::close); // the instances stopped after the savepoint
        running.clear();

        // The worst case for helm rollback: a restore that failed half-way (the record deleted) with the
        // StatefulSet at 0. The pre-rollback hook restores the pre-upgrade savepoint into v1.
        try (org.apache.kafka.clients.admin.Admin admin =
                org.apache.kafka.clients.admin.Admin.create(Map.of("bootstrap.servers", KAFKA.bootstrapServers()))) {
            admin.deleteTopics(List.of(app + "-topology")).all().get();
        }
        kubernetes.api().scaleStatefulSet(STATEFULSET, 0);
        produce(100);
        Outcome rolledBack = upgrade(describe(v1(), "v1"), "--rollback", "--savepoint-prefix", "pre-upgrade-");
        assertThat(rolledBack.code()).as(rolledBack.err()).isEqualTo(Weir.OK);
        assertThat(rolledBack.out())
                .contains(
                        "no topology recorded",
                        "is at 0 replicas",
                        "restored savepoint " + taken.get(0).id());
        kubernetes.api().scaleStatefulSet(STATEFULSET, 2);
        startInstances(v1());
        produce(100);
        awaitExactCounts();
    }

    // ---- failures the hook survives ---------------------------------------------------------------

    private java.util.Optional<UpgradeMark> mark() {
        return kubernetes
                .api()
                .statefulSetAnnotation(STATEFULSET, UpgradeMark.ANNOTATION)
                .flatMap(v -> UpgradeMark.decode(v, line -> {}));
    }

    /** The pods restarted by Kubernetes once the StatefulSet is scaled back. */
    private void restartInstances(Topology topology) throws Exception {
        running.forEach(WeirApp::close);
        running.clear();
        startInstances(topology);
    }

    @Test
    void aRestoreThatFailsIsUndoneIntoTheOldTopology() throws Exception {
        startInstances(v1());
        produce(300);
        awaitExactCounts();
        String statefulSetPath =
                "/apis/apps/v1/namespaces/" + MockKubernetes.NAMESPACE + "/statefulsets/" + STATEFULSET;
        // The API accepts the first change of the StatefulSet (the mark that the application is
        // stopped) and refuses the second (the mark that the restore begins).
        kubernetes
                .expect()
                .patch()
                .withPath(statefulSetPath)
                .andReturn(200, "{\"kind\": \"StatefulSet\", \"metadata\": {\"name\": \"counter\"}}")
                .once();
        kubernetes
                .expect()
                .patch()
                .withPath(statefulSetPath)
                .andReturn(500, """
                {"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "InternalError",
                 "code": 500, "message": "etcdserver: request timed out"}
                """)
                .once();
        CompletableFuture<Void> controller = controller(0);

        Outcome failed = upgrade(describe(v2(), "v2"));
        controller.get();

        assertThat(failed.code()).isEqualTo(Weir.FAILED);
        assertThat(failed.err().strip().lines()).hasSize(1);
        assertThat(failed.err())
                .contains(
                        "upgrade of " + app + " failed: marking statefulset counter failed",
                        "etcdserver: request timed out",
                        "restored into its topology, statefulset counter scaled back to 2 replicas");
        assertThat(failed.out()).contains("restoring savepoint pre-upgrade-", "into the old topology");
        assertThat(kubernetes.api().statefulSetReplicas(STATEFULSET)).isEqualTo(2);
        assertThat(mark()).isEmpty();
        startInstances(v1());
        produce(100);
        awaitExactCounts();
    }

    @Test
    void anUpgradeKilledAfterTheScaleTo0IsResumedByTheNextAttempt() throws Exception {
        startInstances(v1());
        produce(300);
        awaitExactCounts();
        // What a hook killed half-way through its restore leaves: the application stopped at its
        // savepoint, the StatefulSet at 0 and marked, the record deleted.
        Outcome stopped = WeirTest.runShown(
                "stop", "--savepoint", "--app", app, "--id", "pre-upgrade-r2-killed", "-b", KAFKA.bootstrapServers());
        assertThat(stopped.code()).as(stopped.err()).isEqualTo(Weir.OK);
        running.forEach(WeirApp::close);
        running.clear();
        kubernetes.api().scaleStatefulSet(STATEFULSET, 0);
        kubernetes
                .api()
                .annotateStatefulSet(
                        STATEFULSET,
                        UpgradeMark.ANNOTATION,
                        new UpgradeMark("pre-upgrade-r2-killed", 2, UpgradeMark.Phase.restoring).encode());
        try (org.apache.kafka.clients.admin.Admin admin =
                org.apache.kafka.clients.admin.Admin.create(Map.of("bootstrap.servers", KAFKA.bootstrapServers()))) {
            admin.deleteTopics(List.of(app + "-topology")).all().get();
        }
        produce(100);

        Outcome resumed = upgrade(describe(v2(), "v2"));

        assertThat(resumed.code()).as(resumed.err()).isEqualTo(Weir.OK);
        assertThat(resumed.out())
                .contains("left by an upgrade that did not finish", "restored savepoint pre-upgrade-r2-killed")
                .doesNotContain("taking savepoint");
        assertThat(savepoints()).extracting(Manifest::id).containsExactly("pre-upgrade-r2-killed");
        assertThat(mark()).hasValue(new UpgradeMark("pre-upgrade-r2-killed", 2, UpgradeMark.Phase.restored));
        kubernetes.api().scaleStatefulSet(STATEFULSET, 2);
        startInstances(v2());
        produce(100);
        awaitExactCounts();
    }

    @Test
    void anAtomicUpgradeToAVersionThatNeverStartsRollsBackToTheRollingRevisionExactly() throws Exception {
        startInstances(v1());
        produce(600);
        awaitExactCounts();
        Path v1 = describe(v1(), "v1");
        mode = "rolling";
        Outcome nothingMarked = upgrade(v1, "--rollback", "--savepoint-prefix", "pre-upgrade-");
        mode = "savepoint";
        assertThat(nothingMarked.code()).as(nothingMarked.err()).isEqualTo(Weir.OK);
        assertThat(nothingMarked.out()).contains("no savepoint upgrade is marked", "nothing to undo");

        // helm upgrade --atomic: the hook carries the state into v2, Helm applies v2's StatefulSet...
        CompletableFuture<Void> controller = controller(200);
        Outcome upgraded = upgrade(describe(v2(), "v2"), "--keep", "3", "--prefix", "pre-upgrade-");
        assertThat(upgraded.code()).as(upgraded.err()).isEqualTo(Weir.OK);
        assertThat(upgraded.out()).contains("keep         pre-upgrade-", "the newest: never deleted");
        controller.get();
        String savepoint = savepoints().get(0).id();
        kubernetes.api().scaleStatefulSet(STATEFULSET, 2);
        // ...whose pods never get as far as recording their topology (a crash at start); Helm gives up
        // waiting and rolls back to the revision before, rendered with upgrade.mode=rolling.
        produce(100);
        mode = "rolling";
        Outcome rolledBack = upgrade(v1, "--rollback", "--savepoint-prefix", "pre-upgrade-");

        assertThat(rolledBack.code()).as(rolledBack.err()).isEqualTo(Weir.OK);
        assertThat(rolledBack.out())
                .contains(
                        "the new version never recorded its topology",
                        "scaling statefulset counter from 2 to 0 replicas",
                        "restored savepoint " + savepoint);
        assertThat(mark()).isEmpty();
        kubernetes.api().scaleStatefulSet(STATEFULSET, 2);
        startInstances(v1());
        produce(100);
        awaitExactCounts(); // v1 goes on from the pre-upgrade savepoint: the 300 records since counted once
    }
}
