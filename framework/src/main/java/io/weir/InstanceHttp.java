package io.weir;

import io.weir.config.WeirConfig;
import io.weir.internal.http.HttpOptions;
import io.weir.internal.http.OpsHttpServer;
import io.weir.internal.http.security.HttpSecurity;
import io.weir.internal.http.security.HttpSecurityOptions;
import io.weir.internal.http.security.PeerHttp;
import io.weir.internal.query.AdvertisedUrl;
import java.util.Optional;

/**
 * A running instance's HTTP endpoints: the server, the TLS and token material it serves with
 * (reloaded from their files), and the client that calls peers with the same material
 * ({@link PeerHttp}, for forwarded queries). With {@code http.port=-1} there are none, and every
 * answer says so.
 *
 * <p>Threading: started and closed by the {@link RunningInstance}; the accessors from any thread.
 */
final class InstanceHttp implements AutoCloseable {

    private final WeirConfig config;
    private final HttpSecurity security;
    private final OpsHttpServer server;
    private final PeerHttp peers;

    private InstanceHttp(WeirConfig config, HttpSecurity security, OpsHttpServer server) {
        this.config = config;
        this.security = security;
        this.server = server;
        this.peers = security == null ? null : PeerHttp.of(security);
    }

    /** Starts the endpoints, or none with {@code http.port=-1}. */
    static InstanceHttp start(WeirConfig config, Endpoints endpoints) {
        if (config.http().port() < 0) {
            return new InstanceHttp(config, null, null);
        }
        // Kept beside the server: forwarded queries call peers with the same TLS material and token (PeerHttp).
        HttpSecurity security = HttpSecurity.load(HttpSecurityOptions.of(config));
        try {
            return new InstanceHttp(config, security, OpsHttpServer.start(HttpOptions.of(config), security, endpoints));
        } catch (RuntimeException e) {
            security.close();
            throw e;
        }
    }

    /** The URL peers reach this instance's queries at (the admin port when there is one); empty without a server. */
    String advertisedUrl() {
        return server == null
                ? ""
                : AdvertisedUrl.of(config, server.scheme(), server.adminPort().orElse(server.port()));
    }

    /** How this instance calls its peers' endpoints; empty without an HTTP server. */
    Optional<PeerHttp> peerHttp() {
        return Optional.ofNullable(peers);
    }

    Optional<Integer> port() {
        return server == null ? Optional.empty() : Optional.of(server.port());
    }

    /** With {@code http.admin.port}: the port of the admin and query endpoints. */
    Optional<Integer> adminPort() {
        return server == null ? Optional.empty() : server.adminPort();
    }

    /** Where the endpoints are, for the instance's start line. */
    String describe() {
        return server == null
                ? "; HTTP endpoints disabled (http.port=-1)"
                : "; health, metrics and topology on " + server.scheme() + "://"
                        + config.http().bindAddress() + ":"
                        + server.port()
                        + server.adminPort()
                                .map(p -> ", admin and queries on " + server.scheme() + "://"
                                        + config.http().adminBindAddress() + ":" + p)
                                .orElse("");
    }

    /** Closes the server, then stops reloading its security material. */
    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
        if (security != null) {
            security.close();
        }
    }
}
