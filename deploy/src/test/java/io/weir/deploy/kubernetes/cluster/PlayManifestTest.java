package io.weir.deploy.kubernetes.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.weir.deploy.kubernetes.helm.Release;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The chart's StatefulSet expanded into pods and turned into what {@code podman kube play} runs. */
class PlayManifestTest {

    private static final KubernetesSerialization YAML = new KubernetesSerialization();

    private final Release release = Release.render(
            Release.chartDirectory(),
            "weir",
            "streaming",
            Release.chartDirectory().getParent().getParent().resolve("deploy/kubernetes/scenario-values.yaml"),
            Map.of("kafka.bootstrapServers", "10.89.0.1:9092"));
    private final StatefulSet sts = release.statefulSet();

    @Test
    void expandsTheStatefulSetAsItsControllerDoes() {
        StatefulSetPods.OrdinalPod pod = StatefulSetPods.pod(sts, 2);

        assertThat(pod.name()).isEqualTo("weir-2");
        assertThat(pod.pod().getMetadata().getLabels())
                .containsEntry("statefulset.kubernetes.io/pod-name", "weir-2")
                .containsEntry("apps.kubernetes.io/pod-index", "2")
                .containsEntry("controller-revision-hash", StatefulSetPods.revision(sts))
                .containsAllEntriesOf(sts.getSpec().getTemplate().getMetadata().getLabels());
        assertThat(pod.pod().getMetadata().getAnnotations().get("checksum/config"))
                .hasSize(64);
        assertThat(pod.claims()).extracting(c -> c.getMetadata().getName()).containsExactly("state-weir-2");
        assertThat(pod.claims().get(0).getMetadata().getLabels())
                .as("a clean-up finds the claims by the selector's labels")
                .containsAllEntriesOf(sts.getSpec().getSelector().getMatchLabels());
        assertThat(pod.pod().getSpec().getVolumes())
                .filteredOn(v -> v.getName().equals("state"))
                .extracting(v -> v.getPersistentVolumeClaim().getClaimName())
                .containsExactly("state-weir-2");
        assertThat(pod.pod().getSpec().getHostname()).isEqualTo("weir-2");
    }

    @Test
    void aChangedTemplateIsANewRevision() {
        StatefulSet changed = YAML.clone(sts);
        changed.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("localhost/weir-samples:v2");

        assertThat(StatefulSetPods.revision(changed)).isNotEqualTo(StatefulSetPods.revision(sts));
        assertThat(StatefulSetPods.revision(YAML.clone(sts))).isEqualTo(StatefulSetPods.revision(sts));
    }

    @Test
    void playsWhatTheKubeletWouldSetUp() {
        PlayManifest.Played played =
                PlayManifest.of(StatefulSetPods.pod(sts, 1), cluster(Optional.empty()), v -> false);
        List<HasMetadata> docs = documents(played.yaml());
        Pod pod = only(docs, Pod.class);
        var container = pod.getSpec().getContainers().get(0);

        assertThat(env(container.getEnv()))
                .containsEntry("WEIR_INSTANCE_ID", "weir-1")
                .containsEntry("KUBERNETES_SERVICE_HOST", "10.89.0.1")
                .containsEntry("KUBERNETES_SERVICE_PORT", "6443");
        assertThat(container.getEnv())
                .allMatch(e -> e.getValueFrom() == null || e.getValueFrom().getResourceFieldRef() != null);
        assertThat(played.hostPort("http")).isEqualTo(18180);
        assertThat(container.getLivenessProbe()).isNull();
        assertThat(container.getLifecycle()).isNull();
        assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
        assertThat(pod.getMetadata().getAnnotations().values()).allMatch(v -> v.length() <= 63);
        assertThat(pod.getSpec().getVolumes())
                .extracting(Volume::getName)
                .contains("weir-1-tmp", "podinfo", "config", "state");
        assertThat(only(docs, PersistentVolumeClaim.class).getMetadata().getName())
                .isEqualTo("state-weir-1");
        ConfigMap podinfo = docs.stream()
                .filter(d -> d.getMetadata().getName().equals("weir-1-podinfo"))
                .map(ConfigMap.class::cast)
                .findFirst()
                .orElseThrow();
        assertThat(podinfo.getData().get("annotations"))
                .contains("checksum/config=\""
                        + sts.getSpec()
                                .getTemplate()
                                .getMetadata()
                                .getAnnotations()
                                .get("checksum/config") + "\"");
        assertThat(docs)
                .filteredOn(d -> d.getMetadata().getName().equals("weir"))
                .hasSize(1);
        // scaleIn (on by default) asks for the service account token: mounted as the kubelet would.
        assertThat(pod.getSpec().getVolumes()).extracting(Volume::getName).contains("kube-api-access");
    }

