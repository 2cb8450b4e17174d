package io.weir.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real HTTP service on this machine for tests, samples and benchmarks of asynchronous steps:
 * {@code GET /lookup?key=K} answers {@link #answer(String) answer(K)} after a configurable latency
 * (with jitter), fails a configurable share of calls with 503, and can be made slow, down (every
 * call 503) or hung (no answer) while it runs. It never blocks a thread per request: answers are
 * scheduled, so thousands of calls can be in flight at once.
 *
 * <p>It counts the calls it got and remembers the {@code Idempotency-Key} headers it saw, so a test
 * can tell repeated calls from new ones.
 *
 * <p>Threading: safe for use from any thread.
 */
public final class LookupService implements AutoCloseable {

    /** The request header a caller may set to let the service recognise a repeated call. */
    public static final String IDEMPOTENCY_HEADER = "Idempotency-Key";

    private final HttpServer server;
    private final ScheduledExecutorService timer;
    private volatile long latencyMicros;
    private volatile long jitterMicros;
    private volatile double failureRate;
    private volatile boolean down;
    private volatile boolean hung;
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong repeats = new AtomicLong();
    private final Set<String> idempotencyKeys = ConcurrentHashMap.newKeySet();

    static {
        // The JDK's server writes an answer's headers and body as two packets; without TCP_NODELAY
        // the second waits for the client's delayed acknowledgement, 40 ms and more on Linux, which
        // would add to every call's latency. Read once per JVM, when the first JDK HTTP server
        // starts: a JVM that started one before (Weir's own endpoints) must set it on the command line.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    private LookupService(Duration latency, Duration jitter, double failureRate) {
        latency(latency, jitter);
        this.failureRate = failureRate;
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 4096);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the lookup service", e);
        }
        timer = Executors.newScheduledThreadPool(1, r -> {
            Thread t = new Thread(r, "lookup-service-timer");
            t.setDaemon(true);
            return t;
        });
        server.createContext("/lookup", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "lookup-service");
            t.setDaemon(true);
            return t;
        }));
        server.start();
    }

    /** A service answering after {@code latency} ± {@code jitter}, failing {@code failureRate} of calls. */
    public static LookupService start(Duration latency, Duration jitter, double failureRate) {
        if (failureRate < 0 || failureRate > 1) {
            throw new IllegalArgumentException("failureRate must be in [0, 1], was " + failureRate);
        }
        return new LookupService(latency, jitter, failureRate);
    }

    /** What the service answers for {@code key}: a price in cents, the same for the same key. */
    public static String answer(String key) {
        return Integer.toString(Math.floorMod(key.hashCode() * 31 + 7, 100_000));
    }

    /** The base URI; calls go to {@code uri().resolve("/lookup?key=...")}. */
    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    /** The lookup URI for {@code key}. */
    public URI lookup(String key) {
        return uri().resolve("/lookup?key=" + java.net.URLEncoder.encode(key, StandardCharsets.UTF_8));
    }

    /** Changes how long answers take, for calls that arrive from now on. */
    public void latency(Duration latency, Duration jitter) {
        if (latency.isNegative() || jitter.isNegative() || jitter.compareTo(latency) > 0) {
            throw new IllegalArgumentException("latency " + latency + " and jitter " + jitter
                    + " must not be negative, and the jitter at most the latency");
        }
        this.latencyMicros = latency.toNanos() / 1000;
        this.jitterMicros = jitter.toNanos() / 1000;
    }

    /** While down, every call gets a 503 at once. */
    public void down(boolean down) {
        this.down = down;
    }

    /** While hung, calls get no answer at all (callers time out). */
    public void hung(boolean hung) {
        this.hung = hung;
    }

    /** Calls received. */
    public long calls() {
        return calls.get();
    }

    /** Calls answered with a failure (the random share, or while down). */
    public long failures() {
        return failures.get();
    }

    /** Calls whose idempotency key the service had seen before (retries, calls made again). */
    public long repeats() {
        return repeats.get();
    }

    private void handle(HttpExchange exchange) {
        calls.incrementAndGet();
        String idempotencyKey = exchange.getRequestHeaders().getFirst(IDEMPOTENCY_HEADER);
        if (idempotencyKey != null && !idempotencyKeys.add(idempotencyKey)) {
            repeats.incrementAndGet();
        }
        if (hung) {
            return; // never answered; the caller's time-out ends it
        }
        String key = keyOf(exchange.getRequestURI());
        boolean fail = down || (failureRate > 0 && ThreadLocalRandom.current().nextDouble() < failureRate);
        if (down) {
            respond(exchange, 503, "down");
            failures.incrementAndGet();
            return;
        }
        long jitter = jitterMicros == 0 ? 0 : ThreadLocalRandom.current().nextLong(-jitterMicros, jitterMicros + 1);
        long delay = Math.max(0, latencyMicros + jitter);
        timer.schedule(
                () -> {
                    if (fail) {
                        failures.incrementAndGet();
                        respond(exchange, 503, "try again");
                    } else {
                        respond(exchange, 200, key == null ? "" : answer(key));
                    }
                },
                delay,
                TimeUnit.MICROSECONDS);
    }

    private static String keyOf(URI uri) {
        String query = uri.getRawQuery();
        if (query == null) {
            return null;
        }
        for (String part : query.split("&")) {
            if (part.startsWith("key=")) {
                return URLDecoder.decode(part.substring(4), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static void respond(HttpExchange exchange, int status, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        try (exchange) {
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
        } catch (IOException e) {
            // the caller went away (timed out): nothing to answer
        }
    }

    @Override
    public void close() {
        server.stop(0);
        timer.shutdownNow();
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
