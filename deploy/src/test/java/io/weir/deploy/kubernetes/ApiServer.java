package io.weir.deploy.kubernetes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cluster's API server for the Podman runner: fabric8's Kubernetes mock server in CRUD mode
 * (objects kept in memory, no scheduling, no controllers), with what a pod's client relies on added
 * in front of it:
 * <ul>
 *   <li>HTTPS on every host address (pods reach it at the bridge's gateway, {@link PodNetwork#GATEWAY})
 *       with a certificate valid for that address and {@code host.containers.internal}
 *       ({@link TlsFront});</li>
 *   <li>bearer tokens: each service account gets one ({@link #tokenFor}); an unknown or missing
 *       token is answered 401, as a real API server does;</li>
 *   <li>RBAC for service accounts: Roles and RoleBindings stored in the server decide, and a refusal
 *       is the API server's 403 text naming the verb, resource, group and namespace ({@link Rbac});</li>
 *   <li>the {@code scale} subresource of StatefulSets (GET, PUT, PATCH), which the CRUD mode lacks:
 *       it reads and writes the StatefulSet's {@code spec.replicas}.</li>
 * </ul>
 * The runner itself (controller, "kubectl", "helm") uses {@link #adminClient()}, a cluster-admin
 * token over plain HTTP on the loopback address.
 */
final class ApiServer implements AutoCloseable {

    private static final Pattern SCALE = Pattern.compile(
            "/apis/apps/v1/namespaces/([^/]+)/statefulsets/([^/?]+)/scale(\\?.*)?");
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private final String adminToken = randomToken();
    /** token -> service account ("namespace:name"). */
    private final Map<String, String> serviceAccountTokens = new ConcurrentHashMap<>();
    private final KubernetesCrudDispatcher crud = new KubernetesCrudDispatcher();
    private final KubernetesMockServer server;
    private final TlsFront tls;
    private final KubernetesClient admin;

    private ApiServer(Path workDir) {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new Front(), false);
        try {
            server.init(InetAddress.getLoopbackAddress(), 0);
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot start the fabric8 mock API server", e);
        }
        tls = TlsFront.start(workDir, server.getPort());
        Config config = new ConfigBuilder().withMasterUrl("http://127.0.0.1:" + server.getPort())
                .withOauthToken(adminToken).withNamespace(null).withRequestTimeout(10_000).build();
        admin = new KubernetesClientBuilder().withConfig(config).build();
    }

    static ApiServer start(Path workDir) {
        return new ApiServer(workDir);
    }

    /** The runner's own client: cluster-admin, as {@code kubectl} and {@code helm} would be. */
    KubernetesClient adminClient() {
        return admin;
    }

    /** The port pods use ({@code KUBERNETES_SERVICE_PORT}): HTTPS on every address of the host. */
    int httpsPort() {
        return tls.port();
    }

    /** The PEM certificate pods trust ({@code ca.crt}): the server's self-signed certificate. */
    String caCertificatePem() {
        return tls.certificatePem();
    }

    /** The token of a service account (made once per account), as the kubelet would project it. */
    String tokenFor(String namespace, String serviceAccount) {
        String account = namespace + ":" + serviceAccount;
        return serviceAccountTokens.entrySet().stream().filter(e -> e.getValue().equals(account))
                .map(Map.Entry::getKey).findFirst().orElseGet(() -> {
                    String token = randomToken();
                    serviceAccountTokens.put(token, account);
                    return token;
                });
    }

    @Override
    public void close() {
        admin.close();
        tls.close();
        server.destroy();
    }

    private static String randomToken() {
        byte[] b = new byte[24];
        new SecureRandom().nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /** Authentication, authorization and the scale subresource before the CRUD store. */
    private final class Front extends Dispatcher {
        @Override
        public MockResponse dispatch(RecordedRequest request) {
            String auth = Optional.ofNullable(request.getHeader("Authorization")).orElse("");
            String token = auth.startsWith("Bearer ") ? auth.substring(7).trim() : "";
            if (!token.equals(adminToken)) {
                String account = serviceAccountTokens.get(token);
                if (account == null) {
                    return Status.of(401, "Unauthorized", "Unauthorized");
                }
                Optional<String> refusal = new Rbac(crud).refusal(account, request.getMethod(), request.getPath());
                if (refusal.isPresent()) {
                    return Status.of(403, "Forbidden", refusal.get());
                }
            }
            Matcher scale = SCALE.matcher(request.getPath());
            if (scale.matches()) {
                return scale(request, scale.group(1), scale.group(2));
            }
            return crud.dispatch(request);
        }

        private MockResponse scale(RecordedRequest request, String namespace, String name) {
            String path = "/apis/apps/v1/namespaces/" + namespace + "/statefulsets/" + name;
            MockResponse current = crud.handleGet(path);
            if (current.code() != 200) {
                return current;
            }
            String method = request.getMethod();
            if (method.equals("PUT") || method.equals("PATCH")) {
                Map<?, ?> body = JSON.unmarshal(request.getUtf8Body(), Map.class);
                Object replicas = body.get("spec") instanceof Map<?, ?> spec ? spec.get("replicas") : null;
                if (!(replicas instanceof Number n) || n.intValue() < 0) {
                    return Status.of(422, "Invalid", "Scale.autoscaling \"" + name
                            + "\" is invalid: spec.replicas: Invalid value: " + replicas + ": must be a number >= 0");
                }
                String patch = "{\"spec\":{\"replicas\":" + n.intValue() + "}}";
                MockResponse patched = crud.handlePatch(new RecordedRequest("HTTP/1.1", HttpMethod.PATCH, path,
                        Headers.builder().add("Content-Type", "application/merge-patch+json").build(),
                        new Buffer(patch.getBytes(StandardCharsets.UTF_8))));
                if (patched.code() / 100 != 2) {
                    return patched;
                }
                current = crud.handleGet(path);
            } else if (!method.equals("GET")) {
                return Status.of(405, "MethodNotAllowed", method + " is not supported on statefulsets/scale");
            }
            GenericKubernetesResource sts = JSON.unmarshal(current.getBody().readUtf8(), GenericKubernetesResource.class);
            Map<String, Object> spec = sts.get("spec");
            Map<String, Object> status = sts.get("status");
            Map<String, Object> scale = Map.of(
                    "apiVersion", "autoscaling/v1", "kind", "Scale",
                    "metadata", Map.of("name", name, "namespace", namespace,
                            "resourceVersion", String.valueOf(sts.getMetadata().getResourceVersion())),
                    "spec", Map.of("replicas", spec.getOrDefault("replicas", 1)),
                    "status", Map.of("replicas", status == null ? 0 : status.getOrDefault("replicas", 0)));
            return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json")
                    .setBody(JSON.asJson(scale));
        }
    }

    /** A {@code meta/v1 Status} answer, as the API server gives for errors. */
    static final class Status {
        private Status() {
        }

        static MockResponse of(int code, String reason, String message) {
            Map<String, Object> status = Map.of("kind", "Status", "apiVersion", "v1", "metadata", Map.of(),
                    "status", "Failure", "message", message, "reason", reason, "code", code);
            return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json")
                    .setBody(JSON.asJson(status));
        }
    }
}
