package io.weir.internal.http.security;

import io.weir.config.HttpConfig;
import io.weir.config.WeirConfig;
import io.weir.internal.config.HttpSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The security settings of the HTTP endpoints, as {@link HttpSecurity#load} reads them.
 * {@link #toString} shows no secret.
 *
 * @param keyStore       {@code http.tls.keystore.*}; empty for plain HTTP
 * @param trustStore     {@code http.tls.truststore.*}
 * @param clientAuth     {@code http.tls.client.auth}
 * @param tokens         {@code http.auth.token} (secrets)
 * @param tokenFile      {@code http.auth.token.file}
 * @param allEndpoints   {@code http.auth.scope=all}
 * @param open           {@code http.admin.open}
 * @param reloadInterval {@code http.reload.interval.ms}
 */
public record HttpSecurityOptions(
        Optional<StoreFile> keyStore,
        Optional<StoreFile> trustStore,
        HttpSettings.ClientAuth clientAuth,
        List<String> tokens,
        Optional<Path> tokenFile,
        boolean allEndpoints,
        boolean open,
        Duration reloadInterval) {

    public HttpSecurityOptions {
        tokens = List.copyOf(tokens);
    }

    /** Plain HTTP without credentials: protected endpoints answer loopback callers only. */
    public static HttpSecurityOptions none() {
        return new HttpSecurityOptions(
                Optional.empty(),
                Optional.empty(),
                HttpSettings.ClientAuth.NONE,
                List.of(),
                Optional.empty(),
                false,
                false,
                Duration.ofSeconds(5));
    }

    public static HttpSecurityOptions of(WeirConfig config) {
        HttpConfig http = config.http();
        return new HttpSecurityOptions(
                http.tlsKeyStorePath()
                        .map(p -> new StoreFile(
                                HttpSettings.HTTP_TLS_KEYSTORE_PATH.name(),
                                p,
                                http.tlsKeyStoreType(),
                                http.tlsKeyStorePassword())),
                http.tlsTrustStorePath()
                        .map(p -> new StoreFile(
                                HttpSettings.HTTP_TLS_TRUSTSTORE_PATH.name(),
                                p,
                                http.tlsTrustStoreType(),
                                http.tlsTrustStorePassword())),
                HttpSettings.ClientAuth.valueOf(http.tlsClientAuth().toUpperCase(Locale.ROOT)),
                http.authTokens(),
                http.authTokenFile(),
                http.authAllEndpoints(),
                http.adminOpen(),
                http.reloadInterval());
    }

    @Override
    public String toString() {
        return "HttpSecurityOptions[keyStore=" + keyStore + ", trustStore=" + trustStore + ", clientAuth=" + clientAuth
                + ", tokens=" + (tokens.isEmpty() ? "none" : "[hidden]") + ", tokenFile=" + tokenFile
                + ", allEndpoints=" + allEndpoints + ", open=" + open + ", reloadInterval=" + reloadInterval + "]";
    }
}
