package io.weir.internal.http;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an endpoint needs of a request: the method, the decoded path, the path as sent (where a
 * {@code %2F} in a segment is still not a separator: keys in query paths may contain slashes) and
 * the query parameters (the first value of each; the endpoints take no repeated parameters).
 */
record Request(String method, String path, String rawPath, Map<String, String> query) {

    Request {
        query = Map.copyOf(query);
    }

    static Request of(String method, URI uri) {
        Map<String, String> query = new LinkedHashMap<>();
        String raw = uri.getRawQuery();
        if (raw != null && !raw.isEmpty()) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                String name = decode(eq < 0 ? pair : pair.substring(0, eq));
                String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
                if (!name.isEmpty()) {
                    query.putIfAbsent(name, value);
                }
            }
        }
        return new Request(
                method,
                uri.getPath() == null ? "/" : uri.getPath(),
                uri.getRawPath() == null ? "/" : uri.getRawPath(),
                query);
    }

    static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException badEscape) {
            return s; // a malformed %-escape is kept as typed; the endpoint rejects the value if it matters
        }
    }
}
