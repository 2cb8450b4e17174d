package io.weir.deploy.kubernetes.scenario;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.weir.deploy.kubernetes.cluster.Events;
import io.weir.deploy.kubernetes.cluster.Kubelet;
import io.weir.deploy.kubernetes.cluster.PodNetwork;
import io.weir.deploy.kubernetes.cluster.PodsCpuShare;
import io.weir.deploy.kubernetes.cluster.StatefulSetController;
import io.weir.deploy.kubernetes.helm.HookRunner;
import io.weir.deploy.kubernetes.helm.Release;
import io.weir.samples.wordcount.WordCount;
import io.weir.samples.wordcount.WordCountV2;
import io.weir.testkit.KafkaTestClient;
import io.weir.testkit.Podman;
import io.weir.testkit.kubernetes.KubernetesApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;

/**
 * The chart's pods, run for real under Podman, through the operations that make a stateful rollout
 * hard (issue 19): install three replicas of word-count against a test broker, roll out a new image
 * tag, force-delete a pod, scale down with {@code kubectl scale}, {@code helm test}, scale up and down
 * with {@code helm upgrade --set replicaCount}, the state-changing upgrade to word-count's v2 in
 * {@code savepoint} mode, and {@code helm test} again; a load generator feeds lines throughout and the counts are checked exact
 * ({@code read_committed}) after every step. Prints JSON lines ({@link Events}); each step says what
 * was real and what the runner did in Kubernetes' place. Run with
 * {@code deploy/kubernetes/run-scenario.sh} (see deploy/kubernetes/README.md).
 */
public final class PodmanScenario {

    private static final String RELEASE = "weir";
    private static final String NAMESPACE = "streaming";
    private static final String APP = "word-count";
    private static final String INPUT = "lines";
    private static final String OUTPUT = "word-counts";
    private static final int PARTITIONS = 6;
    private static final int REPLICAS = 3;
    private static final String IMAGE = "localhost/weir-samples";
    private static final Duration READY = Duration.ofMinutes(4);
    private static final Duration COUNTS = Duration.ofMinutes(3);
    /** The Secret scenario-values.yaml names in http.auth.existingSecret, made by the runner. */
    private static final String TOKEN_SECRET = "weir-http-token";
    /** The key store Secret of the tls variant (http.tls.keystore.secretName), made by the runner. */
    private static final String TLS_SECRET = "weir-http-tls";
    /** The query port of the tls variant (http.adminPort): /stores/ and /admin/ move there. */
    private static final int ADMIN_PORT = 8081;

    private final Path root;
    private final Path work;
    private final Events events = new Events(System.out);
    private final Podman podman;
    private final PodBroker broker;
    private final KafkaTestClient kafka;
    private final KubernetesApiServer api;
    private final LoadGenerator load;
    private StatefulSetController controller;
    private StatefulSetView statefulSet;
    private final ConsumerGroupView group;
    private final CountCheck counts;
    private final HelmCommands helm;
    private HookRunner hooks;
    private QueryCheck.Access queryAccess;
    private ServiceMonitorScrape scrape;
    private final boolean tls;

    private PodmanScenario(
            Path root, Path work, PodBroker broker, KafkaTestClient kafka, KubernetesApiServer api, boolean tls) {
        this.root = root;
        this.work = work;
        this.podman = Podman.withContainersConf(root.resolve("deploy/compose/podman/containers.conf"));
        this.broker = broker;
        this.kafka = kafka;
        this.api = api;
        this.load = new LoadGenerator(kafka, INPUT);
        this.group = new ConsumerGroupView(kafka, APP, INPUT, PARTITIONS);
        this.counts = new CountCheck(kafka, load, events, INPUT, OUTPUT, COUNTS);
        this.tls = tls;
        this.helm = new HelmCommands(
                root, RELEASE, NAMESPACE, IMAGE, broker.podBootstrapServers(), api, events, variantValues(tls));
    }

    /**
     * The values of a variant beside scenario-values.yaml: none for {@code plain}; for {@code tls}
     * HTTPS with a key store from a Secret, the token required everywhere ({@code
     * http.auth.scope=all}: probes aside, every call, Prometheus' and {@code helm test}'s included)
     * and queries on a port of their own ({@code http.adminPort}).
     */
    private static Map<String, Object> variantValues(boolean tls) {
        if (!tls) {
            return Map.of();
        }
        Map<String, Object> sets = new LinkedHashMap<>();
        sets.put("http.tls.keystore.secretName", TLS_SECRET);
        sets.put("http.tls.keystore.password.secretName", TLS_SECRET);
        sets.put("http.tls.keystore.password.key", "password");
        sets.put("http.auth.scope", "all");
        sets.put("http.adminPort", ADMIN_PORT);
        return sets;
    }

