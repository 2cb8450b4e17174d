package io.weir.internal.query;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weir.internal.assign.TaskOwners;
import io.weir.internal.http.PeerClient;
import io.weir.internal.http.QueryAnswer;
import io.weir.internal.json.Json;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * What the key and the scan queries share: their error answers, their parameters, and asking a
 * peer instance.
 */
final class Answers {

    static final String RETRY_AFTER_SECONDS = "1";

    private Answers() {}

    /** A request that cannot be answered as asked: a 400 with the message. */
    static final class BadQuery extends RuntimeException {
        BadQuery(String message) {
            super(message, null, false, false);
        }
    }

    /** 503 with {@code Retry-After}: the state asked for has no instance to answer for it now. */
    static QueryAnswer unavailable(String message, String task) {
        ObjectNode body = errorBody("unavailable", message);
        if (task != null) {
            body.put("task", task);
        }
        return new QueryAnswer(503, body, Map.of("Retry-After", RETRY_AFTER_SECONDS));
    }

    static QueryAnswer error(int status, String error, String message) {
        return new QueryAnswer(status, errorBody(error, message), Map.of());
    }

    static ObjectNode errorBody(String error, String message) {
        ObjectNode body = Json.object();
        body.put("error", error).put("message", message);
        return body;
    }

    /** {@code limit}: a positive number, at most {@code max}; {@code absent} when not given. */
    static int limit(Map<String, String> params, int absent, int max) {
        String v = params.get("limit");
        if (v == null) {
            return absent;
        }
        try {
            int n = Integer.parseInt(v);
            if (n > 0 && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new BadQuery("limit must be a number from 1 to " + max + ", not '" + v + "'");
    }

    static Staleness staleness(Map<String, String> params) {
        try {
            return Staleness.of(params);
        } catch (IllegalArgumentException e) {
            throw new BadQuery(e.getMessage());
        }
    }

    /** {@code path} with {@code params} (but {@code forwarded}) and {@code forwarded=true}: for a peer, answered there or not at all. */
    static String forwarded(String path, Map<String, String> params) {
        StringJoiner query = new StringJoiner("&", "?", "");
        new TreeMap<>(params).forEach((k, v) -> {
            if (!k.equals("forwarded")) {
                query.add(encode(k) + "=" + encode(v));
            }
        });
        query.add("forwarded=true");
        return path + query;
    }

    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /**
     * Asks {@code instance} for {@code pathAndQuery}; null (and a problem noted) if it advertises
     * no endpoint or did not answer. A 503 is returned, with its reason noted.
     */
    static QueryAnswer ask(
            PeerClient peers, TaskOwners owners, String instance, String pathAndQuery, List<String> problems) {
        String endpoint = owners.endpointOf(instance);
        if (endpoint.isEmpty()) {
            problems.add("instance " + instance + " advertises no HTTP endpoint (set http.advertised.url on it)");
            return null;
        }
        try {
            QueryAnswer a = peers.get(endpoint, pathAndQuery);
            if (a.status() == 503) {
                problems.add("instance " + instance + " at " + endpoint + " cannot answer ("
                        + a.body().path("message").asText() + ")");
            }
            return a;
        } catch (UncheckedIOException e) {
            problems.add("instance " + instance + " at " + endpoint + " did not answer (" + e.getMessage() + ")");
            return null;
        }
    }
}
