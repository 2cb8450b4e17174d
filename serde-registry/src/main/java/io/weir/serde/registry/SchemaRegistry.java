package io.weir.serde.registry;

import io.weir.errors.ConfigException;
import io.weir.serde.registry.internal.RegistryClient;
import io.weir.serde.registry.internal.SchemaCache;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A schema registry that speaks Confluent's REST API (Confluent Schema Registry, Apicurio Registry
 * at {@code /apis/ccompat/v7}, Karapace), shared by every registry serde of an application.
 *
 * <p>Guarantees: a schema is fetched once per id and registered or looked up once per subject for
 * the life of the process, never per record; a request that fails on the network or with a server
 * error is retried with a growing pause over every address until {@link Builder#retryTimeout}
 * passes, and then fails with {@link io.weir.errors.ServiceUnavailableException} naming the
 * addresses (the instance stops; no record is dead-lettered for it). Thread-safe.
 */
public final class SchemaRegistry {

    private final SchemaCache cache;

    private SchemaRegistry(SchemaCache cache) {
        this.cache = cache;
    }

    /** A registry at {@code url} (several, comma-separated, are tried in turn), with the defaults. */
    public static SchemaRegistry at(String url) {
        return builder().url(url).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Requests sent to the registry so far (retries count): what "once per schema" is measured by. */
    public long requests() {
        return cache.client().requests();
    }

    SchemaCache cache() {
        return cache;
    }

    @Override
    public String toString() {
        return "SchemaRegistry" + cache.client().addresses();
    }

    /** Options of a {@link SchemaRegistry}; {@link #build} checks them and names the one that is wrong. */
    public static final class Builder {
        private final List<String> urls = new ArrayList<>();
        private Duration requestTimeout = Duration.ofSeconds(10);
        private Duration retryTimeout = Duration.ofSeconds(30);
        private Duration retryBackoff = Duration.ofMillis(100);
        private final Map<String, String> headers = new LinkedHashMap<>();

        private Builder() {}

        /** The registry's base address, as {@code schema.registry.url}; comma-separated addresses are tried in turn. */
        public Builder url(String url) {
            Objects.requireNonNull(url, "url");
            for (String u : url.split(",")) {
                if (!u.isBlank()) {
                    urls.add(u.trim());
                }
            }
            return this;
        }

        /** How long one request may take (10 s by default). */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** How long failing requests are retried before the serde gives up (30 s by default). */
        public Builder retryTimeout(Duration timeout) {
            this.retryTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** The first pause between retries; it doubles up to 2 s (100 ms by default). */
        public Builder retryBackoff(Duration backoff) {
            this.retryBackoff = Objects.requireNonNull(backoff, "backoff");
            return this;
        }

        /** HTTP basic authentication, as {@code basic.auth.user.info}. */
        public Builder basicAuth(String user, String password) {
            String token = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
            headers.put("Authorization", "Basic " + token);
            return this;
        }

        /** A bearer token sent with every request. */
        public Builder bearerToken(String token) {
            headers.put("Authorization", "Bearer " + Objects.requireNonNull(token, "token"));
            return this;
        }

        /**
         * Checks the options and makes the registry; nothing is sent until a serde needs a schema.
         *
         * @throws ConfigException naming the option that is wrong
         */
        public SchemaRegistry build() {
            if (urls.isEmpty()) {
                throw new ConfigException("schema.registry.url", "no address given (for example http://registry:8081)");
            }
            List<URI> parsed = new ArrayList<>();
            for (String u : urls) {
                try {
                    URI uri = new URI(u);
                    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                        throw new URISyntaxException(u, "not an http or https address with a host");
                    }
                    parsed.add(uri);
                } catch (URISyntaxException e) {
                    throw new ConfigException("schema.registry.url", "'" + u + "' is not valid: " + e.getReason());
                }
            }
            positive("schema.registry.request.timeout", requestTimeout);
            positive("schema.registry.retry.backoff", retryBackoff);
            if (retryTimeout.isNegative()) {
                throw new ConfigException("schema.registry.retry.timeout", "must not be negative: " + retryTimeout);
            }
            return new SchemaRegistry(
                    new SchemaCache(new RegistryClient(parsed, requestTimeout, retryTimeout, retryBackoff, headers)));
        }

        private static void positive(String name, Duration d) {
            if (d.isZero() || d.isNegative()) {
                throw new ConfigException(name, "must be positive: " + d);
            }
        }
    }
}