    /** Arguments: {@code -} and the variant, {@code plain} (the default) or {@code tls}. */
    public static void main(String[] args) throws Exception {
        String variant = args.length < 2 ? "plain" : args[1];
        if (!variant.equals("plain") && !variant.equals("tls")) {
            throw new IllegalArgumentException("unknown scenario variant '" + variant + "': plain or tls");
        }
        Path root = Release.chartDirectory().getParent().getParent();
        Path work = root.resolve("deploy/target/kubernetes-scenario");
        Files.createDirectories(work);
        Podman podman = Podman.withContainersConf(root.resolve("deploy/compose/podman/containers.conf"));
        if (podman.run(Duration.ofSeconds(30), "image", "exists", IMAGE + ":latest")
                        .exitCode()
                != 0) {
            throw new IllegalStateException(
                    "no image " + IMAGE + ":latest: build it with deploy/containers/build-image.sh"
                            + " (after mvn -B package -DskipTests), or run deploy/kubernetes/run-scenario.sh --build-image");
        }
        Leftovers leftovers = new Leftovers(podman, RELEASE);
        leftovers.removeNowAndAtExit();
        int status = 1;
        try (PodBroker broker = PodBroker.start();
                KafkaTestClient kafka = KafkaTestClient.connect(broker.bootstrapServers());
                KubernetesApiServer api = KubernetesApiServer.start(KubernetesApiServer.Options.namespace(NAMESPACE)
                        .withAccessControl()
                        .withTlsName(PodNetwork.GATEWAY)
                        .withTlsName(PodNetwork.HOST_NAME))) {
            PodmanScenario scenario = new PodmanScenario(root, work, broker, kafka, api, variant.equals("tls"));
            Optional<PodsCpuShare> share = PodsCpuShare.raise(scenario.events);
            try {
                scenario.run();
                status = 0;
            } catch (RuntimeException e) {
                scenario.events.failure(
                        String.valueOf(e.getMessage()).lines().findFirst().orElse(e.toString()));
                throw e;
            } finally {
                scenario.tearDown();
                share.ifPresent(PodsCpuShare::close);
            }
        } finally {
            leftovers.remove();
        }
        System.exit(status);
    }

