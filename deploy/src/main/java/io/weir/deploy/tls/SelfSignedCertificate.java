package io.weir.deploy.tls;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A certificate that is its own CA, for a release's HTTP server in tests and the Podman scenario: a
 * PKCS12 key store as Weir reads it ({@code http.tls.keystore.path}) and the certificate in PEM as
 * the chart hands it to Prometheus, curl and openssl ({@code http.tls.ca}). Made with the JDK's
 * keytool (no library beyond the JDK), valid two days for the names given. Every pod of a release
 * serves the same one, as with a cert-manager Certificate for {@code *.<fullname>.<namespace>.svc}.
 */
public record SelfSignedCertificate(Path keyStore, Path caPem, String password) {

    /**
     * Makes the key store ({@code keystore.p12}) and {@code ca.crt} in {@code dir}, for {@code
     * commonName} and the subject alternative names {@code sans} in keytool's form ({@code
     * dns:*.weir.streaming.svc}, {@code ip:127.0.0.1}).
     */
    public static SelfSignedCertificate create(Path dir, String commonName, List<String> sans, String password) {
        Path keyStore = dir.resolve("keystore.p12");
        Path caPem = dir.resolve("ca.crt");
        keytool(
                "-genkeypair",
                "-alias",
                "weir",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=" + commonName,
                "-validity",
                "2",
                "-ext",
                "san=" + String.join(",", sans),
                "-ext",
                "bc:c",
                "-keystore",
                keyStore.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                password);
        keytool(
                "-exportcert",
                "-alias",
                "weir",
                "-rfc",
                "-file",
                caPem.toString(),
                "-keystore",
                keyStore.toString(),
                "-storepass",
                password);
        return new SelfSignedCertificate(keyStore, caPem, password);
    }

    /** A server context presenting this certificate. */
    public SSLContext serverContext() {
        try (InputStream in = Files.newInputStream(keyStore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password.toCharArray());
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, password.toCharArray());
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return context;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A client context that trusts this certificate alone, as a client given {@code ca.crt} does. */
    public SSLContext clientContext() {
        return trusting(caPem);
    }

    /** A client context trusting only the CA certificates of the PEM file {@code caPem}. */
    public static SSLContext trusting(Path caPem) {
        try {
            return trusting(Files.readAllBytes(caPem));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A client context trusting only the CA certificates of {@code caPem}, PEM text. */
    public static SSLContext trusting(byte[] caPem) {
        try (InputStream in = new java.io.ByteArrayInputStream(caPem)) {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            int i = 0;
            for (var certificate : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                trusted.setCertificateEntry("ca-" + i++, certificate);
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot read CA certificates from the PEM given: " + e.getMessage(), e);
        }
    }

    private static void keytool(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException("keytool " + args[0] + " failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
