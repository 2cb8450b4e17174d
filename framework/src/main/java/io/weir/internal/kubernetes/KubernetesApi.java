package io.weir.internal.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import io.weir.common.internal.Deadline;
import io.weir.internal.json.Json;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;

/**
 * The Kubernetes API calls Weir makes: read and set a StatefulSet's desired replicas through its
 * {@code scale} subresource, in the pod's own namespace, with the pod's service account. What
 * {@code kubectl get statefulset/x --subresource=scale} and {@code kubectl scale} do, in the JDK's
 * HTTP client, so Weir needs no Kubernetes client library. For the chart's reset and clean-up
 * hooks ({@code weir replay}, {@code weir cleanup}) also: read, write and delete a ConfigMap, list
 * and delete PersistentVolumeClaims by label, and tell whether a StatefulSet exists.
 *
 * <p>{@link #inCluster()} follows Kubernetes' in-cluster convention exactly as a pod sees it (see
 * {@link InCluster}): the API server from {@code KUBERNETES_SERVICE_HOST} and {@code _PORT}, the
 * service account's {@code token}, {@code ca.crt} and {@code namespace} files in
 * {@value #SERVICE_ACCOUNT_DIR}, or in the directory the JVM system property
 * {@value #SERVICE_ACCOUNT_DIR_PROPERTY} names.
 *
 * <p>Every call takes at most {@link #timeout()} (connection included) and either returns or
 * throws {@link KubernetesApiException}, whose message names the call, the HTTP status and the
 * API's reason; a 403 names the RBAC rule the service account lacks. Thread-safe and immutable.
 */
public final class KubernetesApi {

