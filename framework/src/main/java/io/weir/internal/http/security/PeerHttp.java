package io.weir.internal.http.security;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Optional;

/**
 * How an instance calls another instance's endpoints (a query forwarded to the instance that
 * owns the key): over HTTPS when {@code http.tls.keystore.path} is set, trusting the trust store
 * (else the certificates of this instance's own chain) and presenting this instance's certificate
 * when the peer asks for one (mTLS); with {@code Authorization: Bearer <token>} when tokens are
 * configured (the first line of {@code http.auth.token.file}, else the first of
 * {@code http.auth.token}). Renewed certificates and rotated tokens are used from the next call
 * on.
 *
 * <p>Peers are called by host name, and the JDK client checks that the peer's certificate names
 * it: the certificates must carry the names instances reach each other by (with a headless
 * Service, {@code *.<service>.<namespace>.svc.cluster.local}).
 *
 * <pre>{@code
 * PeerHttp peers = PeerHttp.of(security);
 * HttpRequest request = peers.request(host, port, "/stores/counts/keys/k").GET().build();
 * HttpResponse<String> answer = peers.client().send(request, BodyHandlers.ofString());
 * }</pre>
 *
 * <p>Thread-safe; one per instance (the client holds a connection pool).
 */
public final class PeerHttp {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final HttpSecurity security;
    private final LazyHttpClient client;

    private PeerHttp(HttpSecurity security, LazyHttpClient client) {
        this.security = security;
        this.client = client;
    }

    /** A client for the settings {@code security} was loaded from; it stays current while {@code security} is open. */
    public static PeerHttp of(HttpSecurity security) {
        HttpClient.Builder builder = HttpClient.newBuilder()
                // The JDK's server speaks HTTP/1.1 only: no h2c upgrade offer on every plain call.
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER);
        security.peerContext().ifPresent(builder::sslContext);
        return new PeerHttp(security, new LazyHttpClient(builder));
    }

    /** Built on the first call. */
    public HttpClient client() {
        return client.get();
    }

    /** {@code https} with TLS, else {@code http}. */
    public String scheme() {
        return security.peerContext().isPresent() ? "https" : "http";
    }

    /** {@code <scheme>://host:port<pathAndQuery>}; {@code pathAndQuery} starts with {@code /} and is already encoded. */
    public URI uri(String host, int port, String pathAndQuery) {
        return URI.create(scheme() + "://" + host + ":" + port + pathAndQuery);
    }

    /** The {@code Authorization} header value to send ({@code Bearer <token>}), if tokens are configured. */
    public Optional<String> authorization() {
        return security.tokens().forPeers().map(token -> "Bearer " + token);
    }

    /** A request to {@link #uri} with {@link #authorization()} set; add the method and send it with {@link #client()}. */
    public HttpRequest.Builder request(String host, int port, String pathAndQuery) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(host, port, pathAndQuery));
        authorization().ifPresent(value -> request.header("Authorization", value));
        return request;
    }
}
