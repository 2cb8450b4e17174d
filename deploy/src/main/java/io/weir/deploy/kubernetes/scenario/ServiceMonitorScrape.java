package io.weir.deploy.kubernetes.scenario;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.weir.deploy.kubernetes.cluster.Kubelet;
import io.weir.deploy.kubernetes.helm.Release;
import io.weir.deploy.tls.SelfSignedCertificate;
import io.weir.testkit.kubernetes.KubernetesApiServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * Prometheus' scrape of the pods, done the way the release's ServiceMonitor tells the Prometheus
 * Operator to: its endpoint's port, path and scheme; over HTTPS the pods' certificate verified with
 * the CA of {@code tlsConfig.ca} as {@code tlsConfig.serverName} (Prometheus connects to pod
 * addresses, which the certificate does not name); the token of {@code bearerTokenSecret}, trimmed
 * as Prometheus trims credentials. The Secrets are read from the API server, as the operator reads
 * them. The runner has no Prometheus, so it is its stand-in: a chart whose ServiceMonitor cannot
 * scrape (wrong scheme, CA, name or token) fails the scenario here. A release without a
 * ServiceMonitor is scraped over plain HTTP on port {@code http}.
 */
final class ServiceMonitorScrape {

    private static final int TIMEOUT_MILLIS = 5_000;

    private final String port;
    private final String path;
    private final Optional<SSLContext> tls;
    private final Optional<String> serverName;
    private final Optional<String> token;

    private ServiceMonitorScrape(
            String port, String path, Optional<SSLContext> tls, Optional<String> serverName, Optional<String> token) {
        this.port = port;
        this.path = path;
        this.tls = tls;
        this.serverName = serverName;
        this.token = token;
    }

    /** The scrape of {@code release}'s ServiceMonitor (its first endpoint), Secrets read from {@code api}. */
    @SuppressWarnings("unchecked")
    static ServiceMonitorScrape of(Release release, KubernetesApiServer api) {
        Optional<GenericKubernetesResource> monitor = release.objects().stream()
                .filter(o -> o.getKind().equals("ServiceMonitor"))
                .map(GenericKubernetesResource.class::cast)
                .findFirst();
        if (monitor.isEmpty()) {
            return new ServiceMonitorScrape("http", "/metrics", Optional.empty(), Optional.empty(), Optional.empty());
        }
        Map<String, Object> spec =
                (Map<String, Object>) monitor.get().getAdditionalProperties().get("spec");
        Map<String, Object> endpoint = ((List<Map<String, Object>>) spec.get("endpoints")).get(0);
        String scheme = String.valueOf(endpoint.getOrDefault("scheme", "http"));
        Optional<SSLContext> tls = Optional.empty();
        Optional<String> serverName = Optional.empty();
        if (scheme.equals("https")) {
            Map<String, Object> tlsConfig = (Map<String, Object>) endpoint.get("tlsConfig");
            Map<String, Object> ca = (Map<String, Object>) ((Map<String, Object>) tlsConfig.get("ca")).get("secret");
            tls = Optional.of(SelfSignedCertificate.trusting(secretKey(api, release.namespace(), ca)));
            serverName = Optional.ofNullable((String) tlsConfig.get("serverName"));
        }
        Optional<String> token = Optional.ofNullable((Map<String, Object>) endpoint.get("bearerTokenSecret"))
                .map(ref -> new String(secretKey(api, release.namespace(), ref), StandardCharsets.UTF_8).strip());
        return new ServiceMonitorScrape(
                String.valueOf(endpoint.get("port")),
                String.valueOf(endpoint.getOrDefault("path", "/metrics")),
                tls,
                serverName,
                token);
    }

    /** What this scrape does, for a step's figures. */
    String describe() {
        return (tls.isPresent() ? "https verified as " + serverName.orElse("the pod's address") : "http")
                + (token.isPresent() ? " with the bearer token" : "") + ", port " + port + ", path " + path;
    }

    /** The body of {@code pod}'s metrics; throws naming the pod when the scrape fails. */
    String scrape(Kubelet pod) {
        int hostPort = pod.hostPort(port);
        try (Socket raw = new Socket()) {
            raw.connect(new InetSocketAddress("127.0.0.1", hostPort), TIMEOUT_MILLIS);
            raw.setSoTimeout(TIMEOUT_MILLIS);
            Socket socket = raw;
            if (tls.isPresent()) {
                // The name checked is serverName, not the address dialled: the socket's peer host is
                // what the JDK's endpoint identification compares the certificate with.
                String name = serverName.orElse("127.0.0.1");
                SSLSocket secure = (SSLSocket) tls.get().getSocketFactory().createSocket(raw, name, hostPort, true);
                SSLParameters parameters = secure.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                serverName.ifPresent(n -> parameters.setServerNames(List.of(new SNIHostName(n))));
                secure.setSSLParameters(parameters);
                secure.startHandshake();
                socket = secure;
            }
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + serverName.orElse("127.0.0.1") + "\r\n"
                            + token.map(t -> "Authorization: Bearer " + t + "\r\n")
                                    .orElse("")
                            + "Accept: text/plain\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return body(pod, socket.getInputStream());
        } catch (IOException e) {
            throw new IllegalStateException("scraping " + pod.name() + " (" + describe() + ") failed: " + e, e);
        }
    }

    /** The response's body: status 200 required; Content-Length, chunked, or until the server closes. */
    private static String body(Kubelet pod, InputStream in) throws IOException {
        String status = line(in);
        String[] parts = status.split(" ", 3);
        boolean chunked = false;
        for (String header = line(in); !header.isEmpty(); header = line(in)) {
            if (header.toLowerCase(Locale.ROOT).replace(" ", "").equals("transfer-encoding:chunked")) {
                chunked = true;
            }
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (chunked) {
            for (int size = Integer.parseInt(line(in).split(";")[0].strip(), 16);
                    size > 0;
                    size = Integer.parseInt(line(in).split(";")[0].strip(), 16)) {
                body.write(in.readNBytes(size));
                line(in);
            }
        } else {
            in.transferTo(body);
        }
        String text = body.toString(StandardCharsets.UTF_8);
        if (parts.length < 2 || !parts[1].equals("200")) {
            throw new IllegalStateException("scraping " + pod.name() + ": " + status + " " + text.strip());
        }
        return text;
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != -1 && b != '\n'; b = in.read()) {
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.US_ASCII);
    }

    private static byte[] secretKey(KubernetesApiServer api, String namespace, Map<String, Object> ref) {
        String name = String.valueOf(ref.get("name"));
        String key = String.valueOf(ref.get("key"));
        Secret secret =
                api.client().secrets().inNamespace(namespace).withName(name).get();
        if (secret == null) {
            throw new IllegalStateException("the ServiceMonitor names Secret " + name + ", which does not exist");
        }
        if (secret.getData() != null && secret.getData().containsKey(key)) {
            return Base64.getDecoder().decode(secret.getData().get(key));
        }
        if (secret.getStringData() != null && secret.getStringData().containsKey(key)) {
            return secret.getStringData().get(key).getBytes(StandardCharsets.UTF_8);
        }
        throw new IllegalStateException("Secret " + name + " has no key " + key + ", which the ServiceMonitor names");
    }
}