    private void run() {
        kafka.createTopic(INPUT, PARTITIONS);
        kafka.createTopic(OUTPUT, PARTITIONS);
        events.step(
                "test broker (variant " + (tls ? "tls" : "plain") + ")",
                "a Kafka broker (testkit, KRaft, in the runner's JVM) with a listener for pods at "
                        + broker.podBootstrapServers(),
                "none",
                Map.of("partitions", PARTITIONS));

        // The HTTP token the chart mounts (http.auth.existingSecret), as an operator would create it.
        String token = java.util.HexFormat.of().formatHex(java.security.SecureRandom.getSeed(32));
        api.client()
                .secrets()
                .inNamespace(NAMESPACE)
                .resource(new io.fabric8.kubernetes.api.model.SecretBuilder()
                        .withNewMetadata()
                        .withName(TOKEN_SECRET)
                        .endMetadata()
                        .addToStringData("token", token + "\n")
                        .build())
                .create();
        queryAccess = tls
                ? new QueryCheck.Access(
                        "admin", "https", java.util.Optional.of(token), java.util.Optional.of(createTlsSecret()))
                : new QueryCheck.Access("http", "http", java.util.Optional.of(token), java.util.Optional.empty());

        // 1. helm install
        Release release = helm.render("latest", Map.of());
        long started = System.nanoTime();
        helm.apply("install", release, true);
        String name = release.statefulSet().getMetadata().getName();
        controller = new StatefulSetController(api, NAMESPACE, name, podman, work, events);
        statefulSet = new StatefulSetView(api, NAMESPACE, name, controller);
        hooks = new HookRunner(api, podman, work, events, controller.cluster(), controller::dnsRecords);
        helm.runHooksWith(hooks);
        statefulSet.awaitRollout(REPLICAS, READY);
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("seconds_to_all_ready", seconds(started));
        f.put("pods", controller.pods().values().stream().map(Kubelet::name).toList());
        f.put("objects", release.kindCounts());
        scrape = ServiceMonitorScrape.of(release, api);
        f.putAll(PodMetrics.scrapeAll(controller.pods().values(), scrape));
        f.putAll(new AccessCheck(queryAccess, tls).verify(controller.pods().values()));
        events.step(
                "helm install (3 replicas of word-count)",
                "chart rendered by Helm's engine (helm-java); the image, JVM, security context (UID 10001, read-only root),"
                        + " env, config file, volumes per pod, Kafka; objects stored in an API server (fabric8 mock, CRUD) over HTTPS",
                "StatefulSet controller and kubelet are the runner's: pods expanded from the template and played by podman kube play,"
                        + " probes polled on the pods' published ports",
                f);
        load.start();
        load.feed(500); // ten seconds of load
        counts.check("counts after install", queries(WordCount.STORE));

        // 2. helm upgrade with a new image tag
        podman.require(Duration.ofSeconds(60), "tag", IMAGE + ":latest", IMAGE + ":v2");
        Map<TopicPartition, String> before = group.assignment();
        AssignmentWatch watch = new AssignmentWatch(group::assignment, before);
        started = System.nanoTime();
        helm.apply("upgrade", helm.render("v2", Map.of()), true);
        statefulSet.awaitRollout(REPLICAS, READY);
        double rollout = seconds(started);
        Map<TopicPartition, String> moved = watch.stop();
        f = new LinkedHashMap<>();
        f.put("seconds_rollout", rollout);
        f.put("tasks_moved", moved.size());
        f.put(
                "moves",
                moved.entrySet().stream()
                        .map(e -> e.getKey() + "->" + e.getValue())
                        .toList());
        f.put("seconds_each_pod_away", controller.secondsAway());
        f.put("session_timeout_seconds", sessionTimeoutSeconds(release));
        f.put(
                "restored_records_per_pod",
                PodMetrics.restoredRecords(controller.pods().values(), scrape));
        f.put("assignment", group.owners());
        f.putAll(counts.check("counts after the rollout", queries(WordCount.STORE)));
        events.step(
                "helm upgrade --set image.tag=v2 (rolling update)",
                "pods replaced on their own claims by the new image (the same image tagged v2), Weir's static membership,"
                        + " local state kept, restore of the changelog tail only",
                "the runner's StatefulSet controller rolled pods in reverse ordinal order as Kubernetes' does, each once"
                        + " the pods above it were available;"
                        + " preStop via podman exec, SIGTERM with the grace period via podman pod stop -t",
                f);

        // 3. kubectl delete pod --grace-period=0 --force
        forcedDeletion(statefulSet.name() + "-1", 1);

        // 4. kubectl scale --replicas=2
        scaleDown(
                "kubectl scale statefulset " + statefulSet.name() + " --replicas=" + (REPLICAS - 1),
                "the scale subresource PATCHed in the API server",
                () -> statefulSet.scale(REPLICAS - 1));

        // 5. helm test: the values still say 3 replicas, 2 run.
        helmTest(
                release,
                "helm test (after kubectl scale: the values say " + REPLICAS + " replicas, " + (REPLICAS - 1)
                        + " run)");

        // 6. helm upgrade --set replicaCount: back to 3, then down by one.
        started = System.nanoTime();
        helm.apply("upgrade", helm.render("v2", Map.of("replicaCount", REPLICAS)), true);
        statefulSet.awaitRollout(REPLICAS, READY);
        String added = statefulSet.name() + "-" + (REPLICAS - 1);
        Awaitility.await(added + " to get tasks")
                .atMost(READY)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> !group.partitionsOf(added).isEmpty() && group.assignedAll());
        f = new LinkedHashMap<>();
        f.put("seconds_until_tasks_on_new_pod", seconds(started));
        f.put("assignment", group.owners());
        counts.check("counts after the scale-up");
        events.step(
                "helm upgrade --set replicaCount=" + REPLICAS + " (scale up again)",
                "the StatefulSet applied with 3 replicas; Weir's rebalance with warm-ups",
                "the runner's controller created the missing ordinal on its claim",
                f);
        scaleDown(
                "helm upgrade --set replicaCount=" + (REPLICAS - 1),
                "the StatefulSet applied with " + (REPLICAS - 1) + " replicas, as helm upgrade applies it",
                () -> helm.apply("upgrade", helm.render("v2", Map.of("replicaCount", REPLICAS - 1)), true));

        // 7. The state-changing upgrade in savepoint mode, then helm test again.
        savepointUpgrade();
        helmTest(savepointRelease(), "helm test (after the savepoint upgrade)");

        // 8. helm upgrade --atomic to a version that never becomes ready: rolled back.
        atomicUpgradeRolledBack();

        // 9. A replay through Helm (reset.*), then the same upgrade again, which replays nothing.
        Release replayed = replayThroughHelm();

