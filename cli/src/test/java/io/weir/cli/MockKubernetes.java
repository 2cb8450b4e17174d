package io.weir.cli;

import io.fabric8.mockwebserver.dsl.MockServerExpectation;
import io.weir.internal.kubernetes.KubernetesApi;
import io.weir.testkit.kubernetes.KubernetesApiServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Kubernetes API {@code weir upgrade} talks to in tests: the testkit's server (objects stored and
 * read back, the StatefulSet {@code /scale} subresource, {@link #expect() canned answers} that win),
 * over plain HTTP, with the command's options to reach it: its URL, a token file, the namespace.
 */
final class MockKubernetes implements AutoCloseable {

    static final String NAMESPACE = "streaming";

    private final KubernetesApiServer server = KubernetesApiServer.start(NAMESPACE);
    private final Path tokenFile;

    MockKubernetes() {
        try {
            tokenFile = Files.createTempFile("weir-token-", "");
            Files.writeString(tokenFile, server.adminToken());
        } catch (IOException e) {
            server.close();
            throw new UncheckedIOException(e);
        }
    }

    /** The client the test plays the StatefulSet controller with. */
    KubernetesApi api() {
        return KubernetesApi.of(server.httpUrl(), server.adminToken(), null, NAMESPACE);
    }

    /** {@code weir upgrade}'s options for this server. */
    String[] options() {
        return new String[] {
            "--kubernetes-server",
            server.httpUrl().toString(),
            "--kubernetes-token-file",
            tokenFile.toString(),
            "--namespace",
            NAMESPACE
        };
    }

    MockServerExpectation expect() {
        return server.expect();
    }

    /** Creates the StatefulSet as {@code helm install} would. */
    void createStatefulSet(String name, int replicas) {
        server.createStatefulSet(name, replicas);
    }

    /** Creates a PersistentVolumeClaim with {@code labels}, as the StatefulSet controller does for each pod. */
    void createVolumeClaim(String name, java.util.Map<String, String> labels) {
        byte[] body = io.weir.internal.json.Json.bytes(java.util.Map.of(
                "apiVersion",
                "v1",
                "kind",
                "PersistentVolumeClaim",
                "metadata",
                java.util.Map.of("name", name, "namespace", NAMESPACE, "labels", labels),
                "spec",
                java.util.Map.of("accessModes", java.util.List.of("ReadWriteOnce"))));
        java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(server.httpUrl().toString().replaceAll("/+$", "") + "/api/v1/namespaces/"
                                + NAMESPACE + "/persistentvolumeclaims"))
                .header("Authorization", "Bearer " + server.adminToken())
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        try {
            int status = java.net.http.HttpClient.newHttpClient()
                    .send(request, java.net.http.HttpResponse.BodyHandlers.discarding())
                    .statusCode();
            if (status / 100 != 2) {
                throw new IllegalStateException("creating claim " + name + ": HTTP " + status);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        Files.deleteIfExists(tokenFile);
    }
}
