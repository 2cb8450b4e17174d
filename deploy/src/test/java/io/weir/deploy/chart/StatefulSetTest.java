package io.weir.deploy.chart;

import static io.weir.deploy.chart.WeirChart.chart;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.io.IOException;
import java.io.StringReader;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** What the pods must get right for Weir: identity, state, HTTP, shutdown, security. */
class StatefulSetTest {

    private static StatefulSet statefulSet(WeirChart chart) {
        return chart.render().only(StatefulSet.class);
    }

    private static PodSpec pod(StatefulSet statefulSet) {
        return statefulSet.getSpec().getTemplate().getSpec();
    }

    private static Container weir(StatefulSet statefulSet) {
        return pod(statefulSet).getContainers().get(0);
    }

    private static Optional<EnvVar> env(Container container, String name) {
        return container.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst();
    }

    private static String envValue(Container container, String name) {
        return env(container, name)
                .map(EnvVar::getValue)
                .orElseThrow(() -> new AssertionError("no " + name + " in " + container.getEnv()));
    }

    private static VolumeMount mountAt(Container container, String path) {
        return container.getVolumeMounts().stream()
                .filter(m -> m.getMountPath().equals(path))
                .findFirst()
                .orElseThrow(
                        () -> new AssertionError("nothing mounted at " + path + ": " + container.getVolumeMounts()));
    }

    private static Optional<Volume> volume(StatefulSet statefulSet, String name) {
        return pod(statefulSet).getVolumes().stream()
                .filter(v -> v.getName().equals(name))
                .findFirst();
    }

