package io.weir.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Picks TCP ports that are free on the loopback interface right now. All sockets are held open
 * until every port is chosen, so the ports of one call are distinct; another process may still
 * take one before the broker binds it, which is rare enough for tests.
 */
final class FreePorts {

    private FreePorts() {
    }

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
}