    @Test
    void expandsVariableReferencesAsTheKubeletDoes() {
        PlayManifest.Played played =
                PlayManifest.of(StatefulSetPods.pod(sts, 1), cluster(Optional.empty()), v -> false);
        var container = only(documents(played.yaml()), Pod.class)
                .getSpec()
                .getContainers()
                .get(0);

        // The chart's advertised URL names the pod through WEIR_INSTANCE_ID, a fieldRef defined before it.
        assertThat(env(container.getEnv()))
                .containsEntry("WEIR_HTTP_ADVERTISED_URL", "http://weir-1.weir.streaming.svc:8080");
    }

    @Test
    void expandsOnlyVariablesDefinedEarlierAndKeepsEverythingElseAsWritten() {
        StatefulSet withReferences = YAML.clone(sts);
        var template =
                withReferences.getSpec().getTemplate().getSpec().getContainers().get(0);
        template.getEnv()
                .addAll(List.of(
                        new EnvVar("A_URL", "$(POD_LATER)/$(WEIR_INSTANCE_ID)", null),
                        new EnvVar("POD_LATER", "later", null),
                        new EnvVar("ESCAPED", "$$(WEIR_INSTANCE_ID) costs $5 $(UNKNOWN) $(open", null)));
        template.setArgs(List.of("serve", "$(POD_LATER)", "$$(POD_LATER)"));

        var container = only(
                        documents(PlayManifest.of(
                                        StatefulSetPods.pod(withReferences, 2), cluster(Optional.empty()), v -> false)
                                .yaml()),
                        Pod.class)
                .getSpec()
                .getContainers()
                .get(0);

        assertThat(env(container.getEnv()))
                .containsEntry("A_URL", "$(POD_LATER)/weir-2")
                .containsEntry("ESCAPED", "$(WEIR_INSTANCE_ID) costs $5 $(UNKNOWN) $(open");
        assertThat(container.getArgs()).containsExactly("serve", "later", "$(POD_LATER)");
    }

    @Test
    void aClaimThatExistsIsNotCreatedAgain() {
        PlayManifest.Played played = PlayManifest.of(StatefulSetPods.pod(sts, 0), cluster(Optional.empty()), v -> true);

        assertThat(documents(played.yaml())).noneMatch(PersistentVolumeClaim.class::isInstance);
    }

    @Test
    void mountsTheServiceAccountTokenWhenThePodAsksForIt() {
        StatefulSet withToken = YAML.clone(sts);
        withToken.getSpec().getTemplate().getSpec().setAutomountServiceAccountToken(true);

        List<HasMetadata> docs =
                documents(PlayManifest.of(StatefulSetPods.pod(withToken, 0), cluster(Optional.empty()), v -> false)
                        .yaml());
        Pod pod = only(docs, Pod.class);

        assertThat(pod.getSpec().getContainers().get(0).getVolumeMounts())
                .anyMatch(m ->
                        m.getMountPath().equals("/var/run/secrets/kubernetes.io/serviceaccount") && m.getReadOnly());
        ConfigMap access = docs.stream()
                .filter(d -> d.getMetadata().getName().equals("weir-0-kube-api-access"))
                .map(ConfigMap.class::cast)
                .findFirst()
                .orElseThrow();
        assertThat(access.getData())
                .containsEntry("token", "token-of-streaming:weir")
                .containsEntry("namespace", "streaming")
                .containsEntry("ca.crt", "PEM");
    }

