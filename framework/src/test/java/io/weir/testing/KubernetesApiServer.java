package io.weir.testing;

import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.dsl.MockServerExpectation;
import io.weir.internal.kubernetes.KubernetesApi;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * An in-memory Kubernetes API server over HTTPS (fabric8's mock server in CRUD mode: objects
 * created are stored and read back; {@link #expect()} adds canned answers that win over the
 * stored objects), and a pod's view of it: the service account directory ({@code token},
 * {@code ca.crt} with the server's self-signed certificate, {@code namespace}) and the
 * {@code KUBERNETES_SERVICE_HOST}/{@code _PORT} environment.
 *
 * <p>The CRUD mode ignores the {@code /scale} suffix of a subresource path: a GET of
 * {@code statefulsets/x/scale} answers the StatefulSet itself and a merge patch of it patches the
 * StatefulSet. Both carry {@code spec.replicas} where a real {@code Scale} does, which is all
 * {@link KubernetesApi} reads and writes. It checks no token either: RBAC refusals are
 * {@link #expect() expected} answers.
 */
public final class KubernetesApiServer implements AutoCloseable {

    public static final String TOKEN = "weir-test-token";

    private final KubernetesMockServer server;
    private final String namespace;
    private final Path serviceAccountDir;
    private final HttpClient http;

    private KubernetesApiServer(KubernetesMockServer server, String namespace, Path serviceAccountDir,
            HttpClient http) {
        this.server = server;
        this.namespace = namespace;
        this.serviceAccountDir = serviceAccountDir;
        this.http = http;
    }

    /** Starts a server whose pods live in {@code namespace}. */
    public static KubernetesApiServer start(String namespace) {
        Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), expectations,
                new KubernetesMixedDispatcher(expectations), true);
        server.init();
        try {
            Path dir = Files.createTempDirectory("weir-serviceaccount-");
            Files.writeString(dir.resolve("token"), TOKEN + "\n");
            Files.writeString(dir.resolve("namespace"), namespace);
            Files.copy(Path.of(server.getSelfSignedCertificate().certificatePath()), dir.resolve("ca.crt"));
            HttpClient http = HttpClient.newBuilder().sslContext(trusting(dir.resolve("ca.crt"))).build();
            return new KubernetesApiServer(server, namespace, dir, http);
        } catch (IOException e) {
            server.destroy();
            throw new UncheckedIOException(e);
        }
    }

    /** Forgets every object, canned answer and recorded request, and restores the pod's token. */
    public void reset() {
        server.reset();
        try {
            Files.writeString(serviceAccountDir.resolve("token"), TOKEN + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What a pod's files hold: {@code token}, {@code ca.crt}, {@code namespace}. */
    public Path serviceAccountDir() {
        return serviceAccountDir;
    }

    /** The environment Kubernetes gives every container for the API server. */
    public Map<String, String> podEnvironment() {
        return Map.of("KUBERNETES_SERVICE_HOST", server.getHostName(),
                "KUBERNETES_SERVICE_PORT", Integer.toString(server.getPort()));
    }

    public URI url() {
        return URI.create(server.url("/")).resolve("/");
    }

    public String namespace() {
        return namespace;
    }

    /** A client of this server with the pod's token, CA and namespace. */
    public KubernetesApi api() {
        return KubernetesApi.of(url(), TOKEN, serviceAccountDir.resolve("ca.crt"), namespace);
    }

    /** Canned answers ({@code expect().get().withPath(...).andReturn(403, body).once()}). */
    public MockServerExpectation expect() {
        return server.expect();
    }

    /** The next request the server received (in order), waiting for it at most a few seconds. */
    public io.fabric8.mockwebserver.http.RecordedRequest takeRequest() throws InterruptedException {
        return server.takeRequest(10, java.util.concurrent.TimeUnit.SECONDS);
    }

    /** Creates StatefulSet {@code name} with {@code replicas}, as {@code kubectl apply} would. */
    public void createStatefulSet(String name, int replicas) {
        String body = """
                {"apiVersion": "apps/v1", "kind": "StatefulSet",
                 "metadata": {"name": "%s", "namespace": "%s"},
                 "spec": {"replicas": %d, "serviceName": "%s",
                          "selector": {"matchLabels": {"app": "%s"}},
                          "template": {"metadata": {"labels": {"app": "%s"}},
                                       "spec": {"containers": [{"name": "weir", "image": "weir"}]}}}}
                """.formatted(name, namespace, replicas, name, name, name);
        send(HttpRequest.newBuilder(url().resolve("/apis/apps/v1/namespaces/" + namespace + "/statefulsets"))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json"), 201);
    }

    /** Sets the StatefulSet's replicas on the object itself, as {@code helm upgrade --set replicaCount} does. */
    public void setReplicas(String name, int replicas) {
        send(HttpRequest.newBuilder(url().resolve("/apis/apps/v1/namespaces/" + namespace + "/statefulsets/" + name))
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"spec\":{\"replicas\":" + replicas + "}}"))
                .header("Content-Type", "application/merge-patch+json"), 200);
    }

    /** Deletes the StatefulSet, as {@code helm uninstall} does. */
    public void deleteStatefulSet(String name) {
        send(HttpRequest.newBuilder(url().resolve("/apis/apps/v1/namespaces/" + namespace + "/statefulsets/" + name))
                .DELETE(), 200);
    }

    private void send(HttpRequest.Builder request, int expected) {
        try {
            HttpResponse<String> r = http.send(request.header("Authorization", "Bearer " + TOKEN).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != expected) {
                throw new IllegalStateException("the mock Kubernetes API answered " + r.statusCode() + ": " + r.body());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static SSLContext trusting(Path pem) {
        try (InputStream in = Files.newInputStream(pem)) {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                store.setCertificateEntry("c" + i++, c);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot read " + pem, e);
        }
    }

    @Override
    public void close() {
        server.destroy();
        try (var files = Files.list(serviceAccountDir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(serviceAccountDir);
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }
}
