package io.weir.internal.http.security;

import java.net.http.HttpClient;
import java.util.Objects;

/**
 * A JDK HTTP client built on its first use. Building one costs a cold JVM a fifth to a third of a
 * second (measured on a restart, {@code restart-1m}), which a start should not pay for queries it may
 * never forward. Every caller gets the same client. Thread-safe.
 */
public final class LazyHttpClient {

    private final HttpClient.Builder builder;
    private volatile HttpClient client;

    /** {@code builder} is used once, on the first {@link #get()}; do not change it after passing it. */
    public LazyHttpClient(HttpClient.Builder builder) {
        this.builder = Objects.requireNonNull(builder, "builder");
    }

    public HttpClient get() {
        HttpClient built = client;
        if (built == null) {
            synchronized (this) {
                built = client;
                if (built == null) {
                    built = builder.build();
                    client = built;
                }
            }
        }
        return built;
    }
}
