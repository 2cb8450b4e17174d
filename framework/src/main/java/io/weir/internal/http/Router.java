package io.weir.internal.http;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.weir.common.internal.Deadline;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends each request to the endpoint registered for its exact path and writes the answer. Owns
 * what every response shares: JSON errors for unknown paths (404), wrong methods (405, with
 * {@code Allow}) and failing endpoints (500), {@code Cache-Control: no-store}, an exact
 * {@code Content-Length}, and {@code HEAD} answered as {@code GET} without a body.
 *
 * <p>Threading: routes are registered before the server starts (the map is then only read);
 * {@link #handle} runs on the server's executor threads, any number at once.
 */
final class Router implements HttpHandler {

    /** Answers one request; may throw, which the router turns into a 500. */
    @FunctionalInterface
    interface Endpoint {
        Reply answer(Request request);
    }

    private record Route(String method, Endpoint endpoint) {

        String allow() {
            return method.equals("GET") ? "GET, HEAD" : method;
        }

        boolean accepts(String requested) {
            return requested.equals(method) || (requested.equals("HEAD") && method.equals("GET"));
        }
    }

    private static final Logger log = LoggerFactory.getLogger(Router.class);

    private final Map<String, Route> routes = new LinkedHashMap<>();
    /** Routes for every path under a prefix ({@code /stores/}), tried when no exact path matches. */
    private final Map<String, Route> prefixes = new LinkedHashMap<>();

    private final ThrottledWarning failures = new ThrottledWarning(log, TimeUnit.MINUTES.toNanos(1), System::nanoTime);
    private int inFlight;

    Router get(String path, Endpoint endpoint) {
        routes.put(path, new Route("GET", endpoint));
        return this;
    }

    /** {@code GET} for every path that starts with {@code prefix}; the endpoint reads the rest. */
    Router getUnder(String prefix, Endpoint endpoint) {
        prefixes.put(prefix, new Route("GET", endpoint));
        return this;
    }

    Router post(String path, Endpoint endpoint) {
        routes.put(path, new Route("POST", endpoint));
        return this;
    }

    @Override
    public void handle(HttpExchange exchange) {
        enter();
        try (exchange) {
            Request request = Request.of(exchange.getRequestMethod(), exchange.getRequestURI());
            Reply reply = answer(request);
            write(exchange, reply, request.method().equals("HEAD"));
        } catch (IOException e) {
            // The client went away or the server is closing: nobody is left to answer.
            log.debug(
                    "could not answer {} {}: {}", exchange.getRequestMethod(), exchange.getRequestURI(), e.toString());
        } finally {
            exit();
        }
    }

    Reply answer(Request request) {
        Route route = routes.get(request.path());
        if (route == null) {
            route = prefixes.entrySet().stream()
                    .filter(e -> request.path().startsWith(e.getKey()))
                    .map(Map.Entry::getValue)
                    .findFirst()
                    .orElse(null);
        }
        if (route == null) {
            java.util.List<String> known = new java.util.ArrayList<>(routes.keySet());
            prefixes.keySet().forEach(p -> known.add(p + "..."));
            return JsonErrors.notFound(request.path(), known);
        }
        if (!route.accepts(request.method())) {
            return JsonErrors.methodNotAllowed(request.method(), request.path(), route.allow());
        }
        try {
            return route.endpoint().answer(request);
        } catch (VirtualMachineError fatal) {
            throw fatal;
        } catch (Throwable e) {
            // Anything else thrown by the view is a bug or a transient failure of the instance, not
            // a reason to lose this executor thread: answer 500 and keep serving.
            failures.warn(
                    request.path(), "HTTP " + request.method() + " " + request.path() + " failed; answering 500", e);
            return JsonErrors.internalError(request.method(), request.path(), e);
        }
    }

    /**
     * A router with the routes of this one whose path passes {@code paths}, for a server that
     * answers part of the endpoints (the admin port).
     */
    Router select(Predicate<String> paths) {
        Router selected = new Router();
        routes.forEach((path, route) -> {
            if (paths.test(path)) {
                selected.routes.put(path, route);
            }
        });
        prefixes.forEach((prefix, route) -> {
            if (paths.test(prefix)) {
                selected.prefixes.put(prefix, route);
            }
        });
        return selected;
    }

    /** Writes {@code reply} as every response of the server is written; also for replies made before routing. */
    static void write(HttpExchange exchange, Reply reply, boolean head) throws IOException {
        Headers headers = exchange.getResponseHeaders();
        headers.set("Content-Type", reply.contentType());
        headers.set("Cache-Control", "no-store");
        headers.set("X-Content-Type-Options", "nosniff");
        reply.headers().forEach(headers::set);
        byte[] body = reply.body();
        if (head || body.length == 0) {
            // The JDK server refuses a length with HEAD (and 0 would mean chunked): -1 sends no
            // body, and the header tells what GET would have sent.
            headers.set("Content-Length", Integer.toString(body.length));
            exchange.sendResponseHeaders(reply.status(), -1);
            return;
        }
        exchange.sendResponseHeaders(reply.status(), body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private synchronized void enter() {
        inFlight++;
    }

    private synchronized void exit() {
        inFlight--;
        notifyAll();
    }

    /** Waits until no request is being answered, at most {@code timeoutNanos}; true if idle. */
    synchronized boolean awaitIdle(long timeoutNanos) throws InterruptedException {
        Deadline deadline = Deadline.after(Duration.ofNanos(timeoutNanos));
        while (inFlight > 0) {
            if (deadline.expired()) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, deadline.remaining().toNanos());
        }
        return true;
    }
}
