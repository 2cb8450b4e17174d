package io.weir.internal.http;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.weir.common.internal.Deadline;
import io.weir.errors.ConfigException;
import io.weir.internal.http.security.AccessPolicy;
import io.weir.internal.http.security.HttpSecurity;
import io.weir.internal.http.security.HttpSecurityOptions;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;

/**
 * The HTTP server of one instance: {@code /health/live}, {@code /health/ready}, {@code /metrics},
 * {@code /topology}, {@code /info} and {@code POST /admin/leave}, rendered from an
 * {@link InstanceView}. The JDK's {@code HttpServer}, no web framework; its {@code HttpsServer}
 * when {@code http.tls.keystore.path} is set. Every request passes the {@code AccessFilter} first,
 * which protects {@code /admin/} and {@code /stores/} (see {@code AccessPolicy}). With
 * {@code http.admin.port}, those two are served on a second port and the first serves the rest;
 * both share the threads below.
 *
 * <p>Threading: requests are answered on the server's own daemon threads ({@code weir-http-N};
 * queries may hold all but two of them, see {@link #THREADS}), never on a stream thread, and the view promises not
 * to wait for one; so a busy or stuck stream thread cannot stall a probe, and a slow scrape cannot
 * slow processing. One slow request leaves the other thread free. None of the server's threads
 * keeps the JVM alive. {@link #start} returns once the server accepts connections;
 * {@link #close} may be called from any thread, more than once, and returns within about a second.
 */
public final class OpsHttpServer implements AutoCloseable {

    /**
     * The server's threads: two for probes, scrapes and admin, and {@link QueryEndpoints#PERMITS}
     * more that queries may hold (a forwarded query waits for its peer), so however the queries
     * go, two threads stay for the rest.
     */
    static final int THREADS = 2 + QueryEndpoints.PERMITS;

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

    /** One listening port: {@code http.port}, or {@code http.admin.port}. */
    private record Listener(HttpServer server, Router router) {}

    /** The settings a port is configured by, named in its errors. */
    private record PortSettings(String bindAddressSetting, String portSetting) {}

    private static final PortSettings MAIN = new PortSettings("http.bind.address", "http.port");
    private static final PortSettings ADMIN = new PortSettings("http.admin.bind.address", "http.admin.port");

    private final Listener main;
    private final Optional<Listener> admin;
    private final ThreadPoolExecutor executor;
    private final AtomicBoolean closed = new AtomicBoolean();

    private OpsHttpServer(Listener main, Optional<Listener> admin, ThreadPoolExecutor executor) {
        this.main = main;
        this.admin = admin;
        this.executor = executor;
    }

    /** Every endpoint on one port, plain HTTP, protected endpoints for loopback callers only; for tests. */
    public static OpsHttpServer start(String bindAddress, int port, InstanceView view) {
        return start(HttpOptions.onePort(bindAddress, port), HttpSecurity.load(HttpSecurityOptions.none()), view);
    }

