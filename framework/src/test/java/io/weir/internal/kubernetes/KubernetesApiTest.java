package io.weir.internal.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.fabric8.mockwebserver.http.RecordedRequest;
import io.weir.testkit.kubernetes.KubernetesApiServer;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubernetesApiTest {

    private static final String SCALE = "/apis/apps/v1/namespaces/shop/statefulsets/orders/scale";

    private static KubernetesApiServer server;

    @BeforeAll
    static void startServer() {
        server = KubernetesApiServer.start("shop");
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @BeforeEach
    void forgetEverything() {
        server.reset();
    }

    @Test
    void readsTheDesiredReplicasFromTheScaleSubresourceWithTheBearerToken() throws Exception {
        server.createStatefulSet("orders", 3);
        server.takeRequest();

        assertThat(api().statefulSetReplicas("orders")).isEqualTo(3);

        RecordedRequest get = server.takeRequest();
        assertThat(get.getMethod()).isEqualTo("GET");
        assertThat(get.getPath()).isEqualTo(SCALE);
        assertThat(get.getHeader("Authorization")).isEqualTo("Bearer " + KubernetesApiServer.TOKEN);
    }

    @Test
    void scalesAStatefulSetWithAMergePatchOfTheScaleSubresource() throws Exception {
        server.createStatefulSet("orders", 3);
        server.takeRequest();

        api().scaleStatefulSet("orders", 2);

        RecordedRequest patch = server.takeRequest();
        assertThat(patch.getMethod()).isEqualTo("PATCH");
        assertThat(patch.getPath()).isEqualTo(SCALE);
        assertThat(patch.getHeader("Content-Type")).isEqualTo("application/merge-patch+json");
        assertThat(api().statefulSetReplicas("orders")).isEqualTo(2);
        api().scaleStatefulSet("orders", 0);
        assertThat(api().statefulSetReplicas("orders")).isZero();
    }

    @Test
    void setsReadsAndRemovesAnAnnotationOfTheStatefulSetWithoutTouchingItsReplicas() throws Exception {
        server.createStatefulSet("orders", 3);
        server.takeRequest();

        assertThat(api().statefulSetAnnotation("orders", "weir.io/mark")).isEmpty();
        api().annotateStatefulSet("orders", "weir.io/mark", "{\"phase\":\"stopped\"}");

        server.takeRequest();
        RecordedRequest patch = server.takeRequest();
        assertThat(patch.getMethod()).isEqualTo("PATCH");
        assertThat(patch.getPath()).isEqualTo("/apis/apps/v1/namespaces/shop/statefulsets/orders");
        assertThat(patch.getHeader("Content-Type")).isEqualTo("application/merge-patch+json");
        assertThat(api().statefulSetAnnotation("orders", "weir.io/mark")).hasValue("{\"phase\":\"stopped\"}");
        assertThat(api().statefulSetReplicas("orders")).isEqualTo(3);
        api().annotateStatefulSet("orders", "weir.io/mark", null);
        assertThat(api().statefulSetAnnotation("orders", "weir.io/mark")).isEmpty();
    }

    @Test
    void aScaleWithoutReplicasHasZero() {
        // The API leaves spec.replicas out of a Scale when it is 0 (omitempty).
        server.expect()
                .get()
                .withPath(SCALE)
                .andReturn(
                        200,
                        "{\"kind\":\"Scale\",\"apiVersion\":\"autoscaling/v1\",\"spec\":{},\"status\":{\"replicas\":1}}")
                .once();

        assertThat(api().statefulSetReplicas("orders")).isZero();
    }

    @Test
    void inClusterReadsThePodsServiceAccountAndRereadsTheTokenOnEveryCall() throws Exception {
        server.createStatefulSet("orders", 3);
        server.takeRequest();
        KubernetesApi api = InCluster.api(server.podEnvironment(), server.serviceAccountDir());
        assertThat(api.namespace()).isEqualTo("shop");
        assertThat(api.server())
                .isEqualTo(URI.create("https://" + server.podEnvironment().get("KUBERNETES_SERVICE_HOST") + ":"
                        + server.podEnvironment().get("KUBERNETES_SERVICE_PORT")));

        assertThat(api.statefulSetReplicas("orders")).isEqualTo(3);
        assertThat(server.takeRequest().getHeader("Authorization")).isEqualTo("Bearer " + KubernetesApiServer.TOKEN);

        // The kubelet rotates the projected token: the next call sends the new one.
        Files.writeString(server.serviceAccountDir().resolve("token"), "rotated-token\n");
        assertThat(api.statefulSetReplicas("orders")).isEqualTo(3);
        assertThat(server.takeRequest().getHeader("Authorization")).isEqualTo("Bearer rotated-token");
    }

    @Test
    void outsideAPodThereIsNoInClusterApi(@TempDir Path dir) throws IOException {
        assertThatThrownBy(() -> InCluster.api(Map.of(), server.serviceAccountDir()))
                .isInstanceOf(KubernetesApiException.class)
                .hasMessageContaining("not running in a Kubernetes pod: KUBERNETES_SERVICE_HOST");

        Files.writeString(dir.resolve("namespace"), "shop");
        assertThatThrownBy(() -> InCluster.api(server.podEnvironment(), dir))
                .isInstanceOf(KubernetesApiException.class)
                .hasMessageContaining("no service account token at " + dir.resolve("token"))
                .hasMessageContaining("automountServiceAccountToken: false");
        // The test JVM runs in no pod (or the build's own pod has its token): inCluster() says empty or gives an API.
        assertThat(KubernetesApi.inCluster().isPresent())
                .isEqualTo(System.getenv("KUBERNETES_SERVICE_HOST") != null
                        && Files.isReadable(InCluster.serviceAccountDir().resolve("token")));
    }

    @Test
    void aForbiddenCallNamesTheRbacRuleTheServiceAccountLacks() {
        server.expect().get().withPath(SCALE).andReturn(403, """
                {"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403,
                 "message":"statefulsets.apps \\"orders\\" is forbidden: User \\"system:serviceaccount:shop:orders\\" \
                cannot get resource \\"statefulsets/scale\\" in API group \\"apps\\" in the namespace \\"shop\\""}
                """).once();
        server.expect()
                .patch()
                .withPath(SCALE)
                .andReturn(403, "{\"kind\":\"Status\",\"reason\":\"Forbidden\",\"code\":403,\"message\":\"forbidden\"}")
                .once();

        assertThatThrownBy(() -> api().statefulSetReplicas("orders"))
                .isInstanceOfSatisfying(KubernetesApiException.class, e -> {
                    assertThat(e.status()).hasValue(403);
                    assertThat(e.refused()).isTrue();
                })
                .hasMessageStartingWith(
                        "Kubernetes API GET statefulsets/orders/scale in namespace shop: HTTP 403 Forbidden"
                                + " (statefulsets.apps \"orders\" is forbidden: User \"system:serviceaccount:shop:orders\"")
                .hasMessageEndingWith("; the pod's service account needs a Role with the rule {apiGroups: [apps],"
                        + " resources: [statefulsets/scale], resourceNames: [orders], verbs: [get]} and a RoleBinding to"
                        + " it, in namespace shop");
        assertThatThrownBy(() -> api().scaleStatefulSet("orders", 0))
                .hasMessageContaining(
                        "PATCH statefulsets/orders/scale in namespace shop: HTTP 403 Forbidden (forbidden)")
                .hasMessageContaining("{apiGroups: [apps], resources: [statefulsets/scale], resourceNames: [orders],"
                        + " verbs: [patch]}");
    }

    @Test
    void aRefusedTokenAMissingStatefulSetAndAServerErrorSayWhich() {
        server.expect()
                .get()
                .withPath(SCALE)
                .andReturn(
                        401,
                        "{\"kind\":\"Status\",\"reason\":\"Unauthorized\",\"code\":401,\"message\":\"Unauthorized\"}")
                .once();
        server.expect().get().withPath(SCALE).andReturn(503, "etcd is down").once();

        assertThatThrownBy(() -> api().statefulSetReplicas("orders"))
                .hasMessageContaining(
                        "HTTP 401 Unauthorized (Unauthorized); the API refused the service account token");
        assertThatThrownBy(() -> api().statefulSetReplicas("orders"))
                .isInstanceOfSatisfying(
                        KubernetesApiException.class,
                        e -> assertThat(e.refused()).isFalse())
                .hasMessageEndingWith("HTTP 503 (etcd is down)");
        // No canned answer left: the stored objects answer, and there is no StatefulSet.
        assertThatThrownBy(() -> api().statefulSetReplicas("orders"))
                .isInstanceOfSatisfying(
                        KubernetesApiException.class,
                        e -> assertThat(e.status()).hasValue(404))
                .hasMessageContaining("HTTP 404")
                .hasMessageEndingWith("there is no StatefulSet 'orders' in namespace shop");
    }

    @Test
    void aServerThatDoesNotAnswerFailsTheCallWithinTheTimeout() throws Exception {
        try (SilentServer silent = new SilentServer()) {
            KubernetesApi api = silent.api(Duration.ofMillis(500));

            // The message says the call gave up after its time-out; the deadline only fails a call that hangs.
            assertThatThrownBy(() ->
                            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> api.statefulSetReplicas("orders")))
                    .isInstanceOfSatisfying(KubernetesApiException.class, e -> {
                        assertThat(e.status()).isEmpty();
                        assertThat(e.refused()).isFalse();
                    })
                    .hasMessage("Kubernetes API GET statefulsets/orders/scale in namespace shop: no answer from "
                            + silent.url() + " within 500 ms");
        }
    }

    @Test
    void aServerCertificateNotSignedByTheCaFailsTheHandshake() {
        try (KubernetesApiServer other = KubernetesApiServer.start("shop")) {
            KubernetesApi api = KubernetesApi.of(
                    server.url(), "t", other.serviceAccountDir().resolve("ca.crt"), "shop");

            assertThatThrownBy(() -> api.statefulSetReplicas("orders"))
                    .isInstanceOf(KubernetesApiException.class)
                    .hasMessageContaining("the TLS handshake with " + server.url() + " failed (is "
                            + other.serviceAccountDir().resolve("ca.crt") + " the CA of the cluster?)");
        }
    }

    @Test
    void namesAndCountsAreChecked() {
        KubernetesApi api = api();
        assertThatThrownBy(() -> api.statefulSetReplicas("Orders/../x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not a Kubernetes StatefulSet name");
        assertThatThrownBy(() -> api.scaleStatefulSet("orders", -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot be negative");
        assertThatThrownBy(() -> KubernetesApi.of(server.url(), "t", null, "Shop"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a Kubernetes namespace name");
    }

    /** A client of the server with the pod's token, CA and namespace. */
    private static KubernetesApi api() {
        return KubernetesApi.of(
                server.url(),
                KubernetesApiServer.TOKEN,
                server.serviceAccountDir().resolve("ca.crt"),
                server.namespace());
    }
}
