package io.weir.internal.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.internal.json.Json;
import io.weir.testkit.kubernetes.KubernetesApiServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The calls of the chart's reset and clean-up hooks, against the testkit's API server: a ConfigMap
 * created, merged into, read and deleted (a missing one is empty or false, not an error); claims
 * listed by label and deleted; a StatefulSet's existence; a 403 naming the rule the account lacks.
 */
class KubernetesApiResourcesTest {

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

    private static KubernetesApi api() {
        return KubernetesApi.of(server.httpUrl(), server.adminToken(), null, server.namespace());
    }

    private static void createClaim(String name, Map<String, String> labels) throws Exception {
        byte[] body = Json.bytes(Map.of(
                "apiVersion",
                "v1",
                "kind",
                "PersistentVolumeClaim",
                "metadata",
                Map.of("name", name, "labels", labels),
                "spec",
                Map.of("accessModes", List.of("ReadWriteOnce"))));
        HttpResponse<Void> created = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(
                                        URI.create(server.httpUrl().toString().replaceAll("/+$", "")
                                                + "/api/v1/namespaces/shop/persistentvolumeclaims"))
                                .header("Authorization", "Bearer " + server.adminToken())
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
        assertThat(created.statusCode()).isEqualTo(201);
    }

    @Test
    void aConfigMapIsCreatedMergedReadAndDeleted() {
        KubernetesApi api = api();
        assertThat(api.configMapData("orders-replay")).isEmpty();
        assertThat(api.deleteConfigMap("orders-replay")).isFalse();

        api.writeConfigMap("orders-replay", Map.of("app.kubernetes.io/instance", "orders"), Map.of("a", "1", "b", "2"));
        api.writeConfigMap("orders-replay", Map.of(), Map.of("b", "3"));

        assertThat(api.configMapData("orders-replay")).hasValue(Map.of("a", "1", "b", "3"));
        assertThat(api.deleteConfigMap("orders-replay")).isTrue();
        assertThat(api.configMapData("orders-replay")).isEmpty();
    }

    @Test
    void claimsAreListedByLabelAndDeleted() throws Exception {
        createClaim("state-orders-0", Map.of("app", "orders"));
        createClaim("state-orders-1", Map.of("app", "orders", "tier", "x"));
        createClaim("state-other-0", Map.of("app", "other"));
        KubernetesApi api = api();

        assertThat(api.persistentVolumeClaims(Map.of("app", "orders")))
                .containsExactly("state-orders-0", "state-orders-1");
        assertThat(api.deletePersistentVolumeClaim("state-orders-0")).isTrue();
        assertThat(api.deletePersistentVolumeClaim("state-orders-0")).isFalse();
        assertThat(api.persistentVolumeClaims(Map.of())).containsExactly("state-orders-1", "state-other-0");
    }

    @Test
    void aStatefulSetExistsOnlyOnceCreated() {
        assertThat(api().statefulSetExists("orders")).isFalse();
        server.createStatefulSet("orders", 1);
        assertThat(api().statefulSetExists("orders")).isTrue();
    }

    @Test
    void aForbiddenCreateNamesTheRuleWithoutAResourceName() {
        server.expect()
                .post()
                .withPath("/api/v1/namespaces/shop/configmaps")
                .andReturn(403, "{\"kind\":\"Status\",\"reason\":\"Forbidden\",\"code\":403,\"message\":\"forbidden\"}")
                .once();

        assertThatThrownBy(() -> api().writeConfigMap("orders-replay", Map.of(), Map.of("a", "1")))
                .isInstanceOf(KubernetesApiException.class)
                .hasMessageContaining("Kubernetes API POST configmaps/orders-replay in namespace shop: HTTP 403")
                .hasMessageContaining("{apiGroups: [\"\"], resources: [configmaps], verbs: [create]}");
    }
}
