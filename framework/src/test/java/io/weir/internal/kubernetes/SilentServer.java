package io.weir.internal.kubernetes;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A server that accepts connections and never answers: what a hung API server looks like to a
 * client, for the tests of a call's time-out. {@link #close()} closes it and every connection.
 */
final class SilentServer implements AutoCloseable {

    private final ServerSocket socket;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();

    SilentServer() throws IOException {
        this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            try {
                while (true) {
                    accepted.add(socket.accept());
                }
            } catch (IOException closed) {
                // the test is over
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** {@code http://127.0.0.1:<port>}. */
    String url() {
        return "http://127.0.0.1:" + socket.getLocalPort();
    }

    /** A client of this server for namespace {@code shop} whose calls give up after {@code timeout}. */
    KubernetesApi api(Duration timeout) {
        return KubernetesApi.of(URI.create(url()), "t", null, "shop").withTimeout(timeout);
    }

    @Override
    public void close() throws IOException {
        try (socket) {
            for (Socket s : accepted) {
                s.close();
            }
        }
    }
}
