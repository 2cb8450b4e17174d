package io.weir.internal.http;

import com.sun.net.httpserver.HttpServer;
import io.weir.errors.ConfigException;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The HTTP server of one instance: {@code /health/live}, {@code /health/ready}, {@code /metrics},
 * {@code /topology}, {@code /info} and {@code POST /admin/leave}, rendered from an
 * {@link InstanceView}. The JDK's {@code HttpServer}, no web framework.
 *
 * <p>Threading: requests are answered on the server's own two daemon threads
 * ({@code weir-http-1}, {@code weir-http-2}), never on a stream thread, and the view promises not
 * to wait for one; so a busy or stuck stream thread cannot stall a probe, and a slow scrape cannot
 * slow processing. One slow request leaves the other thread free. None of the server's threads
 * keeps the JVM alive. {@link #start} returns once the server accepts connections;
 * {@link #close} may be called from any thread, more than once, and returns within about a second.
 */
public final class OpsHttpServer implements AutoCloseable {

    private static final int THREADS = 2;

    static {
        // The JDK server writes a response's headers and body in two writes; with Nagle's algorithm
        // on, the body waits for the client's delayed ACK of the headers (40 ms on Linux), which made
        // every query answer take 40+ ms. Read once, when the first server is created.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    /**
     * Requests waiting for a thread. Bounded so that a view which breaks its promise and hangs
     * makes further requests fail at once (the JDK server closes the connection it cannot hand
     * over), which a probe reads as "not healthy", instead of queueing every probe and scrape in
     * memory to be answered minutes late. 32 absorbs bursts (several Prometheus servers, probes
     * and a person with curl) that two threads clear in milliseconds.
     */
    private static final int QUEUE = 32;

    /** How long {@link #close} lets requests already being answered finish. */
    private static final long DRAIN_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private final HttpServer server;
    private final ThreadPoolExecutor executor;
    private final Router router;
    private final AtomicBoolean closed = new AtomicBoolean();

    private OpsHttpServer(HttpServer server, ThreadPoolExecutor executor, Router router) {
        this.server = server;
        this.executor = executor;
        this.router = router;
    }

    /**
     * Binds and starts a server answering from {@code view}.
     *
     * @param bindAddress {@code http.bind.address}, a host name or IP ({@code 0.0.0.0} for every
     *                    interface)
     * @param port        {@code http.port}; 0 picks any free port (see {@link #port()})
     * @throws ConfigException naming {@code http.port} if the port is out of range or taken, or
     *                         {@code http.bind.address} if the address cannot be bound here
     */
    public static OpsHttpServer start(String bindAddress, int port, InstanceView view) {
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(view, "view");
        InetSocketAddress address = address(bindAddress, port);
        HttpServer server = bind(address, bindAddress, port);
        ThreadPoolExecutor executor = executor();
        try {
            Router router = new OpsEndpoints(view).routes();
            server.createContext("/", router);
            server.setExecutor(executor);
            // The JDK's dispatcher thread inherits daemon status from the thread that starts it;
            // starting it on one of our daemon threads keeps a forgotten server from holding the
            // JVM open after the application stopped.
            executor.submit(server::start).get();
            return new OpsHttpServer(server, executor, router);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abandon(server, executor);
            throw new IllegalStateException("interrupted while starting the HTTP server", e);
        } catch (ExecutionException e) {
            abandon(server, executor);
            throw new IllegalStateException("could not start the HTTP server on " + bindAddress + ":" + port + ": "
                    + e.getCause(), e.getCause());
        } catch (RuntimeException e) {
            abandon(server, executor);
            throw e;
        }
    }

    private static void abandon(HttpServer server, ThreadPoolExecutor executor) {
        server.stop(0);
        executor.shutdownNow();
    }

    /** The port the server listens on; the chosen one when started with port 0. */
    public int port() {
        return server.getAddress().getPort();
    }

    /**
     * Stops the server: lets requests being answered finish for up to half a second, then closes
     * every connection and the threads. Returns within about a second; idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            // A 202 for /admin/leave may be on its way out while the instance shuts down.
            router.awaitIdle(DRAIN_NANOS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            server.stop(0);
            executor.shutdownNow();
        }
        try {
            executor.awaitTermination(DRAIN_NANOS, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static InetSocketAddress address(String bindAddress, int port) {
        if (port < 0 || port > 65_535) {
            throw new ConfigException("http.port", port + " is not a port to listen on; use 1-65535, 0 for any"
                    + " free port, or -1 to disable the HTTP server (which then must not be started)");
        }
        InetSocketAddress address = new InetSocketAddress(bindAddress, port);
        if (address.isUnresolved()) {
            throw new ConfigException("http.bind.address", "'" + bindAddress + "' does not resolve to an address"
                    + " of this host; use an IP of one of its interfaces, 0.0.0.0 for all, or 127.0.0.1 for"
                    + " local access only");
        }
        return address;
    }

    private static HttpServer bind(InetSocketAddress address, String bindAddress, int port) {
        try {
            return HttpServer.create(address, 0);
        } catch (BindException e) {
            String where = bindAddress + ":" + port;
            ConfigException error = port != 0 && String.valueOf(e.getMessage()).contains("in use")
                    ? new ConfigException("http.port", "cannot listen on " + where + " (http.bind.address="
                            + bindAddress + ", http.port=" + port + "): the port is already in use, maybe by"
                            + " another instance on this host; choose another http.port, http.port=0 for any"
                            + " free port, or http.port=-1 to disable the HTTP server")
                    : new ConfigException("http.bind.address", "cannot listen on " + where + ": " + e.getMessage()
                            + "; set http.bind.address to an address of this host (0.0.0.0 for all"
                            + " interfaces), or http.port=-1 to disable the HTTP server");
            error.initCause(e);
            throw error;
        } catch (IOException e) {
            throw new IllegalStateException("could not open the HTTP server on " + bindAddress + ":" + port + ": "
                    + e.getMessage(), e);
        }
    }

    private static ThreadPoolExecutor executor() {
        AtomicInteger count = new AtomicInteger();
        ThreadPoolExecutor executor = new ThreadPoolExecutor(THREADS, THREADS, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(QUEUE), runnable -> {
                    Thread t = new Thread(runnable, "weir-http-" + count.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        return executor;
    }
}
