package io.weir.cli;

import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.dsl.MockServerExpectation;
import io.weir.internal.kubernetes.KubernetesApi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;

/**
 * The Kubernetes API {@code weir upgrade} talks to in tests: fabric8's mock server in CRUD mode
 * (objects are stored and read back; its CRUD mode serves a StatefulSet's {@code /scale} path from
 * the StatefulSet itself, which carries {@code spec.replicas} as a Scale does), over plain HTTP, with
 * the command's options to reach it. {@link #expect()} adds canned answers (a refusal) that win.
 */
final class MockKubernetes implements AutoCloseable {

    static final String NAMESPACE = "streaming";
    private static final String TOKEN = "weir-upgrade-test";

    private final KubernetesMockServer server;
    private final Path tokenFile;

    MockKubernetes() {
        Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
        server = new KubernetesMockServer(new Context(), new MockWebServer(), expectations,
                new KubernetesMixedDispatcher(expectations), false);
        server.init();
        try {
            tokenFile = Files.createTempFile("weir-token-", "");
            Files.writeString(tokenFile, TOKEN);
        } catch (IOException e) {
            server.destroy();
            throw new UncheckedIOException(e);
        }
    }

    URI url() {
        return URI.create(server.url("/")).resolve("/");
    }

    /** The client the test plays the StatefulSet controller with. */
    KubernetesApi api() {
        return KubernetesApi.of(url(), TOKEN, null, NAMESPACE);
    }

    /** {@code weir upgrade}'s options for this server. */
    String[] options() {
        return new String[] {"--kubernetes-server", url().toString(), "--kubernetes-token-file", tokenFile.toString(),
                "--namespace", NAMESPACE};
    }

    MockServerExpectation expect() {
        return server.expect();
    }

    /** Creates the StatefulSet as {@code helm install} would. */
    void createStatefulSet(String name, int replicas) throws Exception {
        String body = """
                {"apiVersion": "apps/v1", "kind": "StatefulSet",
                 "metadata": {"name": "%s", "namespace": "%s"},
                 "spec": {"replicas": %d, "serviceName": "%s", "selector": {"matchLabels": {"app": "%s"}},
                          "template": {"metadata": {"labels": {"app": "%s"}},
                                       "spec": {"containers": [{"name": "weir", "image": "weir"}]}}}}
                """.formatted(name, NAMESPACE, replicas, name, name, name);
        java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(url().resolve("/apis/apps/v1/namespaces/" + NAMESPACE
                                + "/statefulsets")).header("Content-Type", "application/json")
                        .header("Authorization", "Bearer " + TOKEN)
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 201) {
            throw new IllegalStateException("creating the StatefulSet: " + r.statusCode() + " " + r.body());
        }
    }

    @Override
    public void close() throws IOException {
        server.destroy();
        Files.deleteIfExists(tokenFile);
    }
}
