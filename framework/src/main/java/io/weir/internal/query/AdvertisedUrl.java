package io.weir.internal.query;

import io.weir.config.WeirConfig;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The base URL an instance advertises for its query endpoints (on {@code http.admin.port} when
 * set, else {@code http.port}): {@code http.advertised.url} when set, else
 * {@code <http|https>://<host>:<port>} with the bind address when it names one interface, or the
 * machine's host name when the server listens on all of them (in a container, its name on the
 * container network; in Kubernetes, set the setting to the pod's stable DNS name, as the pod's
 * host name alone does not resolve from other pods).
 */
public final class AdvertisedUrl {

    private AdvertisedUrl() {}

    /**
     * @param scheme {@code http}, or {@code https} with TLS
     * @param port   the port the query endpoints listen on (the chosen one when it was 0)
     */
    public static String of(WeirConfig config, String scheme, int port) {
        String bind = config.http().adminPort().isPresent()
                ? config.http().adminBindAddress()
                : config.http().bindAddress();
        return config.http()
                .advertisedUrl()
                .map(u -> strip(u.toString()))
                .orElseGet(() -> scheme + "://" + host(bind) + ":" + port);
    }

    private static String host(String bindAddress) {
        if (!bindAddress.equals("0.0.0.0") && !bindAddress.equals("::") && !bindAddress.equals("[::]")) {
            return bindAddress.contains(":") && !bindAddress.startsWith("[") ? "[" + bindAddress + "]" : bindAddress;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    private static String strip(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
