package io.weir.deploy.kubernetes.cluster;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.weir.common.internal.Worker;
import io.weir.testkit.Podman;
import io.weir.testkit.kubernetes.KubernetesApiServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The StatefulSet controller for one StatefulSet, reading it from the API server every half second
 * and acting on it, with Podman pods ({@link Kubelet}) in place of a node's:
 * <ul>
 *   <li><b>pods</b>: created and deleted as Kubernetes' controller decides for the spec's
 *       {@code replicas}, {@code podManagementPolicy} (Parallel or OrderedReady), RollingUpdate
 *       {@code partition} and {@code minReadySeconds}: {@link StatefulSetSync} holds those rules. So
 *       a PATCH of {@code spec.replicas} (kubectl scale, a hook scaling to 0) is obeyed, and a
 *       rolling update under Parallel does not wait for a lower ordinal that is down;</li>
 *   <li><b>cluster DNS</b>: each pod's {@code /etc/hosts} kept at the headless Service's records
 *       ({@link #dnsRecords()}), so instances reach each other by the names they advertise;</li>
 *   <li><b>status</b>: replicas, readyReplicas, availableReplicas, updatedReplicas, currentRevision and
 *       updateRevision written back, so hooks and scripts can wait on them as on a cluster.</li>
 *   <li><b>claims</b>: each pod's PersistentVolumeClaims stored in the API server before the pod
 *       (labelled with the template's and the selector's labels), as a clean-up finds them.</li>
 * </ul>
 * Not done: PersistentVolumeClaim retention (claims always stay, as the chart's {@code Retain}),
 * maxUnavailable, CrashLoopBackOff. Thread-safe; one loop thread.
 */
public final class StatefulSetController implements AutoCloseable {

    private static final Duration RESYNC = Duration.ofMillis(500);

    private final KubernetesClient client;
    private final KubernetesApiServer api;
    private final String namespace;
    private final String name;
    private final Podman podman;
    private final Path workDir;
    private final Events events;
    private final Map<Integer, Kubelet> pods = new ConcurrentHashMap<>();
    /** When the controller last deleted the pod of each ordinal ({@link System#nanoTime()}). */
    private final Map<Integer, Long> deletedAt = new ConcurrentHashMap<>();
    /** Ordinals whose pod is being created (podman kube play takes seconds), with its revision: not created twice. */
    private final Map<Integer, String> creating = new ConcurrentHashMap<>();

    private final ExecutorService podWork = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "pod-create-delete");
        t.setDaemon(true);
        return t;
    });
    private final Worker loop;
    private volatile String lastError = "";

    public StatefulSetController(
            KubernetesApiServer api, String namespace, String name, Podman podman, Path workDir, Events events) {
        this.api = api;
        this.client = api.client();
        this.namespace = namespace;
        this.name = name;
        this.podman = podman;
        this.workDir = workDir;
        this.events = events;
        // The controller's resync: it acts on what it reads each time.
        this.loop = Worker.named("statefulset-controller-" + name)
                .joinTimeout(Duration.ofSeconds(10))
                .every(RESYNC, self -> reconcileOnce());
    }

    /** The pods that exist now (terminating ones included), by ordinal. */
    public Map<Integer, Kubelet> pods() {
        return new TreeMap<>(pods);
    }

    /**
     * Seconds from the controller's deletion of each ordinal's previous pod to its new pod turning
     * ready: how long the instance was away (Weir keeps its tasks if it is back within the session timeout).
     */
    public Map<String, Double> secondsAway() {
        Map<String, Double> away = new TreeMap<>();
        pods.forEach((ordinal, k) -> {
            Long deleted = deletedAt.get(ordinal);
            if (deleted != null && k.readySinceNanos() > deleted) {
                away.put(k.name(), Math.round((k.readySinceNanos() - deleted) / 1e8) / 10.0);
            }
        });
        return away;
    }

    /**
     * What the cluster's DNS answers for the governing headless Service now: each existing pod's
     * {@code <pod>.<service>.<namespace>.svc} (and its {@code .cluster.local} form) to the pod's
     * address, ready or not, as a Service with {@code publishNotReadyAddresses} publishes it. The
     * runner has no cluster DNS; hook pods get these as {@code hostAliases} ({@link HookRunner}).
     */
    public Map<String, String> dnsRecords() {
        StatefulSet sts = client.apps()
                .statefulSets()
                .inNamespace(namespace)
                .withName(name)
                .get();
        // Deleted (helm uninstall): its Service went with it, so the DNS has nothing for it either.
        return sts == null ? Map.of() : dnsRecords(sts.getSpec().getServiceName());
    }

    private Map<String, String> dnsRecords(String service) {
        Map<String, String> records = new TreeMap<>();
        pods.values().stream()
                .filter(k -> !k.gone())
                .forEach(k -> k.address().ifPresent(address -> {
                    String host = k.name() + "." + service + "." + namespace + ".svc";
                    records.put(host, address);
                    records.put(host + ".cluster.local", address);
                }));
        return records;
    }

    /** {@code kubectl delete pod --grace-period=0 --force}: the controller makes it again. */
    public void forceDelete(int ordinal) {
        Kubelet k = pods.get(ordinal);
        if (k != null) {
            k.forceDelete();
            pods.remove(ordinal, k);
        }
    }

    /** One resync; a failure is reported once (until another one) and the next resync retries. */
    private void reconcileOnce() {
        try {
            reconcile();
        } catch (RuntimeException e) {
            String message = String.valueOf(e.getMessage());
            if (!message.equals(lastError)) {
                events.event("statefulset-controller", name, "reconcile failed (retrying): " + message);
                lastError = message;
            }
        }
    }

    private void reconcile() {
        pods.values().removeIf(Kubelet::gone);
        StatefulSet sts = client.apps()
                .statefulSets()
                .inNamespace(namespace)
                .withName(name)
                .get();
        if (sts == null) {
            Map<Integer, StatefulSetSync.Pod> left = new TreeMap<>();
            pods.forEach((ordinal, k) ->
                    left.put(ordinal, new StatefulSetSync.Pod(k.pod().revision(), k.terminating(), false)));
            StatefulSetSync.orphaned(left)
                    .forEach(action -> delete(action.ordinal(), pods.get(action.ordinal()), action.reason()));
            return;
        }
        int replicas = sts.getSpec().getReplicas() == null ? 1 : sts.getSpec().getReplicas();
        int minReady =
                sts.getSpec().getMinReadySeconds() == null ? 0 : sts.getSpec().getMinReadySeconds();
        String revision = StatefulSetPods.revision(sts);
        int partition = Optional.ofNullable(sts.getSpec().getUpdateStrategy())
                .map(s -> s.getRollingUpdate() == null
                        ? null
                        : s.getRollingUpdate().getPartition())
                .orElse(0);
        boolean rolling = sts.getSpec().getUpdateStrategy() == null
                || !"OnDelete".equals(sts.getSpec().getUpdateStrategy().getType());
        StatefulSetSync.Spec spec = new StatefulSetSync.Spec(
                replicas, "Parallel".equals(sts.getSpec().getPodManagementPolicy()), rolling, partition, revision);
        Map<Integer, StatefulSetSync.Pod> seen = new TreeMap<>();
        pods.forEach((ordinal, k) ->
                seen.put(ordinal, new StatefulSetSync.Pod(k.pod().revision(), k.terminating(), k.available(minReady))));
        // A pod being played exists for the controller (the API server has it), not yet ready.
        creating.forEach((ordinal, podRevision) ->
                seen.putIfAbsent(ordinal, new StatefulSetSync.Pod(podRevision, false, false)));
        for (StatefulSetSync.Action action : StatefulSetSync.sync(spec, seen)) {
            if (action.create()) {
                create(sts, action.ordinal());
            } else if (pods.containsKey(action.ordinal())) {
                delete(action.ordinal(), pods.get(action.ordinal()), action.reason());
            } // else still being played: deleted at a later resync, once it runs
        }
        writeStatus(sts, replicas, revision, minReady);
        // Cluster DNS for the pods themselves: instances forward queries to each other by these names.
        Map<String, String> records = dnsRecords(sts.getSpec().getServiceName());
        pods.values().forEach(k -> k.resolve(records));
    }

    /** Creates the pod on another thread, as the API server would accept it and a kubelet start it. */
    private void create(StatefulSet sts, int ordinal) {
        StatefulSetPods.OrdinalPod pod = StatefulSetPods.pod(sts, ordinal);
        // Its claims, stored as Kubernetes' controller stores them before the pod, once: what a
        // clean-up lists and deletes through the API. (Podman's volume stays: there is no reclaim.)
        for (var claim : pod.claims()) {
            var claims = client.persistentVolumeClaims().inNamespace(namespace);
            if (claims.withName(claim.getMetadata().getName()).get() == null) {
                claims.resource(claim).create();
            }
        }
        PlayManifest.Played played = PlayManifest.of(pod, cluster(), this::volumeExists);
        events.event("statefulset-controller", name, "create Pod " + pod.name() + " (revision " + pod.revision() + ")");
        creating.put(ordinal, pod.revision());
        podWork.execute(() -> {
            try {
                pods.put(ordinal, Kubelet.start(podman, pod, played, workDir, events));
            } catch (RuntimeException e) {
                events.event("kubelet", pod.name(), "failed to start (the controller retries): " + e.getMessage());
            } finally {
                creating.remove(ordinal);
            }
        });
    }

    private void delete(int ordinal, Kubelet k, String why) {
        events.event("statefulset-controller", name, "delete Pod " + k.name() + ": " + why);
        k.markTerminating();
        deletedAt.put(ordinal, System.nanoTime());
        podWork.execute(() -> {
            k.delete(why);
            pods.remove(ordinal, k);
        });
    }

    private void writeStatus(StatefulSet sts, int replicas, String revision, int minReady) {
        long ready = pods.values().stream().filter(Kubelet::ready).count();
        long available =
                pods.values().stream().filter(k -> k.available(minReady)).count();
        long updated = pods.values().stream()
                .filter(k -> k.pod().revision().equals(revision))
                .count();
        var status = sts.getStatus() == null
                ? new io.fabric8.kubernetes.api.model.apps.StatefulSetStatus()
                : sts.getStatus();
        boolean changed = !Integer.valueOf(pods.size()).equals(status.getReplicas())
                || !Integer.valueOf((int) ready).equals(status.getReadyReplicas())
                || !Integer.valueOf((int) available).equals(status.getAvailableReplicas())
                || !Integer.valueOf((int) updated).equals(status.getUpdatedReplicas())
                || !revision.equals(status.getUpdateRevision());
        if (!changed) {
            return;
        }
        status.setReplicas(pods.size());
        status.setReadyReplicas((int) ready);
        status.setAvailableReplicas((int) available);
        status.setUpdatedReplicas((int) updated);
        status.setCurrentReplicas((int) updated);
        status.setUpdateRevision(revision);
        status.setCurrentRevision(updated == replicas ? revision : status.getCurrentRevision());
        status.setObservedGeneration(sts.getMetadata().getGeneration());
        sts.setStatus(status);
        client.apps().statefulSets().inNamespace(namespace).resource(sts).updateStatus();
    }

    private boolean volumeExists(String volume) {
        return podman.run(Duration.ofSeconds(30), "volume", "exists", volume).exitCode() == 0;
    }

    /** What the kubelet reads from the API server while it sets a pod up (also used for hook pods). */
    public PlayManifest.Cluster cluster() {
        return new PlayManifest.Cluster() {
            @Override
            public String apiHost() {
                return PodNetwork.GATEWAY;
            }

            @Override
            public int apiPort() {
                return api.httpsPort();
            }

            @Override
            public String caCertificatePem() {
                return api.caCertificatePem();
            }

            @Override
            public String token(String ns, String serviceAccount) {
                return api.tokenFor(ns, serviceAccount);
            }

            @Override
            public Optional<Boolean> automount(String ns, String serviceAccount) {
                ServiceAccount sa = client.serviceAccounts()
                        .inNamespace(ns)
                        .withName(serviceAccount)
                        .get();
                return Optional.ofNullable(sa).map(ServiceAccount::getAutomountServiceAccountToken);
            }

            @Override
            public Optional<ConfigMap> configMap(String ns, String configMap) {
                return Optional.ofNullable(
                        client.configMaps().inNamespace(ns).withName(configMap).get());
            }

            @Override
            public Optional<Secret> secret(String ns, String secret) {
                return Optional.ofNullable(
                        client.secrets().inNamespace(ns).withName(secret).get());
            }
        };
    }

    @Override
    public void close() {
        loop.close();
        podWork.shutdown();
        pods.values().forEach(Kubelet::close);
    }
}
