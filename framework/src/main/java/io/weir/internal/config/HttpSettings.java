package io.weir.internal.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The settings of an instance's HTTP server, declared as {@link Settings} declares the others: its
 * ports and addresses, TLS, and the credentials its protected endpoints ask for, with the rules
 * between them ({@link #CHECKS}). {@link Settings#ALL} lists them with the others.
 */
public final class HttpSettings {

    private HttpSettings() {}

    /** The format of a key store or trust store file. */
    public enum StoreType {
        PKCS12,
        JKS
    }

    /** Whether the HTTP server asks clients for a certificate (mTLS). */
    public enum ClientAuth {
        NONE,
        OPTIONAL,
        REQUIRED
    }

    /** Which endpoints need credentials. */
    public enum AuthScope {
        ADMIN,
        ALL
    }

    public static final Setting<Integer> HTTP_PORT = new Setting<>(
            "http.port",
            "8080",
            Setting.intBetween(-1, 65535),
            "port of the instance's HTTP server (health, metrics, topology); `0` picks a free port, `-1` disables"
                    + " the server");
    public static final Setting<String> HTTP_BIND_ADDRESS =
            new Setting<>("http.bind.address", "0.0.0.0", Setting.nonEmpty(), "address the HTTP server listens on");
    public static final Setting<Optional<java.net.URI>> HTTP_ADVERTISED_URL = Setting.optional(
            "http.advertised.url",
            "`http://<host name>:<http.port>`",
            HttpSettings::advertisedUrl,
            "base URL other instances reach this one's"
                    + " HTTP server at, to forward queries for the keys it holds (in Kubernetes the pod's stable DNS name,"
                    + " such as `http://app-0.app-headless:8080`)");
    public static final Setting<Optional<Integer>> HTTP_ADMIN_PORT = Setting.optional(
            "http.admin.port",
            "empty (on `http.port`)",
            Setting.intBetween(0, 65535),
            "a second port for `/admin/` and `/stores/` (the"
                    + " endpoints that change or read the application's data), so a network policy can keep them from the"
                    + " clients of health and metrics; `0` picks a free port");
    public static final Setting<String> HTTP_ADMIN_BIND_ADDRESS = Setting.derived(
            "http.admin.bind.address",
            "`http.bind.address`",
            Setting.nonEmpty(),
            v -> v.get(HTTP_BIND_ADDRESS),
            "with `http.admin.port`: the address its server listens on (`127.0.0.1`: from the host or pod only)");
    public static final Setting<Optional<Path>> HTTP_TLS_KEYSTORE_PATH = Setting.optional(
            "http.tls.keystore.path",
            "empty (plain HTTP)",
            Setting.nonEmpty().andThen(Path::of),
            "key store with the server's private key"
                    + " and certificate chain: set, the HTTP server(s) speak HTTPS only; re-read when the file changes, so a"
                    + " renewed certificate needs no restart");
    public static final Setting<StoreType> HTTP_TLS_KEYSTORE_TYPE =
            new Setting<>("http.tls.keystore.type", "pkcs12", Setting.enumOf(StoreType.class), "`pkcs12` or `jks`");
    public static final Setting<String> HTTP_TLS_KEYSTORE_PASSWORD = new Setting<>(
            "http.tls.keystore.password",
            "",
            "empty",
            s -> s,
            "password of the key store and of its key (secret: never shown)");
    public static final Setting<Optional<Path>> HTTP_TLS_TRUSTSTORE_PATH = Setting.optional(
            "http.tls.truststore.path",
            "empty",
            Setting.nonEmpty().andThen(Path::of),
            "certificates (a CA) that"
                    + " client certificates must chain to (mTLS), and that peers' server certificates must chain to when an"
                    + " instance forwards a query; needs `http.tls.keystore.path`; re-read when the file changes");
    public static final Setting<StoreType> HTTP_TLS_TRUSTSTORE_TYPE =
            new Setting<>("http.tls.truststore.type", "pkcs12", Setting.enumOf(StoreType.class), "`pkcs12` or `jks`");
    public static final Setting<String> HTTP_TLS_TRUSTSTORE_PASSWORD = new Setting<>(
            "http.tls.truststore.password", "", "empty", s -> s, "password of the trust store (secret: never shown)");
    public static final Setting<ClientAuth> HTTP_TLS_CLIENT_AUTH = Setting.derived(
            "http.tls.client.auth",
            "`optional` with a trust store, else `none`",
            Setting.enumOf(ClientAuth.class),
            v -> v.get(HTTP_TLS_TRUSTSTORE_PATH).isPresent() ? ClientAuth.OPTIONAL : ClientAuth.NONE,
            "`none`: no client certificates; `optional`: a client certificate that chains to the trust store"
                    + " authenticates its request; `required`: the TLS handshake refuses a client without one");
    public static final Setting<List<String>> HTTP_AUTH_TOKEN = new Setting<>(
            "http.auth.token",
            "",
            "empty",
            HttpSettings::tokens,
            "bearer tokens (comma-separated) that authenticate requests to the protected endpoints;"
                    + " the first is sent to peers (secret: never shown)");
    public static final Setting<Optional<Path>> HTTP_AUTH_TOKEN_FILE = Setting.optional(
            "http.auth.token.file",
            "empty",
            Setting.nonEmpty().andThen(Path::of),
            "a file of bearer tokens, one a line (a mounted"
                    + " Secret); re-read when it changes; the first line is sent to peers");
    public static final Setting<AuthScope> HTTP_AUTH_SCOPE = new Setting<>(
            "http.auth.scope",
            "admin",
            Setting.enumOf(AuthScope.class),
            "`admin`: `/admin/` and `/stores/` need credentials; `all`:"
                    + " everything but `/health/` does (`/metrics`, `/info`, `/topology` too)");
    public static final Setting<Boolean> HTTP_ADMIN_OPEN = new Setting<>(
            "http.admin.open",
            "false",
            Setting.bool(),
            "`true`: the protected endpoints answer anyone without credentials; `false`: without a token or a trust"
                    + " store they answer requests from loopback addresses only (403 to others); see [HTTP security](http-security.md)");
    public static final Setting<Duration> HTTP_RELOAD_INTERVAL_MS = new Setting<>(
            "http.reload.interval.ms",
            "5000",
            Setting.millisAtLeast(100),
            "how often the key store, trust store and token file are checked for changes");

    /** The HTTP settings in documentation order, as {@link Settings#ALL} lists them. */
    static final List<Setting<?>> ALL = List.of(
            HTTP_PORT,
            HTTP_BIND_ADDRESS,
            HTTP_ADVERTISED_URL,
            HTTP_ADMIN_PORT,
            HTTP_ADMIN_BIND_ADDRESS,
            HTTP_TLS_KEYSTORE_PATH,
            HTTP_TLS_KEYSTORE_TYPE,
            HTTP_TLS_KEYSTORE_PASSWORD,
            HTTP_TLS_TRUSTSTORE_PATH,
            HTTP_TLS_TRUSTSTORE_TYPE,
            HTTP_TLS_TRUSTSTORE_PASSWORD,
            HTTP_TLS_CLIENT_AUTH,
            HTTP_AUTH_TOKEN,
            HTTP_AUTH_TOKEN_FILE,
            HTTP_AUTH_SCOPE,
            HTTP_ADMIN_OPEN,
            HTTP_RELOAD_INTERVAL_MS);

    /** The rules between the HTTP settings (see {@link Settings#CHECKS}). */
    static final List<SettingCheck> CHECKS = List.of(
            new SettingCheck(
                    HTTP_TLS_TRUSTSTORE_PATH,
                    v -> v.get(HTTP_TLS_TRUSTSTORE_PATH).isEmpty()
                            || v.get(HTTP_TLS_KEYSTORE_PATH).isPresent(),
                    v -> "client certificates need TLS, but http.tls.keystore.path is empty; set it too, or leave"
                            + " http.tls.truststore.path empty"),
            new SettingCheck(
                    HTTP_TLS_CLIENT_AUTH,
                    v -> v.get(HTTP_TLS_CLIENT_AUTH) == ClientAuth.NONE
                            || v.get(HTTP_TLS_TRUSTSTORE_PATH).isPresent(),
                    v -> Setting.spelling(v.get(HTTP_TLS_CLIENT_AUTH)) + " needs a trust store to verify client"
                            + " certificates against; set http.tls.truststore.path, or http.tls.client.auth=none"),
            new SettingCheck(
                    HTTP_ADMIN_OPEN,
                    v -> !v.get(HTTP_ADMIN_OPEN) || !credentialsConfigured(v),
                    v -> "true opens the protected endpoints to anyone, but credentials are configured"
                            + " (http.auth.token, http.auth.token.file or client certificates); remove one or the"
                            + " other"));

    /** True if a bearer token or client certificates can authenticate a request. */
    static boolean credentialsConfigured(SettingValues v) {
        return !v.get(HTTP_AUTH_TOKEN).isEmpty()
                || v.get(HTTP_AUTH_TOKEN_FILE).isPresent()
                || v.get(HTTP_TLS_CLIENT_AUTH) != ClientAuth.NONE;
    }

    /**
     * Comma-separated bearer tokens. The message of a refusal never quotes the value: it is a secret.
     */
    static List<String> tokens(String s) {
        if (s.isEmpty()) {
            return List.of();
        }
        List<String> tokens = new ArrayList<>();
        for (String t : s.split(",")) {
            String token = t.trim();
            if (!BearerTokenSyntax.valid(token)) {
                throw new IllegalArgumentException("a token is empty or has characters a bearer token may not have"
                        + " (the value is not shown: it is a secret); allowed: letters, digits and -._~+/=, tokens"
                        + " separated by commas");
            }
            tokens.add(token);
        }
        return List.copyOf(tokens);
    }

    private static java.net.URI advertisedUrl(String value) {
        java.net.URI uri;
        try {
            uri = new java.net.URI(value.trim());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("is not a URL: " + e.getMessage());
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                || uri.getHost() == null
                || (uri.getPath() != null
                        && !uri.getPath().isEmpty()
                        && !uri.getPath().equals("/"))
                || uri.getQuery() != null) {
            throw new IllegalArgumentException(
                    "must be http(s)://host[:port] with no path, such as" + " http://app-0.app-headless:8080");
        }
        return uri;
    }
}
