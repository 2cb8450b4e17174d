package io.weir.serde.registry.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weir.common.internal.Poll;
import io.weir.errors.SerdeException;
import io.weir.errors.ServiceUnavailableException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The schema registry's REST API as Confluent's Schema Registry defines it (Apicurio Registry and
 * Karapace serve it too): register a schema under a subject, look one up, fetch one by id. Network
 * failures and server errors are retried with a growing pause, over each configured address in
 * turn; when every attempt failed the call throws {@link ServiceUnavailableException} naming the
 * addresses. Answers that are about the schema (unknown id, incompatible, invalid) are
 * {@link SerdeException}s or {@link RegistryRefusal}s and are not retried. Thread-safe.
 */
public final class RegistryClient {

    private static final Logger log = LoggerFactory.getLogger(RegistryClient.class);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(2);
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    /** A schema as the registry holds it: its type (AVRO, PROTOBUF or JSON) and its text. */
    public record SchemaText(String type, String text) {}

    /** The registry refused a request about a schema (incompatible, invalid, not registered). */
    public static final class RegistryRefusal extends SerdeException {
        private static final long serialVersionUID = 1L;
        private final int status;
        private final int errorCode;

        RegistryRefusal(String message, int status, int errorCode) {
            super(message);
            this.status = status;
            this.errorCode = errorCode;
        }

        public int status() {
            return status;
        }

        public int errorCode() {
            return errorCode;
        }
    }

    private final List<URI> urls;
    private final HttpClient http;
    private final Duration timeout;
    private final Duration retryTimeout;
    private final Duration backoff;
    private final Map<String, String> headers;
    private final AtomicLong requests = new AtomicLong();

    public RegistryClient(
            List<URI> urls, Duration timeout, Duration retryTimeout, Duration backoff, Map<String, String> headers) {
        this.urls = List.copyOf(urls);
        this.timeout = timeout;
        this.retryTimeout = retryTimeout;
        this.backoff = backoff;
        this.headers = Map.copyOf(headers);
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /** Registers {@code schema} under {@code subject} (or finds it registered) and returns its id. */
    public int register(String subject, SchemaText schema) {
        JsonNode answer = call(
                "POST",
                "/subjects/" + encode(subject) + "/versions",
                body(schema),
                "register a schema under " + subject);
        return answer.path("id").asInt();
    }

    /** The id of {@code schema} under {@code subject}, or empty when it is not registered there. */
    public Optional<Integer> lookup(String subject, SchemaText schema) {
        try {
            JsonNode answer =
                    call("POST", "/subjects/" + encode(subject), body(schema), "look up a schema under " + subject);
            return Optional.of(answer.path("id").asInt());
        } catch (RegistryRefusal r) {
            if (r.status() == 404) {
                return Optional.empty();
            }
            throw r;
        }
    }

    /** The schema of {@code id}; an id the registry does not know is a {@link RegistryRefusal} with status 404. */
    public SchemaText byId(int id) {
        JsonNode answer = call("GET", "/schemas/ids/" + id, null, "fetch schema id " + id);
        String type = answer.path("schemaType").asText("AVRO");
        return new SchemaText(
                type.isEmpty() ? "AVRO" : type, answer.path("schema").asText());
    }

    /** How many requests reached a registry (each retry counts), for tests and metrics. */
    public long requests() {
        return requests.get();
    }

    /** The addresses, for messages. */
    public String addresses() {
        return urls.toString();
    }

    private static String body(SchemaText schema) {
        ObjectNode b = Json.MAPPER.createObjectNode();
        b.put("schema", schema.text());
        if (!"AVRO".equals(schema.type())) {
            b.put("schemaType", schema.type());
        }
        return b.toString();
    }

    private static String encode(String subject) {
        return URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private JsonNode call(String method, String path, String body, String what) {
        String[] lastProblem = {""};
        Exception[] last = {null};
        int[] attempt = {0};
        Optional<JsonNode> answer;
        try {
            answer = Poll.untilPresent(
                    () -> attempt(method, path, body, what, attempt[0]++, lastProblem, last),
                    retryTimeout,
                    backoff,
                    MAX_BACKOFF);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServiceUnavailableException(
                    "interrupted while asking the schema registry " + urls + " to " + what, e);
        }
        return answer.orElseThrow(() -> new ServiceUnavailableException(
                "schema registry " + urls + " could not " + what
                        + " in " + retryTimeout.toSeconds() + " s (" + attempt[0] + " attempts); last: "
                        + lastProblem[0]
                        + ". Check that the registry runs at that address and that this instance may reach it",
                last[0]));
    }

    /** One request to the next address: its answer, empty on a failure worth retrying, or a refusal thrown. */
    private Optional<JsonNode> attempt(
            String method, String path, String body, String what, int n, String[] lastProblem, Exception[] last) {
        URI url = urls.get(n % urls.size());
        try {
            HttpRequest.Builder rb = HttpRequest.newBuilder(URI.create(strip(url) + path))
                    .timeout(timeout)
                    .header("Accept", CONTENT_TYPE + ", application/json");
            headers.forEach(rb::header);
            if (body == null) {
                rb.GET();
            } else {
                rb.header("Content-Type", CONTENT_TYPE).method(method, HttpRequest.BodyPublishers.ofString(body));
            }
            requests.incrementAndGet();
            HttpResponse<String> response = http.send(rb.build(), HttpResponse.BodyHandlers.ofString());
            int status = response.statusCode();
            if (status / 100 == 2) {
                return Optional.of(Json.MAPPER.readTree(response.body()));
            }
            if (status / 100 == 4 && status != 408 && status != 429) {
                throw refusal(url, status, response.body(), what);
            }
            lastProblem[0] = "HTTP " + status + " " + abbreviate(response.body());
        } catch (IOException e) {
            last[0] = e;
            lastProblem[0] = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServiceUnavailableException(
                    "interrupted while asking the schema registry " + url + " to " + what, e);
        }
        log.debug("schema registry {} failed to {} ({}), attempt {}", url, what, lastProblem[0], n + 1);
        return Optional.empty();
    }

    private static String strip(URI url) {
        String s = url.toString();
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    private static RegistryRefusal refusal(URI url, int status, String body, String what) {
        int code = status;
        String message = abbreviate(body);
        try {
            JsonNode error = Json.MAPPER.readTree(body);
            code = error.path("error_code").asInt(status);
            message = error.path("message").asText(message);
        } catch (IOException | RuntimeException e) {
            // not JSON: keep the body as the message
        }
        return new RegistryRefusal(
                "schema registry " + url + " refused to " + what + ": " + message + " (HTTP " + status + ", error code "
                        + code + ")",
                status,
                code);
    }

    private static String abbreviate(String s) {
        return s == null ? "" : s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }
}
