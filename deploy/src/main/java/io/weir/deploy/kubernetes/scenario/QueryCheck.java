package io.weir.deploy.kubernetes.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import io.weir.common.internal.Poll;
import io.weir.deploy.kubernetes.cluster.Json;
import io.weir.deploy.kubernetes.cluster.Kubelet;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * Interactive queries through the chart, checked exactly: every key of the store asked through
 * every pod (on the port the chart publishes for queries), each answer equal to the count the
 * committed input implies, so a pod that does not hold a key must forward to the one that does, by
 * the name it advertises (the headless Service's, which the runner's cluster DNS resolves). Run
 * while the load is paused ({@link CountCheck}). With TLS and a token, as a client outside the
 * release would call: HTTPS trusting the release's CA, {@code Authorization: Bearer}.
 */
final class QueryCheck {

    /** How the scenario reaches the pods' query endpoints. */
    record Access(String port, String scheme, Optional<String> token, Optional<SSLContext> tls) {
        static Access plain(String port) {
            return new Access(port, "http", Optional.empty(), Optional.empty());
        }
    }

    private static final Duration RETRY_FOR = Duration.ofSeconds(60);

    private final String store;
    private long retried;
    private final Access access;
    private final HttpClient client;

    QueryCheck(String store, Access access) {
        this.store = store;
        this.access = access;
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
        access.tls().ifPresent(builder::sslContext);
        this.client = builder.build();
    }

    /** Asks every pod for every key; fails naming the first wrong answer; returns the figures. */
    Map<String, Object> verify(Collection<Kubelet> pods, Map<String, Long> expected) {
        long asked = 0;
        long forwarded = 0;
        retried = 0;
        List<String> wrong = new ArrayList<>();
        long started = System.nanoTime();
        for (Kubelet pod : pods) {
            for (Map.Entry<String, Long> e : expected.entrySet()) {
                JsonNode answer = getRetrying(pod, e.getKey());
                asked++;
                if (!pod.name().equals(answer.path("instance").asText())) {
                    forwarded++;
                }
                if (answer.path("value").asLong(-1) != e.getValue() && wrong.size() < 5) {
                    wrong.add(pod.name() + " answered " + answer.path("value") + " for '" + e.getKey() + "', expected "
                            + e.getValue() + " (" + answer + ")");
                }
            }
        }
        if (!wrong.isEmpty()) {
            throw new AssertionError("queries through the pods differ from the committed counts: " + wrong);
        }
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("queries_exact", asked);
        f.put("queries_forwarded", forwarded);
        f.put("queries_retried", retried);
        f.put("pods_asked", pods.stream().map(Kubelet::name).toList());
        f.put("query_scheme", access.scheme() + (access.token().isPresent() ? " with a token" : ""));
        f.put("seconds_querying", PodmanScenario.seconds(started));
        return f;
    }

    /**
     * A key asked until it is answered, for up to {@link #RETRY_FOR}: right after a pod is made again
     * with a new address, its peers may still hold the old one (the JVM caches a name for 30 s), and
     * a forwarded query then fails; how often that happened is in the figures.
     */
    private JsonNode getRetrying(Kubelet pod, String key) {
        try {
            return Poll.retrying(
                    () -> get(pod, key),
                    failed -> {
                        retried++;
                        return true;
                    },
                    RETRY_FOR,
                    Duration.ofMillis(500));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking " + pod.name() + " for " + key, e);
        }
    }

    private JsonNode get(Kubelet pod, String key) {
        URI uri = URI.create(access.scheme() + "://127.0.0.1:" + pod.hostPort(access.port()) + "/stores/" + store
                + "/keys/" + URLEncoder.encode(key, StandardCharsets.UTF_8).replace("+", "%20"));
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET();
        access.token().ifPresent(t -> request.header("Authorization", "Bearer " + t));
        try {
            HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(
                        "GET " + uri + " through " + pod.name() + ": " + response.statusCode() + " " + response.body());
            }
            return Json.tree(response.body());
        } catch (IOException e) {
            throw new IllegalStateException("GET " + uri + " through " + pod.name() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
