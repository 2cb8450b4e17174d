package io.weir.config;

import io.weir.internal.config.HttpSettings;
import io.weir.internal.config.Setting;
import io.weir.internal.config.SettingValues;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The {@code http.*} settings of a {@link WeirConfig} ({@link WeirConfig#http()}): the instance's
 * HTTP server (health, metrics, topology, queries, admin), its TLS and its bearer tokens. Validated
 * with the rest of the configuration by {@link WeirConfig.Builder#build()}; immutable.
 */
public final class HttpConfig {

    private final SettingValues settings;

    HttpConfig(SettingValues settings) {
        this.settings = settings;
    }

    /** Port of the instance's HTTP server: 0 picks a free port, -1 means no server. */
    public int port() {
        return settings.get(HttpSettings.HTTP_PORT);
    }

    /** Address the HTTP server listens on. */
    public String bindAddress() {
        return settings.get(HttpSettings.HTTP_BIND_ADDRESS);
    }

    /** {@code http.advertised.url}: where other instances reach this one's HTTP server; empty: derived. */
    public java.util.Optional<java.net.URI> advertisedUrl() {
        return settings.get(HttpSettings.HTTP_ADVERTISED_URL);
    }

    /** With a port: {@code /admin/} and {@code /stores/} are served there instead of on {@link #port()}. */
    public Optional<Integer> adminPort() {
        return settings.get(HttpSettings.HTTP_ADMIN_PORT);
    }

    /** Address the admin port listens on. */
    public String adminBindAddress() {
        return settings.get(HttpSettings.HTTP_ADMIN_BIND_ADDRESS);
    }

    /** With a path: the HTTP server speaks HTTPS with the key and certificate of this key store. */
    public Optional<Path> tlsKeyStorePath() {
        return settings.get(HttpSettings.HTTP_TLS_KEYSTORE_PATH);
    }

    /** {@code PKCS12} or {@code JKS}. */
    public String tlsKeyStoreType() {
        return settings.get(HttpSettings.HTTP_TLS_KEYSTORE_TYPE).name();
    }

    /** A secret: never log it. */
    public String tlsKeyStorePassword() {
        return settings.get(HttpSettings.HTTP_TLS_KEYSTORE_PASSWORD);
    }

    /** With a path: the CA certificates client certificates and peers' server certificates chain to. */
    public Optional<Path> tlsTrustStorePath() {
        return settings.get(HttpSettings.HTTP_TLS_TRUSTSTORE_PATH);
    }

    /** {@code PKCS12} or {@code JKS}. */
    public String tlsTrustStoreType() {
        return settings.get(HttpSettings.HTTP_TLS_TRUSTSTORE_TYPE).name();
    }

    /** A secret: never log it. */
    public String tlsTrustStorePassword() {
        return settings.get(HttpSettings.HTTP_TLS_TRUSTSTORE_PASSWORD);
    }

    /** {@code none}, {@code optional} or {@code required}: whether the server asks clients for a certificate. */
    public String tlsClientAuth() {
        return Setting.spelling(settings.get(HttpSettings.HTTP_TLS_CLIENT_AUTH));
    }

    /** Bearer tokens given inline; secrets: never log them. */
    public List<String> authTokens() {
        return settings.get(HttpSettings.HTTP_AUTH_TOKEN);
    }

    /** With a path: a file of bearer tokens, one a line, re-read when it changes. */
    public Optional<Path> authTokenFile() {
        return settings.get(HttpSettings.HTTP_AUTH_TOKEN_FILE);
    }

    /** True when every endpoint but {@code /health/} needs credentials; false: {@code /admin/} and {@code /stores/}. */
    public boolean authAllEndpoints() {
        return settings.get(HttpSettings.HTTP_AUTH_SCOPE) == HttpSettings.AuthScope.ALL;
    }

    /** True when the protected endpoints answer anyone without credentials. */
    public boolean adminOpen() {
        return settings.get(HttpSettings.HTTP_ADMIN_OPEN);
    }

    /** How often the key store, trust store and token file are checked for changes. */
    public Duration reloadInterval() {
        return settings.get(HttpSettings.HTTP_RELOAD_INTERVAL_MS);
    }
}
