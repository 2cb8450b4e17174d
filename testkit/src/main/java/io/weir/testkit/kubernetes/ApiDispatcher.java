package io.weir.testkit.kubernetes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.Resetable;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.internal.MockDispatcher;
import io.fabric8.mockwebserver.internal.SimpleRequest;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the server answers, in the order a real API server decides (fabric8's mixed dispatcher, with
 * two steps it lacks before and between):
 * <ol>
 *   <li>authentication and RBAC, when the server checks access: an unknown or missing bearer token
 *       is answered 401; a service account's request its Roles do not allow is answered 403 with
 *       the API server's text ({@link Rbac}); the admin token passes;</li>
 *   <li>canned answers ({@link KubernetesApiServer#expect()}), which win over everything below;</li>
 *   <li>the {@code scale} subresource of StatefulSets (GET, PUT, PATCH), which the CRUD mode lacks
 *       (it would answer the StatefulSet itself): a {@code Scale} read from, and written to, the
 *       StatefulSet's {@code spec.replicas};</li>
 *   <li>the CRUD store (fabric8's {@link KubernetesCrudDispatcher}: objects kept in memory, watches,
 *       no scheduling, no controllers).</li>
 * </ol>
 */
final class ApiDispatcher extends Dispatcher implements Resetable {

    private static final Pattern SCALE =
            Pattern.compile("/apis/apps/v1/namespaces/([^/]+)/statefulsets/([^/?]+)/scale(\\?.*)?");
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private final Map<ServerRequest, Queue<ServerResponse>> expectations;
    private final MockDispatcher canned;
    private final KubernetesCrudDispatcher crud = new KubernetesCrudDispatcher();
    private final boolean accessControl;
    private final String adminToken;
    /** token -> service account ("namespace:name"), filled by the server as accounts get tokens. */
    private final Map<String, String> serviceAccountTokens;

    ApiDispatcher(
            Map<ServerRequest, Queue<ServerResponse>> expectations,
            boolean accessControl,
            String adminToken,
            Map<String, String> serviceAccountTokens) {
        this.expectations = expectations;
        this.canned = new MockDispatcher(expectations);
        this.accessControl = accessControl;
        this.adminToken = adminToken;
        this.serviceAccountTokens = serviceAccountTokens;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        if (accessControl) {
            Optional<MockResponse> refused = refusal(request);
            if (refused.isPresent()) {
                return refused.get();
            }
        }
        Queue<ServerResponse> answers =
                expectations.get(new SimpleRequest(HttpMethod.valueOf(request.getMethod()), request.getPath()));
        if (answers != null && !answers.isEmpty()) {
            return canned.dispatch(request);
        }
        Matcher scale = SCALE.matcher(request.getPath());
        if (scale.matches()) {
            return scale(request, scale.group(1), scale.group(2));
        }
        return crud.dispatch(request);
    }

    @Override
    public void reset() {
        crud.reset();
    }

    private Optional<MockResponse> refusal(RecordedRequest request) {
        String auth = Optional.ofNullable(request.getHeader("Authorization")).orElse("");
        String token = auth.startsWith("Bearer ") ? auth.substring(7).trim() : "";
        if (token.equals(adminToken)) {
            return Optional.empty();
        }
        String account = serviceAccountTokens.get(token);
        if (account == null) {
            return Optional.of(status(401, "Unauthorized", "Unauthorized"));
        }
        return new Rbac(crud)
                .refusal(account, request.getMethod(), request.getPath())
                .map(message -> status(403, "Forbidden", message));
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
                return status(
                        422,
                        "Invalid",
                        "Scale.autoscaling \"" + name + "\" is invalid: spec.replicas: Invalid value: " + replicas
                                + ": must be a number >= 0");
            }
            String patch = "{\"spec\":{\"replicas\":" + n.intValue() + "}}";
            MockResponse patched = crud.handlePatch(new RecordedRequest(
                    "HTTP/1.1",
                    HttpMethod.PATCH,
                    path,
                    Headers.builder()
                            .add("Content-Type", "application/merge-patch+json")
                            .build(),
                    new Buffer(patch.getBytes(StandardCharsets.UTF_8))));
            if (patched.code() / 100 != 2) {
                return patched;
            }
            current = crud.handleGet(path);
        } else if (!method.equals("GET")) {
            return status(405, "MethodNotAllowed", method + " is not supported on statefulsets/scale");
        }
        GenericKubernetesResource sts = JSON.unmarshal(current.getBody().readUtf8(), GenericKubernetesResource.class);
        Map<String, Object> spec = sts.get("spec");
        Map<String, Object> status = sts.get("status");
        Map<String, Object> scale = Map.of(
                "apiVersion",
                "autoscaling/v1",
                "kind",
                "Scale",
                "metadata",
                Map.of(
                        "name",
                        name,
                        "namespace",
                        namespace,
                        "resourceVersion",
                        String.valueOf(sts.getMetadata().getResourceVersion())),
                "spec",
                Map.of("replicas", spec.getOrDefault("replicas", 1)),
                "status",
                Map.of("replicas", status == null ? 0 : status.getOrDefault("replicas", 0)));
        return new MockResponse()
                .setResponseCode(200)
                .setHeader("Content-Type", "application/json")
                .setBody(JSON.asJson(scale));
    }

    /** A {@code meta/v1 Status} answer, as the API server gives for errors. */
    private static MockResponse status(int code, String reason, String message) {
        Map<String, Object> status = Map.of(
                "kind",
                "Status",
                "apiVersion",
                "v1",
                "metadata",
                Map.of(),
                "status",
                "Failure",
                "message",
                message,
                "reason",
                reason,
                "code",
                code);
        return new MockResponse()
                .setResponseCode(code)
                .setHeader("Content-Type", "application/json")
                .setBody(JSON.asJson(status));
    }
}
