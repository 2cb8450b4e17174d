package io.weir.internal.http.security;

import java.util.Set;

/**
 * Which requests an endpoint answers, decided by the path's class:
 * <ul>
 *   <li>{@code /health/live} and {@code /health/ready} answer everyone: probes carry no
 *       credentials;</li>
 *   <li>{@code /metrics}, {@code /info} and {@code /topology} answer everyone unless
 *       {@code http.auth.scope=all}: they describe the application (names of topics, stores and
 *       tasks) but hold none of its data and change nothing, and scrapers rarely carry tokens;</li>
 *   <li>everything else, {@code /admin/} and {@code /stores/} above all, is protected, unknown
 *       paths included, so a new endpoint is protected until it is declared open here.</li>
 * </ul>
 * A protected path needs a valid bearer token or a client certificate the trust store verified,
 * when either is configured. When neither is, it answers loopback callers only (the pod's
 * pre-stop hook, {@code kubectl port-forward}) and 403 to others, naming the settings; unless
 * {@code http.admin.open=true} opens it to everyone. Thread-safe.
 */
public final class AccessPolicy {

    /** What happens to a request. */
    public enum Outcome {
        /** Answered. */
        ALLOWED,
        /** 401 with {@code WWW-Authenticate: Bearer}: no credentials. */
        UNAUTHENTICATED,
        /** 401 with {@code WWW-Authenticate: Bearer error="invalid_token"}: a token that is not one of ours. */
        INVALID_TOKEN,
        /** 403: no credentials are configured and the caller is not on this host. */
        FORBIDDEN
    }

    /** An outcome and, unless allowed, one sentence for the caller (never quoting a credential). */
    public record Verdict(Outcome outcome, String message) {}

    private static final Set<String> HEALTH = Set.of("/health/live", "/health/ready");
    private static final Set<String> DESCRIPTIVE = Set.of("/metrics", "/info", "/topology");
    private static final String BEARER = "bearer ";
    private static final Verdict ALLOW = new Verdict(Outcome.ALLOWED, "");

    private final BearerTokens tokens;
    private final boolean certificates;
    private final boolean allEndpoints;
    private final boolean open;

    AccessPolicy(BearerTokens tokens, boolean certificates, boolean allEndpoints, boolean open) {
        this.tokens = tokens;
        this.certificates = certificates;
        this.allEndpoints = allEndpoints;
        this.open = open;
    }

    /**
     * True for the paths a separate admin port ({@code http.admin.port}) serves: {@code /admin/}
     * and {@code /stores/} (interactive queries), which read or change the application's data.
     */
    public static boolean adminPath(String path) {
        return path.startsWith("/admin/") || path.startsWith("/stores/");
    }

    public Verdict decide(String path, Caller caller) {
        if (HEALTH.contains(path) || (!allEndpoints && DESCRIPTIVE.contains(path)) || open) {
            return ALLOW;
        }
        if (!tokens.configured() && !certificates) {
            return caller.remote().isLoopbackAddress()
                    ? ALLOW
                    : new Verdict(
                            Outcome.FORBIDDEN,
                            path
                                    + " answers only requests from this host until credentials are configured: set"
                                    + " http.auth.token.file (or http.auth.token) for bearer tokens, or http.tls.truststore.path for"
                                    + " client certificates; or http.admin.open=true to answer anyone");
        }
        if (certificates && caller.verifiedCertificate()) {
            return ALLOW;
        }
        String header = caller.authorization().orElse("");
        if (!header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return new Verdict(
                    Outcome.UNAUTHENTICATED,
                    path + " needs credentials: "
                            + (tokens.configured() ? "send Authorization: Bearer <token>" : "")
                            + (tokens.configured() && certificates ? ", or " : "")
                            + (certificates ? "present a client certificate the instance's trust store verifies" : ""));
        }
        if (!tokens.configured()
                || !tokens.accepts(header.substring(BEARER.length()).trim())) {
            return new Verdict(
                    Outcome.INVALID_TOKEN,
                    "the bearer token is not valid for " + path
                            + (tokens.configured() ? "" : " (this instance accepts client certificates only)"));
        }
        return ALLOW;
    }

    @Override
    public String toString() {
        return "AccessPolicy[tokens=" + tokens.configured() + ", certificates=" + certificates + ", scope="
                + (allEndpoints ? "all" : "admin") + ", open=" + open + "]";
    }
}