    /**
     * Binds and starts the server(s) answering from {@code view}: one on {@code options.port()},
     * and with {@code options.adminPort()} a second one for {@code /admin/} and {@code /stores/};
     * HTTPS when {@code security} has a server context; each request passes {@code security}'s
     * access policy first. {@code security} stays the caller's to close.
     *
     * @throws ConfigException naming {@code http.port} or {@code http.admin.port} if the port is out
     *                         of range or taken, or the bind address setting if the address cannot
     *                         be bound here
     */
    public static OpsHttpServer start(HttpOptions options, HttpSecurity security, InstanceView view) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(security, "security");
        Objects.requireNonNull(view, "view");
        Router routes = new OpsEndpoints(view).routes();
        List<HttpServer> bound = new ArrayList<>();
        ThreadPoolExecutor executor = executor();
        try {
            Listener main = listen(
                    options.bindAddress(),
                    options.port(),
                    MAIN,
                    security,
                    options.adminPort().isPresent() ? routes.select(p -> !AccessPolicy.adminPath(p)) : routes,
                    bound);
            Optional<Listener> admin = options.adminPort().isEmpty()
                    ? Optional.empty()
                    : Optional.of(listen(
                            options.adminBindAddress(),
                            options.adminPort().get(),
                            ADMIN,
                            security,
                            routes.select(AccessPolicy::adminPath),
                            bound));
            for (HttpServer server : bound) {
                server.setExecutor(executor);
                // The JDK's dispatcher thread inherits daemon status from the thread that starts it;
                // starting it on one of our daemon threads keeps a forgotten server from holding the
                // JVM open after the application stopped.
                executor.submit(server::start).get();
            }
            return new OpsHttpServer(main, admin, executor);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abandon(bound, executor);
            throw new IllegalStateException("interrupted while starting the HTTP server", e);
        } catch (ExecutionException e) {
            abandon(bound, executor);
            throw new IllegalStateException(
                    "could not start the HTTP server on " + options.bindAddress() + ":" + options.port() + ": "
                            + e.getCause(),
                    e.getCause());
        } catch (RuntimeException e) {
            abandon(bound, executor);
            throw e;
        }
    }

    private static Listener listen(
            String bindAddress,
            int port,
            PortSettings settings,
            HttpSecurity security,
            Router router,
            List<HttpServer> bound) {
        HttpServer server = bind(address(bindAddress, port, settings), bindAddress, port, settings, security);
        bound.add(server);
        HttpContext context = server.createContext("/", router);
        context.getFilters().add(new AccessFilter(security.access()));
        return new Listener(server, router);
    }

    private static void abandon(List<HttpServer> servers, ThreadPoolExecutor executor) {
        servers.forEach(s -> s.stop(0));
        executor.shutdownNow();
    }

    /** The port the server listens on; the chosen one when started with port 0. */
    public int port() {
        return main.server().getAddress().getPort();
    }

    /** With {@code http.admin.port}: the port {@code /admin/} and {@code /stores/} are served on. */
    public Optional<Integer> adminPort() {
        return admin.map(l -> l.server().getAddress().getPort());
    }

    /** {@code https} when TLS is configured, else {@code http}. */
    public String scheme() {
        return main.server() instanceof HttpsServer ? "https" : "http";
    }

    /**
     * Stops the server(s): lets requests being answered finish for up to half a second, then
     * closes every connection and the threads. Returns within about a second; idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            // A 202 for /admin/leave may be on its way out while the instance shuts down.
            Deadline deadline = Deadline.after(Duration.ofNanos(DRAIN_NANOS));
            main.router().awaitIdle(DRAIN_NANOS);
            if (admin.isPresent()) {
                admin.get().router().awaitIdle(Math.max(0, deadline.remaining().toNanos()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            main.server().stop(0);
            admin.ifPresent(l -> l.server().stop(0));
            executor.shutdownNow();
        }
        try {
            executor.awaitTermination(DRAIN_NANOS, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static InetSocketAddress address(String bindAddress, int port, PortSettings settings) {
        if (port < 0 || port > 65_535) {
            throw new ConfigException(
                    settings.portSetting(),
                    port + " is not a port to listen on; use 1-65535, 0 for"
                            + " any free port"
                            + (settings == MAIN
                                    ? ", or -1 to disable the HTTP server (which then must not" + " be started)"
                                    : ""));
        }
        InetSocketAddress address = new InetSocketAddress(bindAddress, port);
        if (address.isUnresolved()) {
            throw new ConfigException(
                    settings.bindAddressSetting(),
                    "'" + bindAddress + "' does not resolve to an"
                            + " address of this host; use an IP of one of its interfaces, 0.0.0.0 for all, or 127.0.0.1 for"
                            + " local access only");
        }
        return address;
    }

    private static HttpServer bind(
            InetSocketAddress address, String bindAddress, int port, PortSettings settings, HttpSecurity security) {
        try {
            Optional<SSLContext> tls = security.serverContext();
            if (tls.isEmpty()) {
                return HttpServer.create(address, 0);
            }
            HttpsServer server = HttpsServer.create(address, 0);
            server.setHttpsConfigurator(new HttpsConfigurator(tls.get()) {
                @Override
                public void configure(HttpsParameters params) {
                    params.setSSLParameters(security.serverParameters(getSSLContext()));
                }
            });
            return server;
        } catch (BindException e) {
            String where = bindAddress + ":" + port;
            String portSetting = settings.portSetting();
            String bindSetting = settings.bindAddressSetting();
            ConfigException error = port != 0 && String.valueOf(e.getMessage()).contains("in use")
                    ? new ConfigException(
                            portSetting,
                            "cannot listen on " + where + " (" + bindSetting + "="
                                    + bindAddress + ", " + portSetting + "=" + port
                                    + "): the port is already in use, maybe by"
                                    + " another instance on this host; choose another " + portSetting + ", "
                                    + portSetting
                                    + "=0 for any free port, or http.port=-1 to disable the HTTP server")
                    : new ConfigException(
                            bindSetting,
                            "cannot listen on " + where + ": " + e.getMessage()
                                    + "; set " + bindSetting + " to an address of this host (0.0.0.0 for all"
                                    + " interfaces), or http.port=-1 to disable the HTTP server");
            error.initCause(e);
            throw error;
        } catch (IOException e) {
            throw new IllegalStateException(
                    "could not open the HTTP server on " + bindAddress + ":" + port + ": " + e.getMessage(), e);
        }
    }

    private static ThreadPoolExecutor executor() {
        AtomicInteger count = new AtomicInteger();
        ThreadPoolExecutor executor = new ThreadPoolExecutor(
                THREADS, THREADS, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(QUEUE), runnable -> {
                    Thread t = new Thread(runnable, "weir-http-" + count.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        return executor;
    }
}
