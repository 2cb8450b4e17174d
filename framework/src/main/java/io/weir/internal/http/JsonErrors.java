package io.weir.internal.http;

import io.weir.internal.json.Json;

/**
 * The error answers of the ops endpoints, all of one shape:
 * {@code {"error":"not_found","message":"..."}}, where {@code error} is a stable word a script
 * can test and {@code message} one sentence for a person.
 */
final class JsonErrors {

    private JsonErrors() {}

    static Reply notFound(String path, java.util.Collection<String> known) {
        return error(404, "not_found", "no endpoint at " + path + "; the endpoints are " + String.join(", ", known));
    }

    /** A 405 with the {@code Allow} header HTTP requires. */
    static Reply methodNotAllowed(String method, String path, String allow) {
        return error(405, "method_not_allowed", method + " is not allowed on " + path + "; use " + allow)
                .withHeader("Allow", allow);
    }

    static Reply badRequest(String message) {
        return error(400, "bad_request", message);
    }

    /** A 401 with the {@code WWW-Authenticate} challenge RFC 6750 asks for. */
    static Reply unauthorized(String message, boolean invalidToken) {
        return error(401, "unauthorized", message)
                .withHeader("WWW-Authenticate", invalidToken ? "Bearer error=\"invalid_token\"" : "Bearer");
    }

    static Reply forbidden(String message) {
        return error(403, "forbidden", message);
    }

    static Reply conflict(String message) {
        return error(409, "conflict", message);
    }

    static Reply internalError(String method, String path, Throwable cause) {
        return error(
                500,
                "internal_error",
                "the instance failed to answer " + method + " " + path + " ("
                        + cause.getClass().getSimpleName()
                        + (cause.getMessage() == null ? "" : ": " + cause.getMessage())
                        + "); see its log");
    }

    /** An error of any status with its stable word, for the query endpoints' answers. */
    static Reply error(int status, String error, String message) {
        var body = Json.object().put("error", error).put("message", message);
        return Reply.json(status, body);
    }
}
