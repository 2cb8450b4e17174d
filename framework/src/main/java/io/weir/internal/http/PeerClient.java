package io.weir.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.weir.internal.http.security.LazyHttpClient;
import io.weir.internal.http.security.PeerHttp;
import io.weir.internal.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Asks another instance of the application: a {@code GET} to its advertised endpoint, whose JSON
 * answer is passed on as it came (status, body and {@code Retry-After}), sent through the
 * instance's {@link PeerHttp} (its TLS material and bearer token) once the instance has started.
 * One per instance, shared by the HTTP server's threads.
 */
public final class PeerClient {

    private final Duration timeout;
    private final Supplier<Optional<PeerHttp>> peers;
    /** For a forward without the instance's {@link PeerHttp}: before it started, or without HTTP endpoints. */
    private final LazyHttpClient plain;

    /**
     * @param timeout how long one forwarded request may take
     * @param peers   the started instance's way to its peers; empty before it starts (plain HTTP then)
     */
    public PeerClient(Duration timeout, Supplier<Optional<PeerHttp>> peers) {
        this.timeout = timeout;
        this.peers = peers;
        this.plain = new LazyHttpClient(
                HttpClient.newBuilder().connectTimeout(timeout).version(HttpClient.Version.HTTP_1_1));
    }

    /**
     * {@code GET endpoint + pathAndQuery}.
     *
     * @throws UncheckedIOException if the peer cannot be reached, does not answer in time, or
     *                              answers something other than JSON
     */
    public QueryAnswer get(String endpoint, String pathAndQuery) {
        Optional<PeerHttp> http = peers.get();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(stripSlash(endpoint) + pathAndQuery))
                .timeout(timeout)
                .header("Accept", "application/json")
                .GET();
        http.flatMap(PeerHttp::authorization).ifPresent(token -> request.header("Authorization", token));
        HttpClient client = http.map(PeerHttp::client).orElseGet(plain::get);
        try {
            HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            JsonNode body = Json.reader().readTree(response.body());
            if (body == null || body.isMissingNode()) {
                throw new IOException("empty answer with status " + response.statusCode());
            }
            Map<String, String> headers = new HashMap<>();
            response.headers().firstValue("Retry-After").ifPresent(v -> headers.put("Retry-After", v));
            return new QueryAnswer(response.statusCode(), body, headers);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new java.io.InterruptedIOException("interrupted"));
        }
    }

    private static String stripSlash(String endpoint) {
        return endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
    }
}