    @Test
    void aKeyStoreInASecretReachesThePodByteForByte() {
        byte[] keyStore = {0x30, (byte) 0x82, 0x0a, (byte) 0xff, (byte) 0xfe, 0x00, (byte) 0xc3};
        String encoded = java.util.Base64.getEncoder().encodeToString(keyStore);
        Secret tls = new io.fabric8.kubernetes.api.model.SecretBuilder()
                .withNewMetadata()
                .withName("weir-http-tls")
                .endMetadata()
                .addToData("keystore.p12", encoded)
                .addToData("ca.crt", java.util.Base64.getEncoder().encodeToString("-----BEGIN".getBytes()))
                .build();
        StatefulSet withTls = Release.render(
                        Release.chartDirectory(),
                        "weir",
                        "streaming",
                        Release.chartDirectory()
                                .getParent()
                                .getParent()
                                .resolve("deploy/kubernetes/scenario-values.yaml"),
                        Map.of(
                                "kafka.bootstrapServers",
                                "10.89.0.1:9092",
                                "http.tls.keystore.secretName",
                                "weir-http-tls"))
                .statefulSet();

        List<HasMetadata> docs =
                documents(PlayManifest.of(StatefulSetPods.pod(withTls, 0), cluster(Optional.of(tls)), v -> false)
                        .yaml());

        ConfigMap files = docs.stream()
                .filter(ConfigMap.class::isInstance)
                .map(ConfigMap.class::cast)
                .filter(c -> c.getBinaryData() != null && c.getBinaryData().containsKey("keystore.p12"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no ConfigMap carries the key store as binaryData: " + docs));
        assertThat(files.getBinaryData()).containsExactly(Map.entry("keystore.p12", encoded));
        assertThat(files.getData()).containsExactly(Map.entry("ca.crt", "-----BEGIN"));
    }

    @Test
    void aMissingSecretFailsNamingIt() {
        StatefulSet withSecret = YAML.clone(sts);
        withSecret
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getEnv()
                .add(new EnvVar(
                        "WEIR_SASL_JAAS_CONFIG",
                        null,
                        new io.fabric8.kubernetes.api.model.EnvVarSourceBuilder()
                                .withNewSecretKeyRef("jaas", "kafka-credentials", false)
                                .build()));

        assertThatThrownBy(() ->
                        PlayManifest.of(StatefulSetPods.pod(withSecret, 0), cluster(Optional.empty()), v -> false))
                .hasMessageContaining("weir-0")
                .hasMessageContaining("kafka-credentials/jaas");
    }

    private PlayManifest.Cluster cluster(Optional<Secret> secret) {
        ConfigMap config = release.objects().stream()
                .filter(ConfigMap.class::isInstance)
                .map(ConfigMap.class::cast)
                .findFirst()
                .orElseThrow();
        return new PlayManifest.Cluster() {
            @Override
            public String apiHost() {
                return "10.89.0.1";
            }

            @Override
            public int apiPort() {
                return 6443;
            }

            @Override
            public String caCertificatePem() {
                return "PEM";
            }

            @Override
            public String token(String namespace, String serviceAccount) {
                return "token-of-" + namespace + ":" + serviceAccount;
            }

            @Override
            public Optional<Boolean> automount(String namespace, String serviceAccount) {
                return Optional.of(false);
            }

            @Override
            public Optional<ConfigMap> configMap(String namespace, String name) {
                return name.equals(config.getMetadata().getName()) ? Optional.of(config) : Optional.empty();
            }

            @Override
            public Optional<Secret> secret(String namespace, String name) {
                // The token Secret scenario-values.yaml names, which the runner creates before the install.
                if (name.equals("weir-http-token")) {
                    return Optional.of(new io.fabric8.kubernetes.api.model.SecretBuilder()
                            .withNewMetadata()
                            .withName(name)
                            .endMetadata()
                            .addToData("token", java.util.Base64.getEncoder().encodeToString("t0k3n\n".getBytes()))
                            .build());
                }
                return secret;
            }
        };
    }

    private static List<HasMetadata> documents(String yaml) {
        return java.util.Arrays.stream(yaml.split("(?m)^---\\s*$"))
                .filter(d -> !d.isBlank())
                .map(d -> (HasMetadata) YAML.unmarshal(d))
                .toList();
    }

    private static <T> T only(List<HasMetadata> docs, Class<T> type) {
        List<T> found = docs.stream().filter(type::isInstance).map(type::cast).toList();
        assertThat(found).hasSize(1);
        return found.get(0);
    }

    private static Map<String, String> env(List<EnvVar> env) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        env.stream().filter(e -> e.getValue() != null).forEach(e -> m.put(e.getName(), e.getValue()));
        return m;
    }
}
