package io.weir.testkit.kubernetes;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.dsl.MockServerExpectation;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The one Kubernetes API server of Weir's tests and of the deploy module's Podman runner: fabric8's
 * mock server in CRUD mode (objects created are stored and read back, watched, patched; no
 * scheduling, no controllers), with what clients of a real cluster rely on added in front of it
 * ({@link ApiDispatcher}): the StatefulSet {@code scale} subresource, canned answers that win over
 * the stored objects ({@link #expect()}), and, when {@link Options#withAccessControl() asked for},
 * bearer tokens per service account and RBAC from the stored Roles.
 *
 * <p>It listens twice: plain HTTP on the loopback address ({@link #httpUrl()}, for the test's or
 * runner's own calls) and HTTPS on every address of the host ({@link #url()}, what pods call: a
 * certificate made for this server, valid for the loopback and the {@link Options#withTlsName
 * names given}, whose PEM pods get as {@code ca.crt}). A pod's view of it is here too: the service
 * account directory ({@code token}, {@code ca.crt}, {@code namespace}) and the
 * {@code KUBERNETES_SERVICE_HOST}/{@code _PORT} environment.
 *
 * <p>Why fabric8's server underneath rather than one of our own: every user needs a faithful CRUD
 * store with resource versions, merge patches, status updates and watches, which fabric8's
 * dispatcher has and its client (the runner's "kubectl") is tested against; what it lacks is small
 * and added here. Its artifacts are optional dependencies of the testkit: a module that starts this
 * server declares {@code kubernetes-server-mock} and {@code kubernetes-client-api} (and
 * {@code kubernetes-client} to use {@link #client()}).
 *
 * <p>Thread-safe.
 */
public final class KubernetesApiServer implements AutoCloseable {

    /** The token of an open server's service account directory and helpers (any other passes too). */
    public static final String TOKEN = "weir-test-token";

    /**
     * How to start it.
     *
     * @param namespace the pods' namespace ({@link #serviceAccountDir()}, {@link #createStatefulSet})
     * @param accessControl whether tokens and RBAC are checked; when not, any bearer token passes and
     *     refusals are {@link #expect() canned answers}
     * @param tlsNames more addresses or DNS names the HTTPS certificate is valid for
     */
    public record Options(String namespace, boolean accessControl, List<String> tlsNames) {
        public Options {
            tlsNames = List.copyOf(tlsNames);
        }

        /** An open server for pods of {@code namespace}. */
        public static Options namespace(String namespace) {
            return new Options(namespace, false, List.of());
        }

        /** Only the admin token and the tokens of service accounts ({@link #tokenFor}) pass, as their Roles allow. */
        public Options withAccessControl() {
            return new Options(namespace, true, tlsNames);
        }

        /** The HTTPS certificate is valid for {@code addressOrName} too (pods reaching the host by it). */
        public Options withTlsName(String addressOrName) {
            List<String> names = new java.util.ArrayList<>(tlsNames);
            names.add(addressOrName);
            return new Options(namespace, accessControl, names);
        }
    }

    private final Options options;
    private final String adminToken;
    /** token -> service account ("namespace:name"). */
    private final Map<String, String> serviceAccountTokens = new ConcurrentHashMap<>();

    private final KubernetesMockServer server;
    private final Path dir;
    private final Path serviceAccountDir;
    private final TlsFront tls;
    private final HttpClient http = HttpClient.newHttpClient();
    private KubernetesClient client;

    private KubernetesApiServer(Options options) {
        this.options = options;
        this.adminToken = options.accessControl() ? randomToken() : TOKEN;
        Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
        ApiDispatcher dispatcher =
                new ApiDispatcher(expectations, options.accessControl(), adminToken, serviceAccountTokens);
        server = new KubernetesMockServer(new Context(), new MockWebServer(), expectations, dispatcher, false);
        try {
            server.init(InetAddress.getLoopbackAddress(), 0);
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot start the fabric8 mock API server", e);
        }
        try {
            dir = Files.createTempDirectory("weir-kubernetes-api-");
            serviceAccountDir = Files.createDirectory(dir.resolve("serviceaccount"));
            tls = TlsFront.start(server.getPort(), options.tlsNames());
            Files.writeString(serviceAccountDir.resolve("ca.crt"), tls.certificatePem());
            Files.writeString(serviceAccountDir.resolve("namespace"), options.namespace());
            writeToken();
        } catch (IOException | RuntimeException e) {
            server.destroy();
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    /** Starts an open server (no access checks) whose pods live in {@code namespace}. */
    public static KubernetesApiServer start(String namespace) {
        return start(Options.namespace(namespace));
    }

    public static KubernetesApiServer start(Options options) {
        return new KubernetesApiServer(options);
    }

    /** Forgets every object, canned answer and recorded request, and restores the pod's token. */
    public void reset() {
        server.reset();
        writeToken();
    }

    /** HTTPS on every address of the host, with the certificate of {@link #caCertificatePem()}: what pods call. */
    public URI url() {
        return URI.create("https://127.0.0.1:" + tls.port() + "/");
    }

    /** Plain HTTP on the loopback address. */
    public URI httpUrl() {
        return URI.create("http://127.0.0.1:" + server.getPort() + "/");
    }

    /** The HTTPS port ({@code KUBERNETES_SERVICE_PORT}). */
    public int httpsPort() {
        return tls.port();
    }

    /** The PEM certificate pods trust ({@code ca.crt}): the server's self-signed certificate. */
    public String caCertificatePem() {
        return tls.certificatePem();
    }

    public String namespace() {
        return options.namespace();
    }

    /** A cluster-admin token: {@link #TOKEN} on an open server, a random one when access is checked. */
    public String adminToken() {
        return adminToken;
    }

    /** What a pod's files hold: {@code token} (the admin token), {@code ca.crt}, {@code namespace}. */
    public Path serviceAccountDir() {
        return serviceAccountDir;
    }

    /** The environment Kubernetes gives every container for the API server (on the loopback here). */
    public Map<String, String> podEnvironment() {
        return Map.of("KUBERNETES_SERVICE_HOST", "127.0.0.1", "KUBERNETES_SERVICE_PORT", Integer.toString(tls.port()));
    }

    /** The token of a service account (made once per account), as the kubelet would project it. */
    public String tokenFor(String namespace, String serviceAccount) {
        String account = namespace + ":" + serviceAccount;
        return serviceAccountTokens.entrySet().stream()
                .filter(e -> e.getValue().equals(account))
                .map(Map.Entry::getKey)
                .findFirst()
                .orElseGet(() -> {
                    String token = randomToken();
                    serviceAccountTokens.put(token, account);
                    return token;
                });
    }

    /**
     * A fabric8 client with the admin token over plain HTTP, as {@code kubectl} and {@code helm}
     * would be (made on first use; needs {@code kubernetes-client} on the class path).
     */
    public synchronized KubernetesClient client() {
        if (client == null) {
            Config config = new ConfigBuilder()
                    .withMasterUrl(httpUrl().toString())
                    .withOauthToken(adminToken)
                    .withNamespace(null)
                    .withRequestTimeout(10_000)
                    .build();
            client = new KubernetesClientBuilder().withConfig(config).build();
        }
        return client;
    }

    /** Canned answers ({@code expect().get().withPath(...).andReturn(403, body).once()}). */
    public MockServerExpectation expect() {
        return server.expect();
    }

    /** The next request the server received (in order), waiting for it at most a few seconds. */
    public RecordedRequest takeRequest() throws InterruptedException {
        return server.takeRequest(10, TimeUnit.SECONDS);
    }

    /** Creates StatefulSet {@code name} with {@code replicas} in the pods' namespace, as {@code kubectl apply} would. */
    public void createStatefulSet(String name, int replicas) {
        String body = """
                {"apiVersion": "apps/v1", "kind": "StatefulSet",
                 "metadata": {"name": "%s", "namespace": "%s"},
                 "spec": {"replicas": %d, "serviceName": "%s",
                          "selector": {"matchLabels": {"app": "%s"}},
                          "template": {"metadata": {"labels": {"app": "%s"}},
                                       "spec": {"containers": [{"name": "weir", "image": "weir"}]}}}}
                """.formatted(name, namespace(), replicas, name, name, name);
        send(HttpRequest.newBuilder(statefulSets(""))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json"));
    }

    /** Sets the StatefulSet's replicas on the object itself, as {@code helm upgrade --set replicaCount} does. */
    public void setReplicas(String name, int replicas) {
        send(HttpRequest.newBuilder(statefulSets("/" + name))
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"spec\":{\"replicas\":" + replicas + "}}"))
                .header("Content-Type", "application/merge-patch+json"));
    }

    /** Deletes the StatefulSet, as {@code helm uninstall} does. */
    public void deleteStatefulSet(String name) {
        send(HttpRequest.newBuilder(statefulSets("/" + name)).DELETE());
    }

    private URI statefulSets(String suffix) {
        return httpUrl().resolve("/apis/apps/v1/namespaces/" + namespace() + "/statefulsets" + suffix);
    }

    private void send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(
                    request.header("Authorization", "Bearer " + adminToken).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new IllegalStateException(
                        "the mock Kubernetes API answered " + response.statusCode() + ": " + response.body());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void writeToken() {
        try {
            Files.writeString(serviceAccountDir.resolve("token"), adminToken + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String randomToken() {
        byte[] b = new byte[24];
        new SecureRandom().nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    @Override
    public void close() {
        synchronized (this) {
            if (client != null) {
                client.close();
            }
        }
        tls.close();
        server.destroy();
        try (var files = Files.walk(dir)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }
}
