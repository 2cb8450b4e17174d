package io.weir.testkit.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The API server with access control, as a pod calls it: HTTPS verified against the {@code ca.crt}
 * pods get, a bearer token, RBAC from the stored Roles, and the StatefulSet scale subresource.
 */
class KubernetesApiServerTest {

    private KubernetesApiServer api;

    @AfterEach
    void close() {
        if (api != null) {
            api.close();
        }
    }

    @Test
    void servesTheScaleSubresourceOverTlsToAServiceAccountItsRoleAllows() throws Exception {
        api = KubernetesApiServer.start(
                KubernetesApiServer.Options.namespace("streaming").withAccessControl());
        storeStatefulSetAndRole(new String[] {"get", "patch"});
        HttpClient pod = podClient();
        String token = api.tokenFor("streaming", "weir");

        HttpResponse<String> get = pod.send(request("GET", token, null), HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).isEqualTo(200);
        assertThat(get.body()).contains("\"kind\":\"Scale\"").contains("\"replicas\":3");

        HttpResponse<String> patch =
                pod.send(request("PATCH", token, "{\"spec\":{\"replicas\":2}}"), HttpResponse.BodyHandlers.ofString());
        assertThat(patch.statusCode()).isEqualTo(200);
        assertThat(api.client()
                        .apps()
                        .statefulSets()
                        .inNamespace("streaming")
                        .withName("weir")
                        .get()
                        .getSpec()
                        .getReplicas())
                .isEqualTo(2);
    }

    @Test
    void refusesAVerbTheRoleDoesNotGrantNamingIt() throws Exception {
        api = KubernetesApiServer.start(
                KubernetesApiServer.Options.namespace("streaming").withAccessControl());
        storeStatefulSetAndRole(new String[] {"get"});

        HttpResponse<String> patch = podClient()
                .send(
                        request("PATCH", api.tokenFor("streaming", "weir"), "{\"spec\":{\"replicas\":0}}"),
                        HttpResponse.BodyHandlers.ofString());

        assertThat(patch.statusCode()).isEqualTo(403);
        assertThat(patch.body())
                .contains(
                        "statefulsets.apps \\\"weir\\\" is forbidden: User \\\"system:serviceaccount:streaming:weir\\\""
                                + " cannot patch resource \\\"statefulsets/scale\\\" in API group \\\"apps\\\" in the namespace \\\"streaming\\\"");
    }

    @Test
    void refusesAnUnknownToken() throws Exception {
        api = KubernetesApiServer.start(
                KubernetesApiServer.Options.namespace("streaming").withAccessControl());
        storeStatefulSetAndRole(new String[] {"get"});

        assertThat(podClient()
                        .send(request("GET", "not-a-token", null), HttpResponse.BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(401);
    }

    private void storeStatefulSetAndRole(String[] verbs) {
        var client = api.client();
        client.apps()
                .statefulSets()
                .inNamespace("streaming")
                .resource(new StatefulSetBuilder()
                        .withNewMetadata()
                        .withName("weir")
                        .withNamespace("streaming")
                        .endMetadata()
                        .withNewSpec()
                        .withReplicas(3)
                        .endSpec()
                        .build())
                .create();
        client.rbac()
                .roles()
                .inNamespace("streaming")
                .resource(new RoleBuilder()
                        .withNewMetadata()
                        .withName("weir-scale")
                        .withNamespace("streaming")
                        .endMetadata()
                        .addNewRule()
                        .withApiGroups("apps")
                        .withResources("statefulsets/scale")
                        .withResourceNames("weir")
                        .withVerbs(verbs)
                        .endRule()
                        .build())
                .create();
        client.rbac()
                .roleBindings()
                .inNamespace("streaming")
                .resource(new RoleBindingBuilder()
                        .withNewMetadata()
                        .withName("weir-scale")
                        .withNamespace("streaming")
                        .endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "Role", "weir-scale")
                        .addNewSubject()
                        .withKind("ServiceAccount")
                        .withName("weir")
                        .withNamespace("streaming")
                        .endSubject()
                        .build())
                .create();
    }

    /** A client trusting only the certificate pods get as ca.crt, connecting to the gateway's name. */
    private HttpClient podClient() throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        trust.setCertificateEntry(
                "api",
                CertificateFactory.getInstance("X.509")
                        .generateCertificate(
                                new ByteArrayInputStream(api.caCertificatePem().getBytes(StandardCharsets.US_ASCII))));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, tmf.getTrustManagers(), null);
        return HttpClient.newBuilder()
                .sslContext(tls)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    private HttpRequest request(String method, String token, String mergePatch) {
        // 127.0.0.1 is in the certificate beside the bridge's gateway, which exists only while a pod runs.
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + api.httpsPort()
                        + "/apis/apps/v1/namespaces/streaming/statefulsets/weir/scale"))
                .header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(10));
        return mergePatch == null
                ? b.GET().build()
                : b.header("Content-Type", "application/merge-patch+json")
                        .method(method, HttpRequest.BodyPublishers.ofString(mergePatch))
                        .build();
    }

    @Test
    void anOpenServerTakesAnyTokenAndGivesPodsItsCaAndNamespace() throws Exception {
        api = KubernetesApiServer.start("streaming");
        api.createStatefulSet("weir", 3);

        HttpResponse<String> get =
                podClient().send(request("GET", "any-token", null), HttpResponse.BodyHandlers.ofString());

        assertThat(get.statusCode()).isEqualTo(200);
        assertThat(get.body()).contains("\"kind\":\"Scale\"").contains("\"replicas\":3");
        assertThat(java.nio.file.Files.readString(api.serviceAccountDir().resolve("ca.crt")))
                .isEqualTo(api.caCertificatePem());
        assertThat(java.nio.file.Files.readString(api.serviceAccountDir().resolve("namespace")))
                .isEqualTo("streaming");
        assertThat(api.podEnvironment()).containsEntry("KUBERNETES_SERVICE_PORT", Integer.toString(api.httpsPort()));
    }
}
