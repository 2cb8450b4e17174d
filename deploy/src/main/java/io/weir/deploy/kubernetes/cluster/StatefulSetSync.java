package io.weir.deploy.kubernetes.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * One sync of a StatefulSet as Kubernetes' controller does it ({@code updateStatefulSet} in
 * {@code pkg/controller/statefulset/stateful_set_control.go}, the path without the
 * MaxUnavailableStatefulSet feature gate): from the spec and the pods that exist, which pods to
 * create and which to delete now. No I/O, so each rule is tested on its own
 * ({@code StatefulSetSyncTest}); {@link StatefulSetController} applies the actions.
 *
 * <p>The rules, in the controller's order:
 * <ol>
 *   <li><b>replicas</b> (ordinals below {@code replicas}): a missing pod is created. With
 *       {@code OrderedReady} ("monotonic") the sync stops at the first pod it creates, and at the
 *       first that is terminating, not ready or not yet available, so each pod waits for all its
 *       predecessors. With {@code Parallel} every missing pod is created at once and nothing waits;
 *       a pod still terminating is not replaced until it is gone (its name is taken).</li>
 *   <li><b>condemned</b> (ordinals at or above {@code replicas}), highest first: Parallel deletes all
 *       of them at once; OrderedReady deletes one, waits for it to terminate, and only once every
 *       other pod is healthy (an unhealthy condemned pod may go if it is the first unhealthy one).</li>
 *   <li><b>RollingUpdate</b> (not OnDelete): walking down from the highest ordinal to
 *       {@code partition}, the first pod of an old revision that is not terminating is deleted (it is
 *       recreated by rule 1 at the new revision), and the walk stops at the first pod that is not
 *       available. So the update waits for the pods above the one it replaces, not for those below:
 *       under Parallel, a lower ordinal that is down (a crash, a forced deletion) does not hold the
 *       rollout, where under OrderedReady rule 1 holds everything until it is back.</li>
 * </ol>
 */
final class StatefulSetSync {

    /** The spec's parts the sync reads. {@code partition} is RollingUpdate's; {@code rolling} is false for OnDelete. */
    record Spec(int replicas, boolean parallel, boolean rolling, int partition, String updateRevision) {}

    /**
     * A pod as the controller sees it: its revision, whether it is being deleted, and whether it is
     * available (ready for {@code minReadySeconds}; a pod being created is neither ready nor available).
     */
    record Pod(String revision, boolean terminating, boolean available) {}

    /** What to do now. {@code create} is true for a creation, false for a deletion. */
    record Action(int ordinal, boolean create, String reason) {
        static Action create(int ordinal) {
            return new Action(ordinal, true, "missing");
        }

        static Action delete(int ordinal, String reason) {
            return new Action(ordinal, false, reason);
        }
    }

    private StatefulSetSync() {}

    /**
     * The StatefulSet is gone (a cascading deletion, as {@code helm uninstall} makes): every pod is
     * deleted, once. A pod already terminating is left to finish: deleting it again would run its
     * preStop hook and stop its container a second time, as many times as the controller resyncs
     * while it stops.
     */
    static List<Action> orphaned(Map<Integer, Pod> existing) {
        return new TreeMap<>(existing)
                .entrySet().stream()
                        .filter(e -> !e.getValue().terminating())
                        .map(e -> Action.delete(e.getKey(), "StatefulSet deleted"))
                        .toList();
    }

    static List<Action> sync(Spec spec, Map<Integer, Pod> existing) {
        NavigableMap<Integer, Pod> pods = new TreeMap<>(existing);
        List<Action> actions = new ArrayList<>();
        boolean monotonic = !spec.parallel();

        // 1. Replicas, in ordinal order.
        for (int ordinal = 0; ordinal < spec.replicas(); ordinal++) {
            Pod pod = pods.get(ordinal);
            if (pod == null) {
                actions.add(Action.create(ordinal));
                if (monotonic) {
                    return actions;
                }
                // The new pod exists from here on, neither ready nor available.
                pods.put(ordinal, new Pod(spec.updateRevision(), false, false));
                continue;
            }
            if (monotonic && (pod.terminating() || !pod.available())) {
                return actions;
            }
        }

        // 2. Condemned, highest ordinal first.
        Integer firstUnavailable = pods.entrySet().stream()
                .filter(e -> e.getKey() < spec.replicas() && unavailable(e.getValue()))
                .map(Map.Entry::getKey)
                .findFirst()
                .orElse(null);
        if (firstUnavailable == null) {
            // The controller looks for one among the condemned next, lowest ordinal first.
            firstUnavailable = pods.tailMap(spec.replicas(), true).entrySet().stream()
                    .filter(e -> unavailable(e.getValue()))
                    .map(Map.Entry::getKey)
                    .findFirst()
                    .orElse(null);
        }
        for (int ordinal : pods.tailMap(spec.replicas(), true).descendingKeySet()) {
            Pod pod = pods.get(ordinal);
            if (pod.terminating()) {
                if (monotonic) {
                    return actions;
                }
                continue;
            }
            if (monotonic && !pod.available() && !Integer.valueOf(ordinal).equals(firstUnavailable)) {
                return actions;
            }
            actions.add(Action.delete(ordinal, "scale down to " + spec.replicas() + " replicas"));
            if (monotonic) {
                return actions;
            }
        }

        // 3. RollingUpdate: the highest old pod, waiting only on the pods above it.
        if (!spec.rolling()) {
            return actions;
        }
        for (int ordinal = spec.replicas() - 1; ordinal >= spec.partition(); ordinal--) {
            Pod pod = pods.get(ordinal);
            if (!pod.revision().equals(spec.updateRevision()) && !pod.terminating()) {
                actions.add(Action.delete(ordinal, "rolling update to revision " + spec.updateRevision()));
                return actions;
            }
            if (unavailable(pod)) {
                return actions;
            }
        }
        return actions;
    }

    private static boolean unavailable(Pod pod) {
        return pod.terminating() || !pod.available();
    }
}
