package io.weir.internal.http;

import io.weir.config.HttpConfig;
import io.weir.config.WeirConfig;
import java.util.Optional;

/**
 * Where the instance's HTTP endpoints listen.
 *
 * @param bindAddress      {@code http.bind.address}
 * @param port             {@code http.port}; 0 picks a free port
 * @param adminBindAddress {@code http.admin.bind.address}
 * @param adminPort        {@code http.admin.port}: with a port, {@code /admin/} and {@code /stores/}
 *                         are served there and not on {@code port}
 */
public record HttpOptions(String bindAddress, int port, String adminBindAddress, Optional<Integer> adminPort) {

    /** Every endpoint on one port. */
    public static HttpOptions onePort(String bindAddress, int port) {
        return new HttpOptions(bindAddress, port, bindAddress, Optional.empty());
    }

    public static HttpOptions of(WeirConfig config) {
        HttpConfig http = config.http();
        return new HttpOptions(http.bindAddress(), http.port(), http.adminBindAddress(), http.adminPort());
    }
}