    /** Where Kubernetes mounts a pod's service account token, cluster CA and namespace. */
    public static final String SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";
    /** A JVM system property naming another directory than {@value #SERVICE_ACCOUNT_DIR}. */
    public static final String SERVICE_ACCOUNT_DIR_PROPERTY = "weir.kubernetes.serviceaccount.dir";
    /** How long a call may take unless {@link #withTimeout} says otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    /** A resource name, as Kubernetes allows it (a DNS-1123 subdomain): also safe in a URL path as is. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");

    private final URI server;
    private final Supplier<String> token;
    private final Path caCertificate;
    private final String namespace;
    private final Duration timeout;
    private final HttpClient http;

    /** {@code token} is asked for on every call; {@code caCertificate} null trusts the JDK's CAs. */
    KubernetesApi(URI server, Supplier<String> token, Path caCertificate, String namespace, Duration timeout) {
        this.server = Objects.requireNonNull(server, "server");
        if (!"https".equals(server.getScheme()) && !"http".equals(server.getScheme())) {
            throw new IllegalArgumentException("the Kubernetes API server must be an http(s) URL: " + server);
        }
        this.token = Objects.requireNonNull(token, "token");
        this.caCertificate = caCertificate;
        this.namespace = checkName("namespace", namespace);
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("a time-out must be positive: " + timeout);
        }
        HttpClient.Builder builder = HttpClient.newBuilder()
                // The API server speaks HTTP/2 too, but one small request at a time gains nothing from it.
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER);
        if (caCertificate != null && "https".equals(server.getScheme())) {
            builder.sslContext(InCluster.trusting(caCertificate));
        }
        this.http = builder.build();
    }

    /**
     * The API of the cluster this process runs in, from the in-cluster environment; empty when it
     * does not run in a pod ({@code KUBERNETES_SERVICE_HOST} unset) or the pod has no service
     * account token. {@link #requireInCluster()} says which.
     */
    public static Optional<KubernetesApi> inCluster() {
        try {
            return Optional.of(requireInCluster());
        } catch (KubernetesApiException notInCluster) {
            return Optional.empty();
        }
    }

    /**
     * As {@link #inCluster()}, but throws a {@link KubernetesApiException} that says what is
     * missing (and what usually causes it) when this process cannot call the API.
     */
    public static KubernetesApi requireInCluster() {
        return InCluster.api(System.getenv(), InCluster.serviceAccountDir());
    }

    /**
     * For tests and the command line: an explicit server, bearer token, CA certificate file (PEM,
     * one or more certificates; null trusts the JDK's CAs) and namespace.
     */
    public static KubernetesApi of(URI server, String token, Path caCertificate, String namespace) {
        Objects.requireNonNull(token, "token");
        return new KubernetesApi(server, () -> token, caCertificate, namespace, DEFAULT_TIMEOUT);
    }

    /** The same API with calls limited to {@code timeout} each (connection included). */
    public KubernetesApi withTimeout(Duration timeout) {
        return new KubernetesApi(server, token, caCertificate, namespace, timeout);
    }

    /** The API server's URL. */
    public URI server() {
        return server;
    }

    /** The namespace every call addresses: the pod's own, in a pod. */
    public String namespace() {
        return namespace;
    }

    /** The longest a call may take. */
    public Duration timeout() {
        return timeout;
    }

    /**
     * The desired replicas ({@code spec.replicas}) of StatefulSet {@code statefulSet}, read from its
     * {@code scale} subresource: the count {@code kubectl scale}, {@code helm upgrade} and a
     * HorizontalPodAutoscaler or KEDA set. Needs {@code get} on {@code statefulsets/scale}.
     *
     * @throws KubernetesApiException if the call fails
     */
    public int statefulSetReplicas(String statefulSet) {
        Call call = new Call("GET", statefulSet, "statefulsets/scale", "get");
        HttpRequest request = call.request(HttpRequest.BodyPublishers.noBody()).build();
        return replicas(call, send(call, request));
    }

    /**
     * Sets the desired replicas of StatefulSet {@code statefulSet} through its {@code scale}
     * subresource (a JSON merge patch of {@code spec.replicas}, as {@code kubectl scale} sends), and
     * returns once the API has accepted it; the StatefulSet controller then adds or removes pods.
     * Needs {@code patch} on {@code statefulsets/scale}.
     *
     * @throws KubernetesApiException if the call fails or the API answers with other replicas
     */
    public void scaleStatefulSet(String statefulSet, int replicas) {
        if (replicas < 0) {
            throw new IllegalArgumentException("replicas cannot be negative: " + replicas);
        }
        Call call = new Call("PATCH", statefulSet, "statefulsets/scale", "patch");
        byte[] patch = Json.bytes(Map.of("spec", Map.of("replicas", replicas)));
        HttpRequest request = call.request(HttpRequest.BodyPublishers.ofByteArray(patch))
                .header("Content-Type", "application/merge-patch+json")
                .build();
        int now = replicas(call, send(call, request));
        if (now != replicas) {
            throw new KubernetesApiException(
                    call + ": the API answered spec.replicas " + now + " instead of " + replicas);
        }
    }

    /**
     * The value of annotation {@code key} on StatefulSet {@code statefulSet}; empty when it has none.
     * Needs {@code get} on {@code statefulsets}.
     *
     * @throws KubernetesApiException if the call fails
     */
    public Optional<String> statefulSetAnnotation(String statefulSet, String key) {
        Call call = new Call("GET", statefulSet, "statefulsets", "get");
        HttpRequest request = call.request(HttpRequest.BodyPublishers.noBody()).build();
        JsonNode value = json(call, send(call, request))
                .path("metadata")
                .path("annotations")
                .path(key);
        return value.isTextual() ? Optional.of(value.asText()) : Optional.empty();
    }

    /**
     * Sets annotation {@code key} of StatefulSet {@code statefulSet} to {@code value}, or removes it
     * when {@code value} is null (a JSON merge patch of {@code metadata.annotations}: the pod template
     * is untouched, so no pod restarts). Needs {@code patch} on {@code statefulsets}.
     *
     * @throws KubernetesApiException if the call fails
     */
    public void annotateStatefulSet(String statefulSet, String key, String value) {
        Objects.requireNonNull(key, "key");
        Call call = new Call("PATCH", statefulSet, "statefulsets", "patch");
        Map<String, Object> annotations = new java.util.HashMap<>();
        annotations.put(key, value); // null removes it
        byte[] patch = Json.bytes(Map.of("metadata", Map.of("annotations", annotations)));
        HttpRequest request = call.request(HttpRequest.BodyPublishers.ofByteArray(patch))
                .header("Content-Type", "application/merge-patch+json")
                .build();
        send(call, request);
    }

    /**
     * The data of ConfigMap {@code name}; empty when there is none. Needs {@code get} on
     * {@code configmaps}.
     *
     * @throws KubernetesApiException if the call fails otherwise
     */
    public Optional<Map<String, String>> configMapData(String name) {
        Call call = configMapCall("GET", name, "get");
        HttpResponse<byte[]> response = sendAllowingNotFound(call);
        if (response == null) {
            return Optional.empty();
        }
        JsonNode data = json(call, response).path("data");
        Map<String, String> values = new java.util.TreeMap<>();
        data.fields().forEachRemaining(e -> values.put(e.getKey(), e.getValue().asText()));
        return Optional.of(values);
    }

    /**
     * Creates ConfigMap {@code name} with {@code labels} and {@code data}, or, when it exists,
     * merges them into it (keys not given are kept). Needs {@code get}, {@code create} and
     * {@code patch} on {@code configmaps}.
     *
     * @throws KubernetesApiException if a call fails
     */
    public void writeConfigMap(String name, Map<String, String> labels, Map<String, String> data) {
        Map<String, Object> metadata = Map.of("name", checkName("ConfigMap", name), "labels", labels);
        if (configMapData(name).isEmpty()) {
            Call create = new Call(
                    "POST",
                    "",
                    "configmaps",
                    "ConfigMap",
                    name,
                    "create",
                    "/api/v1/namespaces/" + namespace + "/configmaps");
            byte[] body =
                    Json.bytes(Map.of("apiVersion", "v1", "kind", "ConfigMap", "metadata", metadata, "data", data));
            send(
                    create,
                    create.request(HttpRequest.BodyPublishers.ofByteArray(body))
                            .header("Content-Type", "application/json")
                            .build());
            return;
        }
        Call patch = configMapCall("PATCH", name, "patch");
        byte[] body = Json.bytes(Map.of("metadata", Map.of("labels", labels), "data", data));
        send(
                patch,
                patch.request(HttpRequest.BodyPublishers.ofByteArray(body))
                        .header("Content-Type", "application/merge-patch+json")
                        .build());
    }

    /**
     * Deletes ConfigMap {@code name}; false when there was none. Needs {@code delete} on
     * {@code configmaps}.
     *
     * @throws KubernetesApiException if the call fails otherwise
     */
    public boolean deleteConfigMap(String name) {
        Call call = configMapCall("DELETE", name, "delete");
        return sendAllowingNotFound(call) != null;
    }

    /**
     * The names of the PersistentVolumeClaims with every label of {@code labels}, sorted. Needs
     * {@code list} on {@code persistentvolumeclaims}.
     *
     * @throws KubernetesApiException if the call fails
     */
    public java.util.List<String> persistentVolumeClaims(Map<String, String> labels) {
        String selector = labels.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(java.util.stream.Collectors.joining(","));
        Call call = new Call(
                "GET",
                "",
                "persistentvolumeclaims",
                "PersistentVolumeClaim",
                null,
                "list",
                "/api/v1/namespaces/" + namespace + "/persistentvolumeclaims?labelSelector="
                        + java.net.URLEncoder.encode(selector, StandardCharsets.UTF_8));
        JsonNode items = json(
                        call,
                        send(
                                call,
                                call.request(HttpRequest.BodyPublishers.noBody())
                                        .build()))
                .path("items");
        java.util.List<String> names = new java.util.ArrayList<>();
        items.forEach(item -> names.add(item.path("metadata").path("name").asText()));
        names.sort(null);
        return names;
    }

    /**
     * Deletes PersistentVolumeClaim {@code name} (Kubernetes removes it once no pod uses it); false
     * when there was none. Needs {@code delete} on {@code persistentvolumeclaims}.
     *
     * @throws KubernetesApiException if the call fails otherwise
     */
    public boolean deletePersistentVolumeClaim(String name) {
        Call call = new Call(
                "DELETE",
                "",
                "persistentvolumeclaims",
                "PersistentVolumeClaim",
                checkName("PersistentVolumeClaim", name),
                "delete",
                "/api/v1/namespaces/" + namespace + "/persistentvolumeclaims/" + name);
        return sendAllowingNotFound(call) != null;
    }

    /**
     * Whether StatefulSet {@code name} exists. Needs {@code get} on {@code statefulsets}.
     *
     * @throws KubernetesApiException if the call fails otherwise
     */
    public boolean statefulSetExists(String name) {
        Call call = new Call(
                "GET",
                "apps",
                "statefulsets",
                "StatefulSet",
                checkName("StatefulSet", name),
                "get",
                "/apis/apps/v1/namespaces/" + namespace + "/statefulsets/" + name);
        return sendAllowingNotFound(call) != null;
    }

    private Call configMapCall(String method, String name, String verb) {
        return new Call(
                method,
                "",
                "configmaps",
                "ConfigMap",
                checkName("ConfigMap", name),
                verb,
                "/api/v1/namespaces/" + namespace + "/configmaps/" + name);
    }

    /** The answer, or null for a 404 (the object does not exist). */
    private HttpResponse<byte[]> sendAllowingNotFound(Call call) {
        try {
            return send(call, call.request(HttpRequest.BodyPublishers.noBody()).build());
        } catch (KubernetesApiException e) {
            if (e.status().orElse(0) == 404) {
                return null;
            }
            throw e;
        }
    }

    private static JsonNode json(Call call, HttpResponse<byte[]> response) {
        try {
            JsonNode body = Json.reader().readTree(response.body());
            if (body == null) {
                throw new KubernetesApiException(call + ": the answer is empty", response.statusCode(), null);
            }
            return body;
        } catch (IOException e) {
            throw new KubernetesApiException(
                    call + ": the answer is not JSON: " + e.getMessage(), response.statusCode(), e);
        }
    }

    @Override
    public String toString() {
        return "KubernetesApi[" + server + ", namespace " + namespace + "]";
    }

    private static String checkName(String what, String name) {
        Objects.requireNonNull(name, what);
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("'" + name + "' is not a Kubernetes " + what + " name (lower-case"
                    + " letters, digits, '-' and '.', starting and ending with a letter or digit)");
        }
        return name;
    }

    // ---- calls ---------------------------------------------------------------------------------

    /** One call: what it does, for messages, and the RBAC rule it needs, for a 403. */
    private final class Call {
        final String method;
        /** {@code apps} or {@code ""} (the core group). */
        final String apiGroup;
        /** The resource as a Role names it ({@code statefulsets/scale}, {@code configmaps}...). */
        final String resource;
        /** The kind, for a 404. */
        final String kind;
        /** Null for a call on a collection. */
        final String name;

        final String verb;
        /** The URL path after the server, query included. */
        final String path;

        /** A call on a StatefulSet ({@code statefulsets}) or its {@code scale} subresource ({@code statefulsets/scale}). */
        Call(String method, String name, String resource, String verb) {
            this(
                    method,
                    "apps",
                    resource,
                    "StatefulSet",
                    checkName("StatefulSet", name),
                    verb,
                    "/apis/apps/v1/namespaces/" + namespace + "/statefulsets/" + name
                            + (resource.endsWith("/scale") ? "/scale" : ""));
        }

        Call(String method, String apiGroup, String resource, String kind, String name, String verb, String path) {
            this.method = method;
            this.apiGroup = apiGroup;
            this.resource = resource;
            this.kind = kind;
            this.name = name;
            this.verb = verb;
            this.path = path;
        }

        HttpRequest.Builder request(HttpRequest.BodyPublisher body) {
            return HttpRequest.newBuilder(URI.create(server.toString().replaceAll("/+$", "") + path))
                    .method(method, body)
                    .timeout(timeout)
                    .header("Accept", "application/json")
                    .header("Authorization", "Bearer " + token.get());
        }

        /** The rule, as a Role lists it. */
        String rule() {
            return "{apiGroups: [" + (apiGroup.isEmpty() ? "\"\"" : apiGroup) + "], resources: [" + resource + "]"
                    + (name == null || verb.equals("create") ? "" : ", resourceNames: [" + name + "]") + ", verbs: ["
                    + verb + "]}";
        }

        @Override
        public String toString() {
            String what = "statefulsets/scale".equals(resource)
                    ? "statefulsets/" + name + "/scale"
                    : resource + (name == null ? "" : "/" + name);
            return "Kubernetes API " + method + " " + what + " in namespace " + namespace;
        }
    }

    private HttpResponse<byte[]> send(Call call, HttpRequest request) {
        Deadline deadline = Deadline.after(timeout);
        HttpResponse<byte[]> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpConnectTimeoutException e) {
            throw new KubernetesApiException(
                    call + ": no connection to " + server + " within " + Deadline.format(timeout), 0, e);
        } catch (HttpTimeoutException e) {
            throw new KubernetesApiException(
                    call + ": no answer from " + server + " within " + Deadline.format(timeout), 0, e);
        } catch (SSLException e) {
            throw new KubernetesApiException(
                    call + ": the TLS handshake with " + server + " failed (is "
                            + (caCertificate == null
                                    ? "the server's certificate signed by a CA the JDK trusts"
                                    : caCertificate + " the CA of the cluster")
                            + "?): " + e.getMessage(),
                    0,
                    e);
        } catch (ConnectException e) {
            throw new KubernetesApiException(call + ": cannot connect to " + server + ": " + e, 0, e);
        } catch (IOException e) {
            throw new KubernetesApiException(call + ": " + e, 0, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KubernetesApiException(
                    call + ": interrupted after " + Deadline.format(timeout.minus(deadline.remaining())), 0, e);
        }
        int status = response.statusCode();
        if (status / 100 != 2) {
            throw failure(call, response);
        }
        return response;
    }

    /** The API's answer to a failed call, with what to change for the usual causes. */
    private KubernetesApiException failure(Call call, HttpResponse<byte[]> response) {
        int status = response.statusCode();
        String reason = "";
        String message = "";
        try {
            // A failed call answers a Status object: {"kind":"Status","reason":"Forbidden","message":"...","code":403}.
            JsonNode body = Json.reader().readTree(response.body());
            reason = body.path("reason").asText("");
            message = body.path("message").asText("");
        } catch (IOException | RuntimeException notJson) {
            message = abbreviated(response.body());
        }
        StringBuilder m = new StringBuilder(call.toString()).append(": HTTP ").append(status);
        if (!reason.isEmpty()) {
            m.append(' ').append(reason);
        }
        if (!message.isEmpty()) {
            m.append(" (").append(message).append(')');
        }
        switch (status) {
            case 401 ->
                m.append("; the API refused the service account token (missing, expired or not a token of"
                        + " this cluster)");
            case 403 ->
                m.append("; the pod's service account needs a Role with the rule ")
                        .append(call.rule())
                        .append(" and a RoleBinding to it, in namespace ")
                        .append(namespace);
            case 404 ->
                m.append("; there is no ")
                        .append(call.kind)
                        .append(" '")
                        .append(call.name)
                        .append("' in namespace ")
                        .append(namespace);
            default -> {}
        }
        return new KubernetesApiException(m.toString(), status, null);
    }

    /**
     * {@code spec.replicas} of the answer. The real API answers an {@code autoscaling/v1 Scale},
     * whose {@code spec.replicas} is left out when it is 0 (omitempty); some test servers answer the
     * StatefulSet itself, which has the same field.
     */
    private static int replicas(Call call, HttpResponse<byte[]> response) {
        JsonNode body = json(call, response);
        if (body == null || !body.path("spec").isObject()) {
            throw new KubernetesApiException(
                    call + ": the answer has no spec: " + abbreviated(response.body()), response.statusCode(), null);
        }
        JsonNode replicas = body.path("spec").path("replicas");
        if (replicas.isMissingNode() || replicas.isNull()) {
            return 0;
        }
        if (!replicas.canConvertToInt() || !replicas.isIntegralNumber() || replicas.intValue() < 0) {
            throw new KubernetesApiException(
                    call + ": spec.replicas is not a count: " + replicas, response.statusCode(), null);
        }
        return replicas.intValue();
    }

    /** A body for a message: its first 300 characters. */
    private static String abbreviated(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8).strip();
        return text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }
}
