package io.weir.query;

import com.fasterxml.jackson.databind.JsonNode;
import io.weir.common.internal.Deadline;
import io.weir.common.internal.Poll;
import io.weir.internal.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Asks an application's instances for the state of keys over HTTP. Any instance answers for any
 * key (it forwards to the owner); this client adds retries: when an instance cannot answer
 * (503 while the key's task moves or restores, or no answer at all, as when the instance died)
 * it asks the next one, and after a round over all of them waits a little and goes on, until the
 * call's deadline. Without an accepted lag a value comes from the key's active copy only, so it is
 * never older than the last commit before the call; with one ({@link #get(String, String, long)})
 * a standby within the lag may answer, which keeps queries answered through a failover.
 *
 * <p>Keys are spelled as the store's key serde reads them (strings as they are, numbers in
 * decimal, UUIDs, JSON text; other serdes base64url with {@code keyEncoding=base64}, see the
 * README's "Querying state"). Thread-safe; one client per application is enough.
 */
public final class StoreQueryClient {

    /** The pause after a round no instance could answer; it doubles after each such round, up to {@link #MAX_PAUSE}. */
    private static final Duration FIRST_PAUSE = Duration.ofMillis(50);

    private static final Duration MAX_PAUSE = Duration.ofMillis(500);

    private final List<String> endpoints;
    private final Duration deadline;
    private final String authorization;
    private final HttpClient http;
    private final AtomicInteger next = new AtomicInteger();
    private final Duration requestTimeout;

    private StoreQueryClient(Builder b) {
        this.endpoints = List.copyOf(b.endpoints);
        this.deadline = b.deadline;
        this.authorization = b.bearerToken == null ? null : "Bearer " + b.bearerToken;
        this.http = b.http != null
                ? b.http
                : HttpClient.newBuilder()
                        .connectTimeout(b.requestTimeout)
                        .version(HttpClient.Version.HTTP_1_1)
                        .build();
        this.requestTimeout = b.requestTimeout;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The value of {@code key} in key-value store (or table) {@code store}, read from the key's
     * active copy; empty if the store has no value for it.
     *
     * @throws QueryException if the query is wrong, or no instance answered before the deadline
     */
    public Optional<QueryAnswer> get(String store, String key) {
        return ask(path(store, key, ""));
    }

    /**
     * As {@link #get(String, String)}, but a copy at most {@code maxLagRecords} changelog records
     * behind may answer (a standby, or a task still restoring): answers keep coming while a failed
     * instance's tasks move.
     */
    public Optional<QueryAnswer> get(String store, String key, long maxLagRecords) {
        if (maxLagRecords < 0) {
            throw new IllegalArgumentException("maxLagRecords must be 0 or more, not " + maxLagRecords);
        }
        return ask(path(store, key, "") + "?maxLag=" + maxLagRecords);
    }

    /** The windows of {@code key} in window store {@code store} that start in {@code [fromMs, toMs]}, one page. */
    public QueryAnswer windows(String store, String key, long fromMs, long toMs) {
        return ask(path(store, key, "/windows") + "?from=" + fromMs + "&to=" + toMs)
                .orElseThrow();
    }

    /** The sessions of {@code key} in session store {@code store} that end at or after {@code fromMs} and start by {@code toMs}. */
    public QueryAnswer sessions(String store, String key, long fromMs, long toMs) {
        return ask(path(store, key, "/sessions") + "?from=" + fromMs + "&to=" + toMs)
                .orElseThrow();
    }

    /** Sends {@code pathAndQuery} until an instance answers it or the deadline passes; empty on no_such_key. */
    private Optional<QueryAnswer> ask(String pathAndQuery) {
        Deadline end = Deadline.after(deadline);
        int start = Math.floorMod(next.getAndIncrement(), endpoints.size());
        Round round = new Round(pathAndQuery, start, end);
        try {
            return Poll.untilPresent(round::ask, deadline, FIRST_PAUSE, MAX_PAUSE)
                    .orElseThrow(round::unavailable);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QueryException(0, "interrupted", "interrupted between retries");
        }
    }

    /** One query's rounds over the instances, and what the last one that could not answer said. */
    private final class Round {
        private final String pathAndQuery;
        private final int start;
        private final Deadline end;
        private String last = "no instance was asked";
        private int lastStatus = 0;

        Round(String pathAndQuery, int start, Deadline end) {
            this.pathAndQuery = pathAndQuery;
            this.start = start;
            this.end = end;
        }

        /** Asks each instance once: the answer (empty inside on no_such_key), or empty if none could answer. */
        Optional<Optional<QueryAnswer>> ask() {
            for (int i = 0; i < endpoints.size(); i++) {
                String endpoint = endpoints.get((start + i) % endpoints.size());
                try {
                    HttpResponse<byte[]> r =
                            http.send(request(endpoint + pathAndQuery), HttpResponse.BodyHandlers.ofByteArray());
                    JsonNode body = Json.reader().readTree(r.body());
                    if (r.statusCode() == 200) {
                        return Optional.of(Optional.of(answer(body)));
                    }
                    String error = body.path("error").asText("");
                    if (r.statusCode() == 404 && error.equals("no_such_key")) {
                        return Optional.of(Optional.empty());
                    }
                    if (r.statusCode() != 503) {
                        throw new QueryException(
                                r.statusCode(),
                                error,
                                body.path("message").asText("HTTP " + r.statusCode() + " from " + endpoint));
                    }
                    lastStatus = 503;
                    last = endpoint + ": " + body.path("message").asText();
                } catch (IOException e) {
                    lastStatus = 0;
                    last = endpoint + ": " + e;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new QueryException(0, "interrupted", "interrupted while asking " + endpoint);
                }
                if (end.expired()) {
                    throw unavailable();
                }
            }
            return Optional.empty();
        }

        QueryException unavailable() {
            return new QueryException(
                    lastStatus, "unavailable", "no instance answered within " + deadline + "; the last said " + last);
        }
    }

    private HttpRequest request(String url) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
                .timeout(requestTimeout)
                .header("Accept", "application/json")
                .GET();
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return b.build();
    }

    private static QueryAnswer answer(JsonNode body) {
        return new QueryAnswer(
                body.path("instance").asText(),
                body.path("source").asText(),
                body.path("lag").asLong(),
                body);
    }

    private static String path(String store, String key, String suffix) {
        return "/stores/" + encode(store) + "/keys/" + encode(key) + suffix;
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** Options of a {@link StoreQueryClient}. */
    public static final class Builder {
        private final List<String> endpoints = new ArrayList<>();
        private Duration deadline = Duration.ofSeconds(10);
        private Duration requestTimeout = Duration.ofSeconds(5);
        private String bearerToken;
        private HttpClient http;

        private Builder() {}

        /** An instance's base URL, such as {@code http://app-0.app-headless:8080}; at least one. */
        public Builder endpoint(String baseUrl) {
            URI uri = URI.create(Objects.requireNonNull(baseUrl, "baseUrl"));
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new IllegalArgumentException("not an http(s) base URL: " + baseUrl);
            }
            endpoints.add(baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl);
            return this;
        }

        /** How long one call may take, retries included (default 10 s). */
        public Builder deadline(Duration deadline) {
            this.deadline = Objects.requireNonNull(deadline, "deadline");
            return this;
        }

        /** How long one request to one instance may take (default 5 s). */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** Sent as {@code Authorization: Bearer <token>}, for instances that require it. */
        public Builder bearerToken(String token) {
            this.bearerToken = token;
            return this;
        }

        /** The HTTP client to send with (for TLS settings, say); by default one of the client's own. */
        public Builder httpClient(HttpClient client) {
            this.http = client;
            return this;
        }

        public StoreQueryClient build() {
            if (endpoints.isEmpty()) {
                throw new IllegalArgumentException("a StoreQueryClient needs at least one endpoint");
            }
            return new StoreQueryClient(this);
        }
    }
}
