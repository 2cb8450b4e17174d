package io.weir.deploy.kubernetes.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.weir.deploy.kubernetes.cluster.StatefulSetSync.Action;
import io.weir.deploy.kubernetes.cluster.StatefulSetSync.Pod;
import io.weir.deploy.kubernetes.cluster.StatefulSetSync.Spec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The runner's StatefulSet controller decides as Kubernetes' does, policy by policy. */
class StatefulSetSyncTest {

    private static final String OLD = "r1";
    private static final String NEW = "r2";

    private static Pod up(String revision) {
        return new Pod(revision, false, true);
    }

    private static Pod down(String revision) {
        return new Pod(revision, false, false);
    }

    private static Pod terminating(String revision) {
        return new Pod(revision, true, true);
    }

    private static Spec parallel(int replicas) {
        return new Spec(replicas, true, true, 0, NEW);
    }

    private static Spec orderedReady(int replicas) {
        return new Spec(replicas, false, true, 0, NEW);
    }

    @Test
    void parallelCreatesEveryMissingPodAtOnce() {
        assertThat(StatefulSetSync.sync(parallel(3), Map.of()))
                .containsExactly(Action.create(0), Action.create(1), Action.create(2));
    }

    @Test
    void orderedReadyCreatesOnePodOnceItsPredecessorsAreAvailable() {
        assertThat(StatefulSetSync.sync(orderedReady(3), Map.of())).containsExactly(Action.create(0));
        assertThat(StatefulSetSync.sync(orderedReady(3), Map.of(0, down(NEW)))).isEmpty();
        assertThat(StatefulSetSync.sync(orderedReady(3), Map.of(0, up(NEW)))).containsExactly(Action.create(1));
    }

    @Test
    void aTerminatingPodIsNotReplacedUntilItIsGone() {
        assertThat(StatefulSetSync.sync(parallel(2), Map.of(0, up(NEW), 1, terminating(NEW))))
                .isEmpty();
        assertThat(StatefulSetSync.sync(parallel(2), Map.of(0, up(NEW)))).containsExactly(Action.create(1));
    }

    @Test
    void parallelScaleDownDeletesEveryCondemnedPodAtOnceEvenWithAPodDown() {
        assertThat(StatefulSetSync.sync(parallel(1), Map.of(0, down(NEW), 1, up(NEW), 2, up(NEW))))
                .extracting(Action::ordinal, Action::create)
                .containsExactly(tuple(2, false), tuple(1, false));
    }

    @Test
    void orderedReadyScaleDownRemovesTheHighestFirstAndWaitsForItToTerminate() {
        Map<Integer, Pod> three = Map.of(0, up(NEW), 1, up(NEW), 2, up(NEW));
        assertThat(StatefulSetSync.sync(orderedReady(1), three))
                .extracting(Action::ordinal)
                .containsExactly(2);
        assertThat(StatefulSetSync.sync(orderedReady(1), Map.of(0, up(NEW), 1, up(NEW), 2, terminating(NEW))))
                .isEmpty();
        // A replica that is down holds the scale-down.
        assertThat(StatefulSetSync.sync(orderedReady(2), Map.of(0, down(NEW), 1, up(NEW), 2, up(NEW))))
                .isEmpty();
    }

    @Test
    void orderedReadyMayRemoveACondemnedPodThatIsTheFirstUnhealthyOne() {
        assertThat(StatefulSetSync.sync(orderedReady(2), Map.of(0, up(NEW), 1, up(NEW), 2, down(NEW))))
                .extracting(Action::ordinal)
                .containsExactly(2);
    }

    @Test
    void rollingUpdateReplacesTheHighestOldPodFirst() {
        assertThat(StatefulSetSync.sync(parallel(3), Map.of(0, up(OLD), 1, up(OLD), 2, up(OLD))))
                .containsExactly(Action.delete(2, "rolling update to revision " + NEW));
    }

    @Test
    void rollingUpdateWaitsForTheReplacedPodAboveBeforeTheNext() {
        // weir-2 is back at the new revision but not yet available: weir-1 waits.
        assertThat(StatefulSetSync.sync(parallel(3), Map.of(0, up(OLD), 1, up(OLD), 2, down(NEW))))
                .isEmpty();
        assertThat(StatefulSetSync.sync(parallel(3), Map.of(0, up(OLD), 1, up(OLD), 2, up(NEW))))
                .extracting(Action::ordinal)
                .containsExactly(1);
    }

    @Test
    void underParallelTheUpdateDoesNotWaitForALowerOrdinalThatIsDown() {
        // weir-0 crashed (recreated, not ready yet): Kubernetes still replaces weir-2.
        List<Action> actions = StatefulSetSync.sync(parallel(3), Map.of(0, down(OLD), 1, up(OLD), 2, up(OLD)));
        assertThat(actions).extracting(Action::ordinal).containsExactly(2);
    }

    @Test
    void underOrderedReadyAPodThatIsDownHoldsTheUpdate() {
        assertThat(StatefulSetSync.sync(orderedReady(3), Map.of(0, down(OLD), 1, up(OLD), 2, up(OLD))))
                .isEmpty();
    }

    @Test
    void aMissingPodIsCreatedAtTheNewRevisionAndHoldsTheUpdateBelowIt() {
        // Parallel: weir-1 was force-deleted; it is made again, and weir-0's update waits for it.
        assertThat(StatefulSetSync.sync(parallel(3), Map.of(0, up(OLD), 2, up(NEW))))
                .containsExactly(Action.create(1));
    }

    @Test
    void thePartitionKeepsLowerOrdinalsAtTheOldRevision() {
        Spec spec = new Spec(3, true, true, 2, NEW);
        assertThat(StatefulSetSync.sync(spec, Map.of(0, up(OLD), 1, up(OLD), 2, up(NEW))))
                .isEmpty();
    }

    @Test
    void onDeleteReplacesNothing() {
        Spec spec = new Spec(2, true, false, 0, NEW);
        assertThat(StatefulSetSync.sync(spec, Map.of(0, up(OLD), 1, up(OLD)))).isEmpty();
    }

    @Test
    void aDeletedStatefulSetDeletesEachPodOnceWhateverItsState() {
        assertThat(StatefulSetSync.orphaned(Map.of(0, up(NEW), 1, down(OLD), 2, terminating(NEW))))
                .containsExactly(Action.delete(0, "StatefulSet deleted"), Action.delete(1, "StatefulSet deleted"));
        // The resyncs while they stop: nothing more to do.
        assertThat(StatefulSetSync.orphaned(Map.of(0, terminating(NEW), 1, terminating(OLD))))
                .isEmpty();
    }
}
