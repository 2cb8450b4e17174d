package io.weir.internal.http.security;

import io.weir.common.internal.Worker;
import io.weir.internal.config.HttpSettings;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The security of one instance's HTTP endpoints, loaded from its settings: the TLS contexts of
 * its server and of its calls to peers, and the {@link AccessPolicy}. The key store, trust store
 * and token file are read at {@link #load} (a bad one fails the start, naming its setting) and
 * again every {@code http.reload.interval.ms} on a daemon thread ({@code weir-http-reload}), so a
 * renewed certificate or rotated token takes effect without a restart; a broken new version keeps
 * the old one and logs one WARN.
 *
 * <p>Threading: every method may be called from any thread; {@link #close} stops the reload
 * thread and is idempotent.
 */
public final class HttpSecurity implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(HttpSecurity.class);

    private final Optional<WatchedFile<TlsMaterial>> keyStore;
    private final Optional<WatchedFile<TlsMaterial>> trustStore;
    private final HttpSettings.ClientAuth clientAuth;
    private final BearerTokens tokens;
    private final AccessPolicy access;
    private final Optional<SSLContext> serverContext;
    private final Optional<SSLContext> peerContext;
    private final List<WatchedFile<?>> watched = new ArrayList<>();
    private final Worker reload;

    private HttpSecurity(HttpSecurityOptions options) {
        keyStore = options.keyStore()
                .map(f -> new WatchedFile<>(f.setting(), f.path(), content -> TlsMaterial.keyStore(f, content)));
        trustStore = options.trustStore()
                .map(f -> new WatchedFile<>(f.setting(), f.path(), content -> TlsMaterial.trustStore(f, content)));
        clientAuth = options.clientAuth();
        Optional<WatchedFile<List<String>>> tokenFile = options.tokenFile()
                .map(p -> new WatchedFile<>(HttpSettings.HTTP_AUTH_TOKEN_FILE.name(), p, BearerTokens::parseFile));
        tokens = new BearerTokens(options.tokens(), tokenFile);
        access = new AccessPolicy(
                tokens, clientAuth != HttpSettings.ClientAuth.NONE, options.allEndpoints(), options.open());
        serverContext = keyStore.map(k -> context(
                new ReloadingKeyManager(() -> k.current().keyManager()),
                trustStore
                        .map(t -> new ReloadingTrustManager(() -> t.current().trustManager()))
                        .orElse(null)));
        // A peer's server certificate is checked against the trust store, else against this instance's own chain.
        peerContext = keyStore.map(k -> context(
                new ReloadingKeyManager(() -> k.current().keyManager()),
                new ReloadingTrustManager(() -> trustStore.orElse(k).current().trustManager())));
        keyStore.ifPresent(watched::add);
        trustStore.ifPresent(watched::add);
        tokenFile.ifPresent(watched::add);
        reload = watched.isEmpty()
                ? null
                : startReload(watched, options.reloadInterval().toMillis());
    }

    /**
     * Reads the key store, trust store and token file and starts watching them.
     *
     * @throws io.weir.errors.ConfigException naming the setting of a file that is missing,
     *         unreadable, of another format, or that its password does not open
     */
    public static HttpSecurity load(HttpSecurityOptions options) {
        return new HttpSecurity(options);
    }

    /** With TLS: the context of the instance's HTTPS server(s). */
    public Optional<SSLContext> serverContext() {
        return serverContext;
    }

    /** The TLS parameters of a new server connection: whether it asks the client for a certificate. */
    public SSLParameters serverParameters(SSLContext context) {
        SSLParameters p = context.getDefaultSSLParameters();
        p.setWantClientAuth(clientAuth == HttpSettings.ClientAuth.OPTIONAL);
        if (clientAuth == HttpSettings.ClientAuth.REQUIRED) {
            p.setNeedClientAuth(true);
        }
        return p;
    }

    public AccessPolicy access() {
        return access;
    }

    /** With TLS: the context an instance calls its peers with (see {@link PeerHttp}). */
    Optional<SSLContext> peerContext() {
        return peerContext;
    }

    BearerTokens tokens() {
        return tokens;
    }

    /** Checks every watched file now; for tests, which cannot wait for the interval. */
    void refreshNow() {
        watched.forEach(WatchedFile::refresh);
    }

    @Override
    public void close() {
        if (reload != null) {
            reload.stop();
        }
    }

    private static SSLContext context(KeyManager keys, TrustManager trust) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(new KeyManager[] {keys}, trust == null ? null : new TrustManager[] {trust}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK cannot make a TLS context: " + e, e);
        }
    }

    private static Worker startReload(List<WatchedFile<?>> watched, long intervalMillis) {
        Duration interval = Duration.ofMillis(intervalMillis);
        return Worker.loop("weir-http-reload", self -> {
            if (!self.pause(interval)) {
                return; // stopped
            }
            for (WatchedFile<?> f : watched) {
                try {
                    f.refresh();
                } catch (RuntimeException e) {
                    // A bug must not end the worker: the next tick tries again.
                    log.warn("could not check a watched HTTP security file", e);
                }
            }
        });
    }
}
