package io.weir.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * One answer of the query endpoints: its HTTP status, its JSON body and extra headers (such as
 * {@code Retry-After}). An error answer's body has the shape of every error of the endpoints:
 * {@code {"error": "<word>", "message": "..."}}, plus what the query service adds.
 */
public record QueryAnswer(int status, JsonNode body, Map<String, String> headers) {

    public QueryAnswer {
        headers = Map.copyOf(headers);
    }

    public static QueryAnswer ok(JsonNode body) {
        return new QueryAnswer(200, body, Map.of());
    }

    Reply reply() {
        Reply r = Reply.json(status, body);
        for (Map.Entry<String, String> h : headers.entrySet()) {
            r = r.withHeader(h.getKey(), h.getValue());
        }
        return r;
    }
}
