package io.weir.internal.http;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsExchange;
import io.weir.internal.http.security.AccessPolicy;
import io.weir.internal.http.security.Caller;
import java.io.IOException;
import java.util.Optional;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs before the router: asks the {@link AccessPolicy} about each request's path and caller, and
 * answers a refused one itself (401 or 403, JSON like every error) without routing it. Endpoints
 * registered under a protected path ({@code /admin/}, {@code /stores/}) are protected by that
 * alone. Thread-safe.
 */
final class AccessFilter extends Filter {

    private static final Logger log = LoggerFactory.getLogger(AccessFilter.class);

    private final AccessPolicy policy;

    AccessFilter(AccessPolicy policy) {
        this.policy = policy;
    }

    @Override
    public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
        String path = Request.of(exchange.getRequestMethod(), exchange.getRequestURI())
                .path();
        AccessPolicy.Verdict verdict = policy.decide(path, caller(exchange));
        Reply refusal = switch (verdict.outcome()) {
            case ALLOWED -> null;
            case UNAUTHENTICATED -> JsonErrors.unauthorized(verdict.message(), false);
            case INVALID_TOKEN -> JsonErrors.unauthorized(verdict.message(), true);
            case FORBIDDEN -> JsonErrors.forbidden(verdict.message());
        };
        if (refusal == null) {
            chain.doFilter(exchange);
            return;
        }
        // Never the Authorization header: it may hold a valid token sent to the wrong path.
        log.debug(
                "refused {} {} from {}: {}",
                exchange.getRequestMethod(),
                path,
                exchange.getRemoteAddress(),
                verdict.outcome());
        try (exchange) {
            Router.write(exchange, refusal, exchange.getRequestMethod().equals("HEAD"));
        }
    }

    private static Caller caller(HttpExchange exchange) {
        boolean verified = false;
        if (exchange instanceof HttpsExchange https) {
            try {
                // Only a chain the trust store verified in the handshake gets here; none throws.
                verified = https.getSSLSession().getPeerCertificates().length > 0;
            } catch (SSLPeerUnverifiedException none) {
                verified = false;
            }
        }
        return new Caller(
                exchange.getRemoteAddress().getAddress(),
                Optional.ofNullable(exchange.getRequestHeaders().getFirst("Authorization")),
                verified);
    }

    @Override
    public String description() {
        return "access by path: " + policy;
    }
}
