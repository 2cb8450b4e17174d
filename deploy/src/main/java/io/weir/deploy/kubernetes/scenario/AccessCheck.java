package io.weir.deploy.kubernetes.scenario;

import io.weir.deploy.kubernetes.cluster.Kubelet;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What the release's HTTP access rules let a caller without the token do, checked on every pod
 * from outside it: with {@code http.auth.scope=admin} (the plain variant) {@code /info} answers
 * anyone and a query without the token is refused (401); with {@code all} (the tls variant) {@code
 * /info} is refused without the token (401) and answered with it. Probes ({@code /health/*}) answer
 * everyone in both, which the pods' readiness shows already.
 */
final class AccessCheck {

    private final QueryCheck.Access access;
    private final boolean scopeAll;
    private final HttpClient client;

    AccessCheck(QueryCheck.Access access, boolean scopeAll) {
        this.access = access;
        this.scopeAll = scopeAll;
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
        access.tls().ifPresent(builder::sslContext);
        this.client = builder.build();
    }

    /** Checks every pod; fails naming the first answer that breaks the rules; returns the figures. */
    Map<String, Object> verify(Collection<Kubelet> pods) {
        for (Kubelet pod : pods) {
            expect(pod, "http", "/info", Optional.empty(), scopeAll ? 401 : 200);
            if (scopeAll) {
                expect(pod, "http", "/info", access.token(), 200);
            }
            expect(pod, access.port(), "/stores/", Optional.empty(), 401);
        }
        Map<String, Object> f = new LinkedHashMap<>();
        f.put(
                "access_without_token",
                scopeAll ? "/info and /stores/ refused (401) on every pod" : "/info open, /stores/ refused (401)");
        return f;
    }

    private void expect(Kubelet pod, String port, String path, Optional<String> token, int status) {
        URI uri = URI.create(access.scheme() + "://127.0.0.1:" + pod.hostPort(port) + path);
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET();
        token.ifPresent(t -> request.header("Authorization", "Bearer " + t));
        try {
            HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != status) {
                throw new AssertionError("GET " + path + " on " + pod.name() + " port " + port
                        + (token.isPresent() ? " with" : " without") + " the token answered "
                        + response.statusCode() + ", expected " + status + ": " + response.body());
            }
        } catch (IOException e) {
            throw new IllegalStateException("GET " + uri + " on " + pod.name() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