        load.stop();
        counts.check("counts exact throughout (final)");
        events.step(
                "load generator",
                "idempotent producer in the runner's JVM, 50 lines/s of six words,"
                        + " paused only while counts are compared",
                "none",
                Map.of("lines_fed", load.sent()));

        // 10. helm uninstall with cleanup.*: the group, internal topics and volumes go.
        uninstallWithCleanup(replayed);
    }

    /**
     * The tls variant's Secret, as an operator (or cert-manager) would make it: a key store whose
     * certificate names every pod under the headless Service ({@code *.weir.streaming.svc}) and the
     * loopback address (the runner reaches the pods through ports published there), its password,
     * and the certificate as {@code ca.crt}. Returns a client context trusting it.
     */
    private javax.net.ssl.SSLContext createTlsSecret() {
        Path dir = work.resolve("http-tls");
        try {
            if (Files.exists(dir)) {
                try (var files = Files.list(dir)) {
                    for (Path f : files.toList()) {
                        Files.delete(f);
                    }
                }
            }
            Files.createDirectories(dir);
            String password = java.util.HexFormat.of().formatHex(java.security.SecureRandom.getSeed(12));
            var certificate = io.weir.deploy.tls.SelfSignedCertificate.create(
                    dir, RELEASE, List.of("dns:*." + RELEASE + "." + NAMESPACE + ".svc", "ip:127.0.0.1"), password);
            java.util.Base64.Encoder base64 = java.util.Base64.getEncoder();
            api.client()
                    .secrets()
                    .inNamespace(NAMESPACE)
                    .resource(new io.fabric8.kubernetes.api.model.SecretBuilder()
                            .withNewMetadata()
                            .withName(TLS_SECRET)
                            .endMetadata()
                            .addToData(
                                    "keystore.p12", base64.encodeToString(Files.readAllBytes(certificate.keyStore())))
                            .addToData("ca.crt", base64.encodeToString(Files.readAllBytes(certificate.caPem())))
                            .addToData(
                                    "password",
                                    base64.encodeToString(password.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                            .build())
                    .create();
            return certificate.clientContext();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * {@code helm upgrade --atomic} (Helm 4: {@code --rollback-on-failure}) in savepoint mode to a
     * version that never becomes ready: word-count's v1 again (its store back to word-counts, a
     * state change the pre-upgrade hook carries with a savepoint), with a JVM option the JVM refuses,
     * as after a base-image change, so every pod exits at start. The describe init container runs
     * without the pods' JVM options, so the hook succeeds and the StatefulSet is applied. Helm waits
     * out its time-out (here: until every pod has failed twice) and rolls back to the revision
     * before: the pre-rollback hook of that revision (weir upgrade --rollback) stops the crashing
     * pods and restores the savepoint the upgrade took into v2, and Helm applies v2 again.
     */
    private void atomicUpgradeRolledBack() {
        Release previous = savepointRelease();
        int replicas = statefulSet.replicas();
        Map<String, Object> broken = new LinkedHashMap<>();
        // scenario-values.yaml's jvm.extraOptions and one more (a --set list replaces the whole list).
        List<String> jvmOptions =
                List.of("-Xss512k", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:+WeirNoSuchOption");
        HelmCommands.putList(broken, "jvm.extraOptions", jvmOptions);
        Release neverReady = helm.savepointRelease(
                replicas, List.of("serve", "word-count"), WordCountV2.STORE, WordCount.STORE, broken);
        long started = System.nanoTime();
        List<HookRunner.Outcome> upgrade = hooks.run(neverReady, "pre-upgrade", Duration.ofMinutes(10));
        double hooked = seconds(started);
        helm.apply("upgrade", neverReady, false);
        Awaitility.await("every pod of the broken version to fail at start twice")
                .atMost(READY)
                .pollInterval(Duration.ofMillis(500))
                .until(() -> controller.pods().size() == replicas
                        && controller.pods().values().stream().allMatch(k -> k.restarts() >= 2 && !k.ready()));
        int restarts =
                controller.pods().values().stream().mapToInt(Kubelet::restarts).sum();
        double gaveUp = seconds(started);
        List<HookRunner.Outcome> rollback = hooks.run(previous, "pre-rollback", Duration.ofMinutes(10));
        double rolledBackHook = seconds(started);
        // What the hooks said, before the counts are checked: a failed check then still shows it.
        java.util.stream.Stream.concat(upgrade.stream(), rollback.stream())
                .forEach(o ->
                        events.event("helm", o.hook(), "log: " + o.logTail().replace('\n', '|')));
        applyAndAwaitAssigned("rollback", previous, replicas);
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("seconds_upgrade_hook", hooked);
        f.put("seconds_until_helm_gives_up", gaveUp);
        f.put("restarts_of_the_broken_pods", restarts);
        f.put("seconds_rollback_hook", Math.round((rolledBackHook - gaveUp) * 10) / 10.0);
        f.put("seconds_until_processing_again", seconds(started));
        f.put(
                "hook_output",
                java.util.stream.Stream.concat(upgrade.stream(), rollback.stream())
                        .flatMap(o -> o.logTail().lines())
                        .filter(l -> l.contains("savepoint") || l.contains("restored") || l.contains("never"))
                        .toList());
        f.putAll(counts.check("counts after the rollback", queries(WordCountV2.STORE)));
        events.step(
                "helm upgrade --atomic to a version that never becomes ready (savepoint mode), rolled back",
                "the pre-upgrade hook (savepoint, scale to 0, restore into v1's topology) in the new image; pods of"
                        + " the new version exiting at start (the JVM refuses an option); the previous revision's"
                        + " pre-rollback hook (weir upgrade --rollback: the marked savepoint restored into v2)",
                "Helm's wait and roll-back played by the runner: the time-out is every pod having failed twice;"
                        + " then the previous revision's pre-rollback hooks and objects, as helm rollback applies them",
                f);
    }

    /**
     * A replay through Helm: {@code helm upgrade --set reset.enabled=true --set reset.id=replay-1
     * --set reset.to=earliest} runs the reset hook (weir replay: StatefulSet to 0, offsets to the
     * start, changelogs deleted, the id recorded), then the release comes back and recounts from
     * the first line, so the last count of every word is exact again (a count kept over the replay
     * would double). The same upgrade again finds the id recorded and stops nothing. The revision
     * also enables cleanup.*, whose hook the uninstall runs.
     */
    private Release replayThroughHelm() {
        Map<String, Object> reset = new LinkedHashMap<>();
        reset.put("reset.enabled", true);
        reset.put("reset.id", "replay-1");
        reset.put("reset.to", "earliest");
        reset.put("cleanup.enabled", true);
        reset.put("cleanup.deleteVolumes", true);
        int replicas = statefulSet.replicas();
        Release replay = helm.savepointRelease(
                replicas, List.of("serve", "word-count", "--variant", "v2"), WordCount.STORE, WordCountV2.STORE, reset);
        HookedUpgrade up = upgradeThroughHooks(replay, replicas);
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("seconds_hooks", up.secondsHooks());
        f.put("replicas_after_hook", up.replicasAfterHook());
        f.put("seconds_until_processing", seconds(up.started()));
        f.put(
                "hook_output",
                up.ran().stream()
                        .flatMap(o -> o.logTail().lines())
                        .filter(l -> l.contains("replay") || l.contains("reset") || l.contains("deleted"))
                        .toList());
        f.putAll(counts.check("counts after the replay", queries(WordCountV2.STORE)));
        String record = RELEASE + "-replay";
        var recorded = api.client()
                .configMaps()
                .inNamespace(NAMESPACE)
                .withName(record)
                .get();
        if (recorded == null || !String.valueOf(recorded.getData()).contains("replay-1")) {
            throw new AssertionError("the replay record " + record + " does not name replay-1: " + recorded);
        }
        f.put("replay_record", record + " " + recorded.getData());
        events.step(
                "helm upgrade --set reset.enabled=true,reset.id=replay-1,reset.to=earliest (a replay through Helm)",
                "the chart's reset hook Job's pod in the image: weir replay as the reset account (StatefulSet to 0,"
                        + " group emptied, offsets to earliest, changelogs deleted, the id recorded in a ConfigMap)",
                "the Job run once as a Pod and waited for, as Helm waits for hooks",
                f);

        long againStarted = System.nanoTime();
        Map<TopicPartition, String> before = group.assignment();
        AssignmentWatch watch = new AssignmentWatch(group::assignment, before);
        List<HookRunner.Outcome> again = hooks.run(replay, "pre-upgrade", Duration.ofMinutes(10));
        helm.apply("upgrade", replay, false);
        Map<TopicPartition, String> moved = watch.stop();
        f = new LinkedHashMap<>();
        f.put("seconds_hooks", seconds(againStarted));
        f.put("replicas_after_hook", statefulSet.replicas());
        f.put("tasks_moved", moved.size());
        f.put(
                "hook_output",
                again.stream()
                        .flatMap(o -> o.logTail().lines())
                        .filter(l -> l.contains("replay"))
                        .toList());
        if (statefulSet.replicas() != replicas || !moved.isEmpty()) {
            throw new AssertionError("a second upgrade with the same reset.id stopped the application: " + f);
        }
        f.putAll(counts.check("counts after the same upgrade again"));
        events.step(
                "helm upgrade with the same reset.id again (replays nothing)",
                "the reset hook in the image finds replay-1 recorded and leaves the application running",
                "the Job run once as a Pod",
                f);
        return replay;
    }

    /**
     * {@code helm uninstall} of a revision with {@code cleanup.enabled} and {@code
     * cleanup.deleteVolumes}: the release's objects go, the StatefulSet's pods with them, then the
     * post-delete hook (weir cleanup, which waits for the instances to be gone) deletes the consumer
     * group, the internal topics, the replay record and the volume claims. Input and output topics
     * stay, and so do the savepoints, dead letters and late records.
     */
    private void uninstallWithCleanup(Release last) {
        java.util.Set<String> internalBefore = internalTopics();
        long started = System.nanoTime();
        List<HookRunner.Outcome> ran = helm.uninstall(last);
        double done = seconds(started);
        java.util.Set<String> internalAfter = internalTopics();
        boolean groupGone;
        try {
            groupGone = !kafka.admin().listConsumerGroups().all().get().stream()
                    .map(g -> g.groupId())
                    .toList()
                    .contains(APP);
        } catch (Exception e) {
            throw new IllegalStateException("listing the consumer groups failed", e);
        }
        var claims = api.client()
                .persistentVolumeClaims()
                .inNamespace(NAMESPACE)
                .list()
                .getItems();
        var record = api.client()
                .configMaps()
                .inNamespace(NAMESPACE)
                .withName(RELEASE + "-replay")
                .get();
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("seconds", done);
        f.put("internal_topics_before", internalBefore.size());
        f.put("group_deleted", groupGone);
        f.put("volume_claims_left", claims.size());
        f.put("replay_record_deleted", record == null);
        f.put("pods_left", controller.pods().size());
        f.put(
                "hook_output",
                ran.stream()
                        .flatMap(o -> o.logTail().lines())
                        .filter(l -> l.contains("deleted"))
                        .toList());
        // Kept by design: the savepoints (cleanup.deleteSavepoints is false), dead letters and late records.
        internalAfter.removeIf(t -> t.endsWith("-savepoints") || t.endsWith("-dlq") || t.endsWith("-late"));
        f.put("internal_topics_left", internalAfter);
        if (internalBefore.isEmpty() || !internalAfter.isEmpty() || !groupGone || !claims.isEmpty() || record != null) {
            throw new AssertionError("helm uninstall with cleanup.* left something behind: " + f);
        }
        if (!topics().containsAll(List.of(INPUT, OUTPUT))) {
            throw new AssertionError("the clean-up deleted an input or output topic");
        }
        events.step(
                "helm uninstall (cleanup.enabled, cleanup.deleteVolumes)",
                "the release's objects deleted from the API server; the chart's post-delete hook Job's pod in the image:"
                        + " weir cleanup as the clean-up account",
                "the StatefulSet's pods removed by the runner's controller; the Job run once as a Pod",
                f);
    }

    private java.util.Set<String> topics() {
        return io.weir.common.internal.KafkaCalls.get(
                kafka.admin().listTopics().names(), Duration.ofSeconds(30), "list topics");
    }

    /** The application's internal topics (changelogs, repartition, liveness, topology, control). */
    private java.util.Set<String> internalTopics() {
        return topics().stream()
                .filter(t -> t.startsWith(APP + "-"))
                .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
    }

    /**
     * {@code kubectl delete pod --grace-period=0 --force}. Two outcomes are correct, and which one a
     * run gets is a race between the controller and Weir's failure detection: the pod is made again
     * and its instance rejoins before the others notice it gone (static membership: it keeps its
     * tasks, nothing moves), or failure detection removes it first and its tasks move, to come back
     * when it returns. Either way what a user sees is a pause of the victim's partitions' output and
     * exact counts; the step measures the pause (until the group's committed offsets of every one of
     * those partitions have advanced) and reports which outcome the run got.
     */
    private void forcedDeletion(String victim, int ordinal) {
        Set<TopicPartition> victims = group.partitionsOf(victim);
        Map<TopicPartition, Long> committedAtKill = group.committed();
        long started = System.nanoTime();
        controller.forceDelete(ordinal);
        double forcedAt = seconds(started);
        Map<TopicPartition, String> seenOwners = new java.util.concurrent.ConcurrentHashMap<>();
        Awaitility.await(victim + "'s partitions to be processed again")
                .atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    group.assignment().forEach((tp, owner) -> {
                        if (victims.contains(tp) && !owner.equals(victim)) {
                            seenOwners.put(tp, owner);
                        }
                    });
                    Map<TopicPartition, Long> now = group.committed();
                    return victims.stream()
                            .filter(tp -> tp.topic().equals(INPUT))
                            .allMatch(tp -> now.getOrDefault(tp, -1L) > committedAtKill.getOrDefault(tp, -1L));
                });
        double resumed = seconds(started);
        Awaitility.await(victim + " back and ready, every task assigned")
                .atMost(READY)
                .pollInterval(Duration.ofMillis(500))
                .until(() -> statefulSet.ready(victim) && group.assignedAll());
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("outcome", seenOwners.isEmpty() ? "came back and kept its tasks" : "its tasks moved");
        f.put("seconds_sigkill_and_pod_removed", forcedAt);
        f.put("seconds_output_paused", resumed);
        f.put("seconds_until_back_and_ready", seconds(started));
        f.put("tasks_of_victim", victims.size());
        f.put("tasks_seen_elsewhere", seenOwners.size());
        f.put("assignment", group.owners());
        f.putAll(counts.check("counts after the forced deletion", queries(WordCount.STORE)));
        events.step(
                "kubectl delete pod " + victim + " --grace-period=0 --force",
                "SIGKILL of the pod's processes (podman pod kill), Weir's static membership, failure detection and"
                        + " Kafka's rebalance",
                "pod removal and re-creation on its claim by the runner's controller",
                f);
    }

    /**
     * A scale-down by one: {@code action} lowers the StatefulSet's replicas; the removed pod reads them
     * through the API on SIGTERM and leaves the group, so its tasks move at once.
     */
    private void scaleDown(String step, String real, Runnable action) {
        int replicas = controller.pods().size();
        String removed = statefulSet.name() + "-" + (replicas - 1);
        Set<TopicPartition> removedTasks = group.partitionsOf(removed);
        long started = System.nanoTime();
        action.run();
        Awaitility.await(removed + " gone")
                .atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> controller.pods().size() == replicas - 1);
        double podGone = seconds(started);
        Awaitility.await(removed + "'s tasks to move")
                .atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> removedTasks.stream()
                                .noneMatch(
                                        tp -> removed.equals(group.assignment().get(tp)))
                        && group.assignedAll());
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("seconds_until_pod_gone", podGone);
        f.put("seconds_until_tasks_moved", seconds(started));
        f.put("tasks_of_removed_pod", removedTasks.size());
        f.put("replicas_read_back", statefulSet.replicas());
        f.put("assignment", group.owners());
        counts.check("counts after the scale-down");
        events.step(
                step,
                real + "; preStop hook and SIGTERM in the real container; Weir read the replicas through"
                        + " the API (scale-in's Role) and left the group",
                "the runner's controller read spec.replicas and deleted the highest ordinal",
                f);
    }

    /** helm test: the chart's test hooks (a ConfigMap with the script, the test pod) run and waited for. */
    private void helmTest(Release release, String step) {
        List<HasMetadata> tests = release.hooks("test");
        if (tests.isEmpty()) {
            throw new IllegalStateException("the chart renders no test hooks (helm.sh/hook: test)");
        }
        long started = System.nanoTime();
        var outcomes = hooks.run(release, "test", Duration.ofMinutes(5));
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("seconds", seconds(started));
        f.put(
                "hooks",
                outcomes.stream().map(o -> o.hook() + " exit " + o.exitCode()).toList());
        f.put(
                "output",
                outcomes.stream()
                        .flatMap(o -> o.logTail().lines())
                        .filter(l -> l.startsWith("weir helm test"))
                        .toList());
        events.step(
                step,
                "the chart's test pod in the image: files/helm-test.sh through bash's /dev/tcp, the pods"
                        + " found by their headless-Service names",
                "the hook pod played by the runner and waited for; cluster DNS played by /etc/hosts entries"
                        + " (hostAliases) for the pods that exist when it starts",
                f);
    }

    /**
     * The version the savepoint upgrade installs: word-count's v2 ({@code serve word-count --variant v2}),
     * whose count store is renamed (word-counts to word-totals), a change of state; with
     * {@code upgrade.mode=savepoint} and {@code upgrade.mapStores} carrying the counts over. Its words
     * are those of v1 for this load (v2 drops only one-letter words, and the load has none), so the
     * counts stay exact across the change.
     */
    private Release savepointRelease() {
        return helm.savepointRelease(REPLICAS - 1, WordCount.STORE, WordCountV2.STORE);
    }

    /**
     * helm upgrade to v2 with {@code upgrade.mode=savepoint}: Helm runs the pre-upgrade hooks (the
     * runner plays the Job as a Pod with restartPolicy Never and waits for its exit), then applies the
     * release; its pods start from the restored savepoint.
     */
    private void savepointUpgrade() {
        Release v2 = savepointRelease();
        if (v2.hooks("pre-upgrade").isEmpty()) {
            throw new IllegalStateException("the chart renders no pre-upgrade hook for upgrade.mode=savepoint");
        }
        HookedUpgrade up = upgradeThroughHooks(v2, statefulSet.replicas());
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("seconds_hook", up.secondsHooks());
        f.put("replicas_after_hook", up.replicasAfterHook());
        f.put("seconds_until_processing", seconds(up.started()));
        f.put(
                "hook_output",
                up.ran().stream()
                        .flatMap(o -> o.logTail().lines())
                        .filter(l -> l.contains("Verdict") || l.contains("savepoint") || l.contains("restored"))
                        .toList());
        f.put(
                "restored_records_per_pod",
                PodMetrics.restoredRecords(controller.pods().values(), scrape));
        f.putAll(counts.check("counts after the savepoint upgrade", queries(WordCountV2.STORE)));
        events.step(
                "helm upgrade --set args={serve,word-count,--variant,v2} --set upgrade.mode=savepoint"
                        + " --set upgrade.mapStores.word-counts=word-totals (state-changing upgrade)",
                "the chart's pre-upgrade hook Job's pod in the new image: describe init container, weir upgrade calling"
                        + " the API server over TLS as the upgrade account, a savepoint in Kafka and its restore",
                "the Job run once as a Pod (restartPolicy Never) and waited for, as Helm waits for hooks; the"
                        + " runner's controller obeyed the scale to 0",
                f);
    }

    /** What {@link #upgradeThroughHooks} saw: the hooks' outcomes, their time, the replicas they left. */
    private record HookedUpgrade(
            List<HookRunner.Outcome> ran, double secondsHooks, int replicasAfterHook, long started) {}

    /**
     * {@code helm upgrade} whose pre-upgrade hooks stop the application: the hooks run (and are
     * timed), the release is applied, and the step waits for {@code replicas} ready pods with every
     * task assigned.
     */
    private HookedUpgrade upgradeThroughHooks(Release release, int replicas) {
        long started = System.nanoTime();
        List<HookRunner.Outcome> ran = hooks.run(release, "pre-upgrade", Duration.ofMinutes(10));
        double hooked = seconds(started);
        int replicasAfterHook = statefulSet.replicas();
        applyAndAwaitAssigned("upgrade", release, replicas);
        return new HookedUpgrade(ran, hooked, replicasAfterHook, started);
    }

    /** Applies {@code release} ({@code action}: upgrade or rollback), then waits for the rollout and every task assigned. */
    private void applyAndAwaitAssigned(String action, Release release, int replicas) {
        helm.apply(action, release, false);
        statefulSet.awaitRollout(replicas, READY);
        Awaitility.await("every task assigned")
                .atMost(READY)
                .pollInterval(Duration.ofMillis(200))
                .until(group::assignedAll);
    }

    /**
     * Every word asked through every pod that is ready, on the query port with the release's token:
     * each pod answers the keys it holds and forwards the others by the names the chart has it
     * advertise; every answer must be the committed count.
     */
    private java.util.function.Function<Map<String, Long>, Map<String, Object>> queries(String store) {
        QueryCheck check = new QueryCheck(store, queryAccess);
        return expected -> check.verify(
                controller.pods().values().stream().filter(Kubelet::ready).toList(), expected);
    }

    /** The consumer session timeout the chart gives the pods (WEIR_CONSUMER_SESSION_TIMEOUT_MS). */
    private static double sessionTimeoutSeconds(Release release) {
        return release.statefulSet().getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> e.getName().equals("WEIR_CONSUMER_SESSION_TIMEOUT_MS"))
                .findFirst()
                .map(e -> Long.parseLong(e.getValue()) / 1000.0)
                .orElse(Double.NaN);
    }

    static double seconds(long startedNanos) {
        return Math.round((System.nanoTime() - startedNanos) / 1e8) / 10.0;
    }

    private void tearDown() {
        load.stop();
        if (controller != null) {
            controller.close();
        }
        podman.run(Duration.ofSeconds(30), "rmi", IMAGE + ":v2");
    }
}