    static Properties weirProperties(WeirChart.Manifests manifests) {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(manifests
                    .named(ConfigMap.class, WeirChart.FULLNAME)
                    .getData()
                    .get("weir.properties")));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return properties;
    }

    @Test
    void instanceIdIsThePodName() {
        StatefulSet statefulSet = statefulSet(chart());

        EnvVar instanceId = env(weir(statefulSet), "WEIR_INSTANCE_ID").orElseThrow();
        assertThat(instanceId.getValue()).isNull();
        assertThat(instanceId.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.name");
        // Pod names are <statefulset>-<ordinal>, stable across restarts and rollouts.
        assertThat(statefulSet.getMetadata().getName()).isEqualTo(WeirChart.FULLNAME);
    }

    @Test
    void stateDirIsAPersistentVolumePerPod() {
        for (WeirChart chart : new WeirChart[] {chart(), chart().values("persistence-custom.yaml")}) {
            StatefulSet statefulSet = statefulSet(chart);
            Container weir = weir(statefulSet);

            String stateDir = envValue(weir, "WEIR_STATE_DIR");
            VolumeMount mount = mountAt(weir, stateDir);
            assertThat(mount.getReadOnly()).isNotEqualTo(Boolean.TRUE);
            assertThat(statefulSet.getSpec().getVolumeClaimTemplates())
                    .singleElement()
                    .satisfies(
                            claim -> assertThat(claim.getMetadata().getName()).isEqualTo(mount.getName()));
            assertThat(volume(statefulSet, mount.getName()))
                    .as("a pod volume would shadow the claim")
                    .isEmpty();
            assertThat(pod(statefulSet).getVolumes())
                    .noneMatch(v -> v.getEmptyDir() != null && v.getName().equals("state"));
            // Scale-down and uninstall keep the volumes: a pod that comes back restores only the tail.
            assertThat(statefulSet
                            .getSpec()
                            .getPersistentVolumeClaimRetentionPolicy()
                            .getWhenScaled())
                    .isEqualTo("Retain");
            assertThat(statefulSet
                            .getSpec()
                            .getPersistentVolumeClaimRetentionPolicy()
                            .getWhenDeleted())
                    .isEqualTo("Retain");
        }
        StatefulSet custom = statefulSet(chart().values("persistence-custom.yaml"));
        assertThat(envValue(weir(custom), "WEIR_STATE_DIR")).isEqualTo("/data/weir-state");
        var claim = custom.getSpec().getVolumeClaimTemplates().get(0).getSpec();
        assertThat(claim.getStorageClassName()).isEqualTo("fast-ssd");
        assertThat(claim.getResources().getRequests().get("storage").toString()).isEqualTo("50Gi");
    }

    @Test
    void withoutPersistenceStateDirIsAnExplicitEmptyDir() {
        StatefulSet statefulSet = statefulSet(chart().values("persistence-off.yaml"));
        Container weir = weir(statefulSet);

        VolumeMount mount = mountAt(weir, envValue(weir, "WEIR_STATE_DIR"));
        assertThat(volume(statefulSet, mount.getName()))
                .get()
                .satisfies(v -> assertThat(v.getEmptyDir()).isNotNull());
        assertThat(statefulSet.getSpec().getVolumeClaimTemplates()).isEmpty();
        assertThat(statefulSet.getSpec().getPersistentVolumeClaimRetentionPolicy())
                .isNull();
    }

    @Test
    void probesAskWeirsHealthEndpointsOnItsHttpPort() {
        for (WeirChart chart : new WeirChart[] {chart(), chart().values("persistence-custom.yaml")}) {
            WeirChart.Manifests manifests = chart.render();
            Container weir = weir(manifests.only(StatefulSet.class));
            int httpPort = Integer.parseInt(envValue(weir, "WEIR_HTTP_PORT"));

            assertThat(weir.getPorts()).singleElement().satisfies(port -> {
                assertThat(port.getName()).isEqualTo("http");
                assertThat(port.getContainerPort()).isEqualTo(httpPort);
            });
            assertProbe(weir.getStartupProbe(), "/health/ready");
            assertProbe(weir.getReadinessProbe(), "/health/ready");
            assertProbe(weir.getLivenessProbe(), "/health/live");
            // The properties file must not name another port (the variable would win, but confuse).
            assertThat(weirProperties(manifests)).doesNotContainKey("http.port");
            // The headless Service publishes the same port under the same name (metrics, queries).
            Service service = manifests.only(Service.class);
            assertThat(service.getSpec().getClusterIP()).isEqualTo("None");
            assertThat(service.getSpec().getPorts()).singleElement().satisfies(port -> {
                assertThat(port.getName()).isEqualTo("http");
                assertThat(port.getPort()).isEqualTo(httpPort);
                assertThat(port.getTargetPort().getStrVal()).isEqualTo("http");
            });
        }
        assertThat(envValue(weir(statefulSet(chart().values("persistence-custom.yaml"))), "WEIR_HTTP_PORT"))
                .isEqualTo("9090");
    }

    private static void assertProbe(Probe probe, String path) {
        assertThat(probe.getHttpGet().getPath()).isEqualTo(path);
        assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("http");
    }

    @Test
    void startupAllowsALongRestore() {
        Probe startup = weir(statefulSet(chart())).getStartupProbe();

        assertThat(startup.getPeriodSeconds() * startup.getFailureThreshold()).isGreaterThanOrEqualTo(3600);
    }

    @Test
    void gracePeriodExceedsTheShutdownTimeout() {
        assertThat(pod(statefulSet(chart())).getTerminationGracePeriodSeconds() * 1000)
                .isGreaterThan(30_000);

        WeirChart.Manifests custom = chart().values("persistence-custom.yaml").render();
        long shutdownMs = Long.parseLong(weirProperties(custom).getProperty("shutdown.timeout.ms"));
        StatefulSet statefulSet = custom.only(StatefulSet.class);
        assertThat(pod(statefulSet).getTerminationGracePeriodSeconds() * 1000).isGreaterThan(shutdownMs);
        // The preStop hook waits at most the shutdown timeout plus 5 s for a leaving instance.
        assertThat(weir(statefulSet).getLifecycle().getPreStop().getExec().getCommand())
                .containsExactly("/bin/bash", "/etc/weir/config/pre-stop.sh", "65");
    }

    @Test
    void rollsOnePodAtATimeAndKeepsMembershipLongerThanARestart() {
        StatefulSet statefulSet = statefulSet(chart());

        assertThat(statefulSet.getSpec().getUpdateStrategy().getType()).isEqualTo("RollingUpdate");
        assertThat(statefulSet.getSpec().getUpdateStrategy().getRollingUpdate()).isNull(); // maxUnavailable 1
        assertThat(statefulSet.getSpec().getPodManagementPolicy()).isEqualTo("Parallel");
        assertThat(statefulSet.getSpec().getReplicas()).isEqualTo(2);
        assertThat(envValue(weir(statefulSet), "WEIR_CONSUMER_SESSION_TIMEOUT_MS"))
                .isEqualTo("45000");
    }

    @Test
    void podDisruptionBudgetAllowsOneUnavailable() {
        WeirChart.Manifests manifests = chart().render();
        PodDisruptionBudget pdb = manifests.only(PodDisruptionBudget.class);

        assertThat(pdb.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1);
        assertThat(pdb.getSpec().getSelector().getMatchLabels())
                .isEqualTo(manifests
                        .only(StatefulSet.class)
                        .getSpec()
                        .getSelector()
                        .getMatchLabels());
    }

    @Test
    void rootFilesystemIsReadOnlyWithWritableStateAndTmp() {
        StatefulSet statefulSet = statefulSet(chart());
        Container weir = weir(statefulSet);
        var container = weir.getSecurityContext();
        var podContext = pod(statefulSet).getSecurityContext();

        assertThat(container.getReadOnlyRootFilesystem()).isTrue();
        assertThat(container.getAllowPrivilegeEscalation()).isFalse();
        assertThat(container.getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(podContext.getRunAsNonRoot()).isTrue();
        assertThat(podContext.getRunAsUser()).isEqualTo(10001L);
        assertThat(podContext.getFsGroup())
                .as("makes the state volume writable")
                .isEqualTo(10001L);
        assertThat(podContext.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        VolumeMount tmp = mountAt(weir, "/tmp");
        assertThat(tmp.getReadOnly()).isNotEqualTo(Boolean.TRUE);
        assertThat(volume(statefulSet, tmp.getName()))
                .get()
                .satisfies(v -> assertThat(v.getEmptyDir()).isNotNull());
        assertThat(mountAt(weir, envValue(weir, "WEIR_STATE_DIR")).getReadOnly())
                .isNotEqualTo(Boolean.TRUE);
    }

    @Test
    void podsGetNoServiceLinksAndAnApiTokenOnlyForScaleIn() {
        PodSpec pod = pod(statefulSet(chart()));

        assertThat(pod.getEnableServiceLinks()).isFalse();
        assertThat(pod.getAutomountServiceAccountToken())
                .as("scaleIn.enabled reads the StatefulSet's replicas")
                .isTrue();
        assertThat(pod(statefulSet(chart().set("scaleIn.enabled", false))).getAutomountServiceAccountToken())
                .isFalse();
    }

    @Test
    void configChecksumChangesWithTheConfigAndOnlyThen() {
        String base = checksum(chart());

        assertThat(checksum(chart())).isEqualTo(base);
        assertThat(checksum(chart().set("config.num\\.stream\\.threads", 4))).isNotEqualTo(base);
        assertThat(checksum(chart().set("applicationId", "orders-v2"))).isNotEqualTo(base);
        assertThat(checksum(chart().set("replicaCount", 5))).isEqualTo(base);
    }

    private static String checksum(WeirChart chart) {
        return statefulSet(chart)
                .getSpec()
                .getTemplate()
                .getMetadata()
                .getAnnotations()
                .get("checksum/config");
    }

    @Test
    void settingsGoToThePropertiesFileThatWeirConfigFileNames() {
        WeirChart.Manifests manifests = chart().values("sasl.yaml").render();
        StatefulSet statefulSet = manifests.only(StatefulSet.class);
        Container weir = weir(statefulSet);
        Properties properties = weirProperties(manifests);

        assertThat(properties)
                .containsEntry("application.id", "orders")
                .containsEntry("bootstrap.servers", "kafka-0.kafka:9092,kafka-1.kafka:9092")
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("num.stream.threads", "2")
                .containsEntry("rocksdb.memory.bytes", "268435456") // not 2.68435456e+08
                .doesNotContainKey("sasl.jaas.config");
        String configFile = envValue(weir, "WEIR_CONFIG_FILE");
        VolumeMount configMount = mountAt(weir, configFile.substring(0, configFile.lastIndexOf('/')));
        assertThat(volume(statefulSet, configMount.getName()))
                .get()
                .satisfies(v -> assertThat(v.getConfigMap().getName())
                        .isEqualTo(manifests
                                .named(ConfigMap.class, WeirChart.FULLNAME)
                                .getMetadata()
                                .getName()));
        // The password stays in its Secret: an env variable Weir maps to sasl.jaas.config.
        var secretRef =
                env(weir, "WEIR_SASL_JAAS_CONFIG").orElseThrow().getValueFrom().getSecretKeyRef();
        assertThat(secretRef.getName()).isEqualTo("kafka-credentials");
        assertThat(secretRef.getKey()).isEqualTo("sasl.jaas.config");
    }

    @Test
    void tlsStoresAreMountedFromTheirSecretAndTheirPathsSet() {
        WeirChart.Manifests manifests = chart().values("tls.yaml").render();
        StatefulSet statefulSet = manifests.only(StatefulSet.class);
        Container weir = weir(statefulSet);
        Properties properties = weirProperties(manifests);

        VolumeMount tls = mountAt(weir, "/etc/weir/tls");
        assertThat(tls.getReadOnly()).isTrue();
        assertThat(volume(statefulSet, tls.getName()))
                .get()
                .satisfies(v -> assertThat(v.getSecret().getSecretName()).isEqualTo("kafka-tls"));
        assertThat(properties)
                .containsEntry("ssl.truststore.location", "/etc/weir/tls/truststore.p12")
                .containsEntry("ssl.keystore.location", "/etc/weir/tls/keystore.p12");
        assertThat(env(weir, "WEIR_SSL_TRUSTSTORE_PASSWORD")
                        .orElseThrow()
                        .getValueFrom()
                        .getSecretKeyRef()
                        .getKey())
                .isEqualTo("truststore.password");
        assertThat(env(weir, "WEIR_SSL_KEYSTORE_PASSWORD")).isPresent();
    }
}
