package io.weir.deploy.chart;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.weir.deploy.tls.SelfSignedCertificate;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;

/**
 * A self-signed certificate (its own CA) for the HTTPS stand-ins of Weir's server: a PKCS12 key
 * store, as Weir reads it, and the certificate in PEM, as the chart gives it to curl and openssl
 * ({@link SelfSignedCertificate}); valid for the pods' stable names ({@code *.orders-weir.streaming.svc})
 * and the loopback addresses.
 */
final class SelfSignedTls {

    private static final String PASSWORD = "changeit";

    final Path keyStore;
    final Path caPem;
    private final SelfSignedCertificate certificate;

    private SelfSignedTls(SelfSignedCertificate certificate) {
        this.certificate = certificate;
        this.keyStore = certificate.keyStore();
        this.caPem = certificate.caPem();
    }

    private static SelfSignedTls shared;

    /** One certificate for every test of the run: keytool takes seconds on a loaded machine. */
    static synchronized SelfSignedTls shared() {
        if (shared == null) {
            try {
                Path dir = Files.createTempDirectory("weir-chart-tls");
                dir.toFile().deleteOnExit();
                shared = in(dir);
                shared.keyStore.toFile().deleteOnExit();
                shared.caPem.toFile().deleteOnExit();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return shared;
    }

    static SelfSignedTls in(Path dir) {
        SelfSignedCertificate c = SelfSignedCertificate.create(
                dir,
                "orders-weir",
                List.of("dns:*.orders-weir.streaming.svc", "ip:127.0.0.1", "ip:127.0.0.2", "ip:127.0.0.3"),
                PASSWORD);
        return new SelfSignedTls(c);
    }

    /** A CA certificate in PEM that did not sign this one: the first of the JDK's own trust store. */
    static Path unrelatedCaPem(Path dir) {
        try (InputStream in = Files.newInputStream(Path.of(System.getProperty("java.home"), "lib/security/cacerts"))) {
            KeyStore cacerts = KeyStore.getInstance(KeyStore.getDefaultType());
            cacerts.load(in, null);
            String alias = java.util.Collections.list(cacerts.aliases()).get(0);
            String pem = "-----BEGIN CERTIFICATE-----\n"
                    + java.util.Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                            .encodeToString(cacerts.getCertificate(alias).getEncoded())
                    + "\n-----END CERTIFICATE-----\n";
            return Files.writeString(dir.resolve("unrelated-ca.crt"), pem);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An HTTPS server on {@code address} with this certificate (not started). */
    HttpsServer server(InetSocketAddress address) throws IOException {
        HttpsServer server = HttpsServer.create(address, 0);
        server.setHttpsConfigurator(new HttpsConfigurator(certificate.serverContext()));
        return server;
    }

    /**
     * A directory holding only links to the named tools found on PATH: a PATH of it alone lets a
     * script find curl but not openssl, or neither, as in an image without them.
     */
    static Path toolsOnly(Path dir, String... tools) throws IOException {
        Path bin = Files.createDirectories(dir);
        for (String tool : tools) {
            Path found = null;
            for (String entry : System.getenv("PATH").split(":")) {
                Path candidate = Path.of(entry, tool);
                if (Files.isExecutable(candidate)) {
                    found = candidate;
                    break;
                }
            }
            if (found == null) {
                throw new IllegalStateException(tool + " is not on PATH; the test needs it");
            }
            Files.createSymbolicLink(bin.resolve(tool), found);
        }
        return bin;
    }
}
