package io.weir.internal.http;

import io.weir.internal.http.StoreQueryView.KeyQuery;
import io.weir.internal.http.StoreQueryView.Target;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Semaphore;

/**
 * The query endpoints under {@code /stores/}: {@code /stores/{store}/keys} (a scan),
 * {@code /stores/{store}/keys/{key}} and, for window
 * and session stores, {@code .../windows} and {@code .../sessions}. Path segments are
 * percent-decoded one by one, so a key may contain {@code /} as {@code %2F}.
 */
final class QueryEndpoints {

    static final String PREFIX = "/stores/";
    /**
     * Queries answered at once. A forwarded query holds its thread while the peer answers (up to
     * the forward timeout if the peer is cut off); past this many, a query gets 503 at once
     * rather than take the threads probes and scrapes need.
     */
    static final int PERMITS = 6;

    private final StoreQueryView view;
    private final Semaphore permits = new Semaphore(PERMITS);

    QueryEndpoints(StoreQueryView view) {
        this.view = view;
    }

    Router addTo(Router router) {
        return router.getUnder(PREFIX, this::answer);
    }

    private Reply answer(Request request) {
        if (!permits.tryAcquire()) {
            return JsonErrors.error(503, "busy", "the instance is answering " + PERMITS + " queries already; retry")
                    .withHeader("Retry-After", "1");
        }
        try {
            return route(request);
        } finally {
            permits.release();
        }
    }

    private Reply route(Request request) {
        String rest = request.rawPath().substring(PREFIX.length());
        String[] parts = rest.split("/", -1);
        if (parts.length == 2 && parts[1].equals("keys") && !parts[0].isEmpty()) {
            return view.scan(segment(parts[0]), request.query()).reply();
        }
        if (parts.length < 3
                || parts.length > 4
                || !parts[1].equals("keys")
                || parts[0].isEmpty()
                || parts[2].isEmpty()) {
            return JsonErrors.error(
                    404,
                    "not_found",
                    "no endpoint at " + request.path() + "; scan a store with"
                            + " /stores/{store}/keys, query a key with /stores/{store}/keys/{key}, its windows with /stores/{store}/keys/{key}/windows and its"
                            + " sessions with /stores/{store}/keys/{key}/sessions");
        }
        Target target = Target.VALUE;
        if (parts.length == 4) {
            switch (parts[3]) {
                case "windows" -> target = Target.WINDOWS;
                case "sessions" -> target = Target.SESSIONS;
                default -> {
                    return JsonErrors.error(
                            404,
                            "not_found",
                            "no endpoint at " + request.path() + "; after the key"
                                    + " comes nothing, /windows or /sessions");
                }
            }
        }
        return view.answer(new KeyQuery(segment(parts[0]), segment(parts[2]), target, request.query()))
                .reply();
    }

    /** A path segment decoded: {@code %XX} escapes only ({@code +} is a plus in a path). */
    private static String segment(String raw) {
        try {
            return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException badEscape) {
            return raw;
        }
    }
}
