package io.weir.internal.kubernetes;

import io.weir.common.internal.Deadline;
import io.weir.errors.ConfigException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code shutdown.leave.group=kubernetes_scale_in}: decides at SIGTERM whether this instance's pod
 * goes away for good (leave the consumer group, so its tasks move at once) or comes back (keep the
 * static membership, so its tasks wait for it and move nowhere).
 *
 * <p>Kubernetes sends the same SIGTERM for both, and the pod cannot tell them apart by itself. What
 * tells them apart is the StatefulSet's desired replicas ({@code spec.replicas}): a scale-down
 * ({@code kubectl scale}, {@code helm upgrade --set replicaCount}, a HorizontalPodAutoscaler or
 * KEDA, which all write that one field through the {@code scale} subresource) lowers it before the
 * controller deletes the pods with the highest ordinals, while a rollout, an eviction, a node drain
 * or {@code kubectl delete pod} leaves it as it was. So a pod whose ordinal is at or above the
 * desired replicas at SIGTERM is being removed; any other pod will be recreated under its name.
 *
 * <p>{@link #start} checks, when the instance starts, that the decision can be made: the instance
 * id is a StatefulSet pod name, the pod has a service account token, and the API lets it read the
 * StatefulSet's scale. Each of these failing stops the start with a {@link ConfigException} on
 * {@code shutdown.leave.group} that says what to change (an API that does not answer then is only
 * a warning: it may by SIGTERM). {@link #atShutdown()} makes the decision and logs it on one line,
 * with the ordinal and the desired replicas; it never throws.
 *
 * <p>Thread-safe.
 */
public final class ScaleInCheck {

    /** The setting this check belongs to, named by its errors. */
    public static final String SETTING = "shutdown.leave.group";
    /** The longest the API call at SIGTERM may take: it is counted in shutdown.timeout.ms. */
    static final Duration MAX_SHUTDOWN_CALL = Duration.ofSeconds(2);
    /** The shortest, however short shutdown.timeout.ms is: an API call needs a round trip or two. */
    static final Duration MIN_SHUTDOWN_CALL = Duration.ofMillis(250);

    private static final Logger log = LoggerFactory.getLogger(ScaleInCheck.class);

    private final StatefulSetPod pod;
    private final KubernetesApi api;

    private ScaleInCheck(StatefulSetPod pod, KubernetesApi api) {
        this.pod = pod;
        this.api = api;
    }

    /** The decision at SIGTERM, and why, for the log. */
    public record Decision(boolean leave, String reason) {}

    /**
     * Checks that this instance can decide at SIGTERM, and returns the check that will: the
     * instance id must be its pod's name, and {@code inCluster} must give the API of its cluster
     * (or throw a {@link KubernetesApiException} saying why not), which must let it read its
     * StatefulSet's scale. The call at SIGTERM takes at most a quarter of {@code shutdownTimeout}
     * and never more than 2 s.
     *
     * @throws ConfigException on {@code shutdown.leave.group}, saying what to change, when it cannot
     */
    public static ScaleInCheck start(
            Optional<String> instanceId, Supplier<KubernetesApi> inCluster, Duration shutdownTimeout) {
        String podName = instanceId.orElseThrow(() -> new ConfigException(
                SETTING,
                "kubernetes_scale_in needs"
                        + " instance.id set to the pod's name (<statefulset>-<ordinal>, for example from the downward API's"
                        + " metadata.name as WEIR_INSTANCE_ID), but instance.id is not set"));
        StatefulSetPod pod = StatefulSetPod.of(podName)
                .orElseThrow(() -> new ConfigException(
                        SETTING,
                        "kubernetes_scale_in needs instance.id to be the name of a StatefulSet's pod, <statefulset>-<ordinal>,"
                                + " but it is '" + podName + "'; set instance.id to the pod's name, or"
                                + " shutdown.leave.group=false outside a StatefulSet"));
        KubernetesApi api;
        try {
            api = inCluster.get();
        } catch (KubernetesApiException e) {
            throw new ConfigException(
                    SETTING,
                    "kubernetes_scale_in reads the StatefulSet's desired replicas through"
                            + " the Kubernetes API, but " + e.getMessage() + " (it needs get on statefulsets/scale for "
                            + pod.statefulSet()
                            + "); or set shutdown.leave.group=false and leave the group before removing"
                            + " a pod for good (POST /admin/leave)");
        }
        ScaleInCheck check = new ScaleInCheck(pod, api.withTimeout(shutdownCallTimeout(shutdownTimeout)));
        try {
            int replicas = api.statefulSetReplicas(pod.statefulSet());
            log.info(
                    "{}=kubernetes_scale_in: pod {} (ordinal {}) of StatefulSet {} in namespace {}, desired replicas"
                            + " {} now; at SIGTERM this instance leaves the consumer group only if its ordinal is then at"
                            + " or above the desired replicas (a scale-down), and keeps its membership otherwise",
                    SETTING,
                    pod.name(),
                    pod.ordinal(),
                    pod.statefulSet(),
                    api.namespace(),
                    replicas);
        } catch (KubernetesApiException e) {
            if (e.refused()) {
                throw new ConfigException(
                        SETTING,
                        "kubernetes_scale_in cannot read the StatefulSet's desired" + " replicas: " + e.getMessage());
            }
            // An API server restarting or a network blip must not stop the instance: the call is made again at SIGTERM.
            log.warn(
                    "{}=kubernetes_scale_in: cannot read the desired replicas of StatefulSet {} now ({}); starting"
                            + " anyway, the check runs again at SIGTERM",
                    SETTING,
                    pod.statefulSet(),
                    e.getMessage());
        }
        return check;
    }

    /**
     * Whether this instance leaves the group now that it is stopping, logged on one line with the
     * reason: leave when the pod's ordinal is at or above the StatefulSet's desired replicas, or the
     * StatefulSet is gone (the application is being removed); keep the membership otherwise. When
     * the API cannot answer within the time-out, keep the membership and log a WARN: a wrong leave
     * would move every task of a pod that comes back (twice: away and back, each a rebalance and
     * restores), while a wrong stay costs only consumer.session.timeout.ms before its tasks move (the
     * others wait that long for an instance that announced a restart), so staying is the cheaper
     * mistake.
     */
    public Decision atShutdown() {
        Deadline started = Deadline.after(api.timeout());
        int replicas;
        try {
            replicas = api.statefulSetReplicas(pod.statefulSet());
        } catch (KubernetesApiException e) {
            if (e.status().orElse(0) == 404) {
                // Deleted StatefulSets (helm uninstall, kubectl delete) take their pods with them: none comes back.
                return logged(new Decision(
                        true,
                        "StatefulSet " + pod.statefulSet() + " no longer exists, so pod " + pod.name()
                                + " will not come back: leaving the consumer group"));
            }
            Decision keep = new Decision(
                    false,
                    "cannot read the desired replicas of StatefulSet " + pod.statefulSet()
                            + " (" + e.getMessage() + "); keeping the group membership, as for a restart: if pod "
                            + pod.name()
                            + " is being removed for good, its tasks move once consumer.session.timeout.ms has passed");
            log.warn("{}=kubernetes_scale_in: {}", SETTING, keep.reason());
            return keep;
        }
        String took = Deadline.format(api.timeout().minus(started.remaining()));
        String facts = "pod " + pod.name() + " (ordinal " + pod.ordinal() + ") is "
                + (pod.removedAt(replicas) ? "at or above" : "below") + " the desired replicas of StatefulSet "
                + pod.statefulSet() + " (" + replicas + "): ";
        if (pod.removedAt(replicas)) {
            return logged(new Decision(
                    true,
                    facts + "removed by a scale-down, leaving the consumer group (the API" + " answered in " + took
                            + ")"));
        }
        return logged(new Decision(
                false,
                facts + "a restart (rollout, eviction or deleted pod), keeping the group"
                        + " membership (the API answered in " + took + ")"));
    }

    private static Decision logged(Decision d) {
        log.info("{}=kubernetes_scale_in: {}", SETTING, d.reason());
        return d;
    }

    /** A quarter of the shutdown's time, between 250 ms and 2 s: the rest is for the commit and the close. */
    static Duration shutdownCallTimeout(Duration shutdownTimeout) {
        Duration quarter =
                Objects.requireNonNull(shutdownTimeout, "shutdownTimeout").dividedBy(4);
        if (quarter.compareTo(MAX_SHUTDOWN_CALL) > 0) {
            return MAX_SHUTDOWN_CALL;
        }
        return quarter.compareTo(MIN_SHUTDOWN_CALL) < 0 ? MIN_SHUTDOWN_CALL : quarter;
    }
}
