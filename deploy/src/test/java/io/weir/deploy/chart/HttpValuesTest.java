package io.weir.deploy.chart;

import static io.weir.deploy.chart.WeirChart.chart;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Weir's HTTP server through the chart's http.* values: each pod advertises its stable name so
 * queries are forwarded between pods, the token and the stores come from existing Secrets as
 * files, the probes speak the server's scheme, and the settings the chart derives from these values
 * cannot be given again under config or secretConfig.
 */
class HttpValuesTest {

    private static final String TLS_SECRET = "orders-http-tls";

    private static WeirChart withTls() {
        return chart().set("http.tls.keystore.secretName", TLS_SECRET);
    }

    private static PodSpec pod(WeirChart chart) {
        return chart.render().only(StatefulSet.class).getSpec().getTemplate().getSpec();
    }

    private static Container weir(WeirChart chart) {
        return pod(chart).getContainers().get(0);
    }

    private static Map<String, String> env(Container container) {
        return container.getEnv().stream()
                .filter(e -> e.getValue() != null)
                .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
    }

    private static EnvVar variable(Container container, String name) {
        return container.getEnv().stream()
                .filter(e -> e.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + name));
    }

    private static List<String> names(Container container) {
        return container.getEnv().stream().map(EnvVar::getName).toList();
    }

    private static void failsWith(WeirChart chart, String... messageParts) {
        assertThatThrownBy(chart::template)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContainingAll(messageParts);
    }

    // ---- queries between pods ----------------------------------------------------------------------

    @Test
    void eachPodAdvertisesItsStableNameUnderTheHeadlessService() {
        WeirChart.Manifests manifests = chart().render();
        StatefulSet statefulSet = manifests.only(StatefulSet.class);
        Container weir =
                statefulSet.getSpec().getTemplate().getSpec().getContainers().get(0);

        assertThat(env(weir))
                .containsEntry("WEIR_HTTP_ADVERTISED_URL", "http://$(WEIR_INSTANCE_ID).orders-weir.streaming.svc:8080");
        // The kubelet expands $(VAR) only with variables defined earlier in the list.
        assertThat(names(weir).indexOf("WEIR_INSTANCE_ID"))
                .isLessThan(names(weir).indexOf("WEIR_HTTP_ADVERTISED_URL"));
        assertThat(variable(weir, "WEIR_INSTANCE_ID")
                        .getValueFrom()
                        .getFieldRef()
                        .getFieldPath())
                .isEqualTo("metadata.name");
        // <pod>.<service>.<namespace>.svc: the Service that governs the StatefulSet, headless.
        Service service = manifests.only(Service.class);
        assertThat(statefulSet.getSpec().getServiceName())
                .isEqualTo(service.getMetadata().getName())
                .isEqualTo("orders-weir");
        assertThat(service.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(service.getMetadata().getNamespace()).isEqualTo(WeirChart.NAMESPACE);
    }

    @Test
    void theAdvertisedUrlHasTheSchemeAndPortOfTheQueryEndpoint() {
        assertThat(env(weir(withTls().set("http.adminPort", 8081))))
                .containsEntry("WEIR_HTTP_ADVERTISED_URL", "https://$(WEIR_INSTANCE_ID).orders-weir.streaming.svc:8081")
                .containsEntry("WEIR_HTTP_ADMIN_PORT", "8081");
        assertThat(env(weir(chart().set("http.port", 9090))))
                .containsEntry("WEIR_HTTP_ADVERTISED_URL", "http://$(WEIR_INSTANCE_ID).orders-weir.streaming.svc:9090");
    }

    @Test
    void theAdvertisedUrlCanBeLeftToTheConfig() {
        Container weir = weir(chart().set("http.advertiseStableName", false)
                .set("config.http\\.advertised\\.url", "http://orders.example.com:8080"));

        assertThat(names(weir)).doesNotContain("WEIR_HTTP_ADVERTISED_URL");
        failsWith(
                chart().set("config.http\\.advertised\\.url", "http://orders.example.com:8080"),
                "config.http.advertised.url: the chart sets http.advertised.url",
                "http.advertiseStableName=false");
    }

    @Test
    void theAdminPortIsAContainerPortAndAPortOfTheService() {
        WeirChart.Manifests manifests = chart().set("http.adminPort", 8081).render();
        Container weir = manifests
                .only(StatefulSet.class)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0);

        assertThat(weir.getPorts())
                .extracting(p -> p.getName() + ":" + p.getContainerPort())
                .containsExactly("http:8080", "admin:8081");
        assertThat(manifests.only(Service.class).getSpec().getPorts())
                .extracting(p -> p.getName() + ":" + p.getPort() + "->"
                        + p.getTargetPort().getStrVal())
                .containsExactly("http:8080->http", "admin:8081->admin");
        assertThat(names(weir(chart()))).doesNotContain("WEIR_HTTP_ADMIN_PORT");
    }

    // ---- the token -----------------------------------------------------------------------------------

    @Test
    void aTokenFromAnExistingSecretIsMountedAndPassedAsTheTokenFile() {
        PodSpec pod =
                pod(chart().set("http.auth.existingSecret", "orders-http-token").set("http.auth.tokenKey", "tokens"));
        Container weir = pod.getContainers().get(0);

        assertThat(env(weir))
                .containsEntry("WEIR_HTTP_AUTH_TOKEN_FILE", "/etc/weir/http-token/tokens")
                .containsEntry("WEIR_HTTP_AUTH_SCOPE", "admin")
                .doesNotContainKey("WEIR_HTTP_AUTH_TOKEN");
        // The whole Secret, without subPath: a rotated token reaches the running pod.
        VolumeMount mount = mount(weir, "/etc/weir/http-token");
        assertThat(mount.getSubPath()).isNull();
        assertThat(mount.getReadOnly()).isTrue();
        assertThat(volume(pod, mount.getName()).getSecret().getSecretName()).isEqualTo("orders-http-token");

        assertThat(env(weir(chart()))).doesNotContainKey("WEIR_HTTP_AUTH_TOKEN_FILE");
        assertThat(env(weir(chart().set("http.auth.scope", "all").set("http.auth.existingSecret", "t"))))
                .containsEntry("WEIR_HTTP_AUTH_SCOPE", "all");
    }

    // ---- TLS -------------------------------------------------------------------------------------------

    @Test
    void theKeyStoreAndTrustStoreComeFromSecretsWithTheirPasswords() {
        PodSpec pod = pod(withTls()
                .set("http.tls.keystore.password.secretName", "orders-http-password")
                .set("http.tls.keystore.password.key", "password")
                .set("http.tls.truststore.secretName", "orders-http-ca")
                .set("http.tls.truststore.key", "truststore.jks")
                .set("http.tls.truststore.type", "jks")
                .set("http.tls.truststore.password.secretName", "orders-http-password")
                .set("http.tls.truststore.password.key", "password")
                .set("http.tls.clientAuth", "optional"));
        Container weir = pod.getContainers().get(0);

        assertThat(env(weir))
                .containsEntry("WEIR_HTTP_TLS_KEYSTORE_PATH", "/etc/weir/http-tls/keystore.p12")
                .containsEntry("WEIR_HTTP_TLS_KEYSTORE_TYPE", "pkcs12")
                .containsEntry("WEIR_HTTP_TLS_TRUSTSTORE_PATH", "/etc/weir/http-truststore/truststore.jks")
                .containsEntry("WEIR_HTTP_TLS_TRUSTSTORE_TYPE", "jks")
                .containsEntry("WEIR_HTTP_TLS_CLIENT_AUTH", "optional");
        Stream.of("WEIR_HTTP_TLS_KEYSTORE_PASSWORD", "WEIR_HTTP_TLS_TRUSTSTORE_PASSWORD")
                .forEach(name -> {
                    var ref = variable(weir, name).getValueFrom().getSecretKeyRef();
                    assertThat(ref.getName() + "/" + ref.getKey()).as(name).isEqualTo("orders-http-password/password");
                });
        assertThat(volume(pod, mount(weir, "/etc/weir/http-tls").getName())
                        .getSecret()
                        .getSecretName())
                .isEqualTo(TLS_SECRET);
        assertThat(volume(pod, mount(weir, "/etc/weir/http-truststore").getName())
                        .getSecret()
                        .getSecretName())
                .isEqualTo("orders-http-ca");
        assertThat(mount(weir, "/etc/weir/http-tls").getSubPath()).isNull();
    }

    @Test
    void aTrustStoreInTheKeyStoresSecretNeedsNoSecondVolume() {
        PodSpec pod = pod(withTls().set("http.tls.truststore.key", "truststore.p12"));
        Container weir = pod.getContainers().get(0);

        assertThat(env(weir))
                .containsEntry("WEIR_HTTP_TLS_TRUSTSTORE_PATH", "/etc/weir/http-tls/truststore.p12")
                .doesNotContainKeys("WEIR_HTTP_TLS_KEYSTORE_PASSWORD", "WEIR_HTTP_TLS_CLIENT_AUTH");
        assertThat(pod.getVolumes()).extracting(Volume::getName).doesNotContain("http-truststore");
        assertThat(names(weir(chart()))).noneMatch(n -> n.startsWith("WEIR_HTTP_TLS_"));
    }

    @Test
    void probesSpeakHttpsWhenTheServerDoes() {
        Container plain = weir(chart());
        Container tls = weir(withTls());

        for (Probe probe : probes(plain)) {
            assertThat(probe.getHttpGet().getScheme()).isEqualTo("HTTP");
        }
        for (Probe probe : probes(tls)) {
            assertThat(probe.getHttpGet().getScheme()).isEqualTo("HTTPS");
            // /health/* is open to every caller: the probes carry no credentials.
            assertThat(probe.getHttpGet().getPath()).startsWith("/health/");
            assertThat(probe.getHttpGet().getHttpHeaders()).isNullOrEmpty();
            assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("http");
        }
    }

    // ---- refused values ------------------------------------------------------------------------------

    @Test
    void theChartsHttpSettingsAreRefusedInConfigNamingTheValueToSet() {
        Map<String, String> valueFor = Map.ofEntries(
                Map.entry("http.admin.port", "http.adminPort"),
                Map.entry("http.auth.scope", "http.auth.scope"),
                Map.entry("http.auth.token", "http.auth.existingSecret"),
                Map.entry("http.auth.token.file", "http.auth.existingSecret"),
                Map.entry("http.tls.keystore.path", "http.tls.keystore.secretName"),
                Map.entry("http.tls.keystore.type", "http.tls.keystore.type"),
                Map.entry("http.tls.keystore.password", "http.tls.keystore.password.secretName"),
                Map.entry("http.tls.truststore.path", "http.tls.truststore.key"),
                Map.entry("http.tls.truststore.type", "http.tls.truststore.type"),
                Map.entry("http.tls.truststore.password", "http.tls.truststore.password.secretName"),
                Map.entry("http.tls.client.auth", "http.tls.clientAuth"));
        valueFor.forEach((setting, value) -> {
            String escaped = setting.replace(".", "\\.");
            failsWith(
                    chart().set("config." + escaped, "x"),
                    "config." + setting + ": the chart sets " + setting + "; set " + value);
            failsWith(
                    chart().set("secretConfig." + escaped + ".secretName", "s")
                            .set("secretConfig." + escaped + ".key", "k"),
                    "secretConfig." + setting + ": the chart sets " + setting + "; set " + value);
        });
    }

    @Test
    void clientCertificatesRequiredAreRefusedAsTheProbesHaveNone() {
        failsWith(
                withTls().set("http.tls.truststore.key", "truststore.p12").set("http.tls.clientAuth", "required"),
                "http.tls.clientAuth=required is not supported by the chart",
                "probes",
                "use optional");
    }

    @Test
    void tlsValuesWithoutAKeyStoreOrWithoutTheirKeysFailNamingTheValue() {
        failsWith(
                chart().set("http.tls.truststore.key", "truststore.p12"),
                "http.tls.* needs http.tls.keystore.secretName");
        failsWith(withTls().set("http.tls.keystore.key", ""), "http.tls.keystore.key is required");
        failsWith(withTls().set("http.tls.truststore.secretName", "ca"), "http.tls.truststore.key is required");
        failsWith(
                withTls().set("http.tls.clientAuth", "optional"),
                "http.tls.clientAuth=optional needs http.tls.truststore.key");
        failsWith(
                withTls().set("http.tls.keystore.password.secretName", "pw"),
                "http.tls.keystore.password.key is required with http.tls.keystore.password.secretName");
        failsWith(chart().set("http.tls.keystore.type", "pem"), "http.tls.keystore.type");
        failsWith(chart().set("http.tls.clientAuth", "want"), "http.tls.clientAuth");
    }

    @Test
    void theAdminPortMustDifferFromTheHttpPort() {
        failsWith(chart().set("http.adminPort", 8080), "http.adminPort (8080) must differ from http.port");
        failsWith(chart().set("http.adminPort", 70000), "http.adminPort: Must be less than or equal to 65535");
    }

    @Test
    void scopeAllWithoutATokenFailsWhereTheChartsOwnCallersWouldBeRefused() {
        failsWith(
                chart().set("http.auth.scope", "all"),
                "tests.enabled with http.auth.scope=all needs http.auth.existingSecret");
        failsWith(
                chart().set("http.auth.scope", "all")
                        .set("tests.enabled", false)
                        .set("serviceMonitor.enabled", true),
                "serviceMonitor.enabled with http.auth.scope=all needs http.auth.existingSecret");
        assertThat(env(weir(chart().set("http.auth.scope", "all").set("tests.enabled", false))))
                .containsEntry("WEIR_HTTP_AUTH_SCOPE", "all");
        failsWith(chart().set("http.auth.scope", "everything"), "http.auth.scope");
    }

    // ---- helpers -------------------------------------------------------------------------------------

    private static List<Probe> probes(Container container) {
        return List.of(container.getStartupProbe(), container.getReadinessProbe(), container.getLivenessProbe());
    }

    private static VolumeMount mount(Container container, String path) {
        return container.getVolumeMounts().stream()
                .filter(m -> m.getMountPath().equals(path))
                .findFirst()
                .orElseThrow(() -> new AssertionError("nothing mounted at " + path));
    }

    private static Volume volume(PodSpec pod, String name) {
        return pod.getVolumes().stream()
                .filter(v -> v.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no volume " + name));
    }
}
