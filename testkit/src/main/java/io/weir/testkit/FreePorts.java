package io.weir.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Picks TCP ports that are free on the loopback interface right now, for the few ports that must
 * be known before the process listening on them starts. Prefer port 0 everywhere else: the server
 * binds any free port and reports it (in-process brokers, every HTTP server of the tests).
 *
 * <p>Which ports need this: a KRaft controller's port, which every node's
 * {@code controller.quorum.voters} names before any of them starts; and a broker in a child JVM,
 * which this JVM must find, and which must come back at the same address when the test restarts
 * it (clients and the other nodes keep it).
 *
 * <p>The race: a picked port is closed again before the node binds it, and another process may
 * take it in between. All sockets of one call are held open until every port is chosen, so the
 * ports of one call are distinct; a start that lost the race fails with "Address already in use",
 * and {@link #retryIfTaken} picks new ports and starts again. A node restarted on its old port can
 * still find it taken; that fails the restart with the node's log.
 */
final class FreePorts {

    private static final Logger log = LoggerFactory.getLogger(FreePorts.class);
    /** Starts with freshly picked ports, before giving up: losing the race twice in a row is rare already. */
    static final int ATTEMPTS = 3;

    private FreePorts() {}

    static int[] pick(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets.add(socket);
                ports[i] = socket.getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot find a free port", e);
        } finally {
            for (ServerSocket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // closing a listening socket we just opened; nothing to recover
                }
            }
        }
    }

    /**
     * Runs {@code start}, which picks its ports, again (up to {@link #ATTEMPTS} times in all) while
     * it fails because a picked port was taken before it was bound; {@code start} must release
     * whatever it started when it fails.
     */
    static <T> T retryIfTaken(String what, Supplier<T> start) {
        for (int attempt = 1; ; attempt++) {
            try {
                return start.get();
            } catch (RuntimeException e) {
                if (attempt >= ATTEMPTS || !portTaken(e)) {
                    throw e;
                }
                log.warn(
                        "{}: a port picked for it was taken before it was bound; starting again with new ports"
                                + " (attempt {} of {})",
                        what,
                        attempt + 1,
                        ATTEMPTS);
            }
        }
    }

    /** Whether {@code e} says that a port could not be bound because it is in use. */
    static boolean portTaken(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException
                    || (t.getMessage() != null && t.getMessage().contains("Address already in use"))) {
                return true;
            }
        }
        return false;
    }
}
