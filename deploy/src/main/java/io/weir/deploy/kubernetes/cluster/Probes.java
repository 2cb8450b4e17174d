package io.weir.deploy.kubernetes.cluster;

import io.fabric8.kubernetes.api.model.Probe;
import io.weir.common.internal.Deadline;
import io.weir.testkit.Podman;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How the runner's {@link Kubelet} runs the probes of a pod's container: HTTP(S) and TCP probes to
 * the container port's host port on 127.0.0.1 (the kubelet would use the pod IP; Podman publishes the
 * port there; like the kubelet's, HTTPS probes verify no certificate), exec probes through {@code podman exec}, each within the probe's time-out; and each
 * probe's {@link Schedule}.
 */
final class Probes {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** The kubelet's HTTPS probes verify no certificate: a client that trusts any, checking no name. */
    private static final HttpClient HTTPS = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(2))
            .sslContext(TrustingAnyCertificate.context())
            .build();

    private final Podman podman;
    private final PlayManifest.Played played;
    private final String podName;
    private final String containerName;

    Probes(Podman podman, PlayManifest.Played played, String podName, String containerName) {
        this.podman = podman;
        this.played = played;
        this.podName = podName;
        this.containerName = containerName;
    }

    /** The schedule of {@code probe} (null: the container has no such probe), from the container's start. */
    Schedule schedule(Probe probe) {
        return new Schedule(probe);
    }

    /**
     * One probe's schedule and consecutive failures: due first after its initial delay from the
     * container's start (or {@link #reset}), then a period after each check. Used by the kubelet's
     * loop alone.
     */
    final class Schedule {
        final Probe probe;
        private Deadline next;
        private int failures;

        private Schedule(Probe probe) {
            this.probe = probe;
            reset();
        }

        /** Starts over, as for a container that just started; returns whether there is no probe. */
        boolean reset() {
            next = Deadline.after(seconds(probe == null ? null : probe.getInitialDelaySeconds(), 0));
            failures = 0;
            return probe == null;
        }

        boolean due() {
            return probe != null && next.expired();
        }

        /** Runs the probe now; the next check is a period from now. */
        boolean check() {
            next = Deadline.after(seconds(probe.getPeriodSeconds(), 10));
            boolean ok = passes(probe);
            failures = ok ? 0 : failures + 1;
            return ok;
        }

        int failures() {
            return failures;
        }

        /** Whether the consecutive failures reached the probe's failure threshold. */
        boolean failed() {
            return failures >= probe.getFailureThreshold();
        }

        private static Duration seconds(Integer value, int orElse) {
            return Duration.ofSeconds(value == null ? orElse : value);
        }
    }

    private boolean passes(Probe probe) {
        Duration timeout = Duration.ofSeconds(probe.getTimeoutSeconds() == null ? 1 : probe.getTimeoutSeconds());
        if (probe.getHttpGet() != null) {
            return httpGet(probe, timeout);
        }
        if (probe.getTcpSocket() != null) {
            int port = played.hostPort(
                    probe.getTcpSocket().getPort().getStrVal() != null
                            ? probe.getTcpSocket().getPort().getStrVal()
                            : probe.getTcpSocket().getPort().getIntVal().toString());
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), (int) timeout.toMillis());
                return true;
            } catch (IOException e) {
                return false;
            }
        }
        if (probe.getExec() != null) {
            List<String> cmd = new ArrayList<>(List.of("exec", containerName));
            cmd.addAll(probe.getExec().getCommand());
            return podman.run(timeout.plusSeconds(5), cmd.toArray(String[]::new))
                            .exitCode()
                    == 0;
        }
        throw new IllegalArgumentException(podName + ": a probe of a kind the runner does not run (grpc)");
    }

    private boolean httpGet(Probe probe, Duration timeout) {
        int port = played.hostPort(
                probe.getHttpGet().getPort().getStrVal() != null
                        ? probe.getHttpGet().getPort().getStrVal()
                        : probe.getHttpGet().getPort().getIntVal().toString());
        boolean https = "HTTPS".equals(probe.getHttpGet().getScheme());
        try {
            HttpResponse<Void> r = (https ? HTTPS : HTTP)
                    .send(
                            HttpRequest.newBuilder(URI.create((https ? "https" : "http") + "://127.0.0.1:" + port
                                            + probe.getHttpGet().getPath()))
                                    .timeout(timeout)
                                    .GET()
                                    .build(),
                            HttpResponse.BodyHandlers.discarding());
            return r.statusCode() >= 200 && r.statusCode() < 400;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
