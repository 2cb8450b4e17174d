package io.weir.internal.http;

import io.weir.internal.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One HTTP answer, fully rendered before a byte is written: the status is decided only once the
 * view has answered, so a view that throws turns into a clean 500 rather than a half-written 200.
 *
 * @param headers extra response headers (the router adds {@code Content-Type},
 *                {@code Cache-Control} and the length itself)
 */
record Reply(int status, String contentType, byte[] body, Map<String, String> headers) {

    static final String JSON = "application/json";
    static final String TEXT = "text/plain; charset=utf-8";

    Reply {
        headers = Map.copyOf(headers);
    }

    /** Indented ({@link Json#pretty}): the endpoints' readers are mostly operators with curl; bodies are small. */
    static Reply json(int status, Object value) {
        return new Reply(status, JSON, Json.prettyBytes(value), Map.of());
    }

    static Reply text(int status, String contentType, String body) {
        return new Reply(status, contentType, body.getBytes(StandardCharsets.UTF_8), Map.of());
    }

    Reply withHeader(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(name, value);
        return new Reply(status, contentType, body, more);
    }
}
