package io.weir.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Asks an instance's HTTP endpoints what a probe or a scraper would ({@code /health/ready},
 * {@code /metrics}, ...), for tests. Each call waits at most {@link #TIMEOUT}; a refused connection
 * is answered as status 0, so a test can wait for an endpoint to come up or go away.
 *
 * <p>Thread-safe.
 */
public final class HttpProbe {

    public static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    /** A response: status (0 when nothing answered), content type and body. */
    public record Response(int status, String contentType, String body) {}

    private final String base;

    private HttpProbe(String base) {
        this.base = base;
    }

    /** Probes {@code http://localhost:<port>}. */
    public static HttpProbe localhost(int port) {
        return new HttpProbe("http://localhost:" + port);
    }

    /** The base URL probed, {@code http://localhost:<port>}. */
    public String base() {
        return base;
    }

    public Response get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    public Response post(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).POST(HttpRequest.BodyPublishers.noBody()));
    }

    /** The status of {@code GET path}; 0 when nothing answered. */
    public int status(String path) {
        return get(path).status();
    }

    private static Response send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> r =
                    CLIENT.send(request.timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
            return new Response(
                    r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), r.body());
        } catch (java.net.ConnectException | java.net.http.HttpTimeoutException e) {
            return new Response(0, "", e.toString());
        } catch (IOException e) {
            if (e.getCause() instanceof java.net.ConnectException) {
                return new Response(0, "", e.toString());
            }
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
