package io.weir.deploy.kubernetes.scenario;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.dsl.RollableScalableResource;
import io.weir.deploy.kubernetes.cluster.Kubelet;
import io.weir.deploy.kubernetes.cluster.StatefulSetController;
import io.weir.deploy.kubernetes.cluster.StatefulSetPods;
import io.weir.testkit.kubernetes.KubernetesApiServer;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;

/**
 * The scenario's StatefulSet, as the API server stores it and the runner's controller plays it:
 * its replicas, a scale, the rollout's progress, a pod's readiness. Thread-safe (each call asks).
 */
final class StatefulSetView {

    private final KubernetesApiServer api;
    private final String namespace;
    private final String name;
    private final StatefulSetController controller;

    StatefulSetView(KubernetesApiServer api, String namespace, String name, StatefulSetController controller) {
        this.api = api;
        this.namespace = namespace;
        this.name = name;
        this.controller = controller;
    }

    String name() {
        return name;
    }

    /** {@code spec.replicas} in the API server. */
    int replicas() {
        return resource().get().getSpec().getReplicas();
    }

    /** {@code kubectl scale statefulset --replicas}: the scale subresource PATCHed in the API server. */
    void scale(int replicas) {
        resource().scale(replicas);
    }

    /** Whether the pod named {@code pod} exists and is ready. */
    boolean ready(String pod) {
        return controller.pods().values().stream().anyMatch(k -> k.name().equals(pod) && k.ready());
    }

    /**
     * Waits until every ordinal below {@code replicas} is ready on the StatefulSet's current revision
     * and none other exists, up to {@code perPod} for each.
     */
    void awaitRollout(int replicas, Duration perPod) {
        Awaitility.await("rollout of " + replicas + " pods")
                .atMost(perPod.multipliedBy(replicas))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    String revision = StatefulSetPods.revision(resource().get());
                    Map<Integer, Kubelet> pods = controller.pods();
                    return pods.size() == replicas
                            && pods.values().stream()
                                    .allMatch(
                                            k -> k.ready() && k.pod().revision().equals(revision));
                });
    }

    private RollableScalableResource<StatefulSet> resource() {
        return api.client().apps().statefulSets().inNamespace(namespace).withName(name);
    }
}
