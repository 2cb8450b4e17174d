package io.weir.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A test CA and the key stores and trust stores it signs, as files, made in-process (EC P-256,
 * valid for a day): what cert-manager would mount. Server certificates name {@code localhost}
 * and {@code 127.0.0.1}, so the JDK client's host name check passes. Every store is PKCS12 with
 * {@link #PASSWORD}.
 */
public final class TlsFiles {

    public static final String PASSWORD = "test-store-password";
    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

    private final Path dir;
    private final KeyPair caKey;
    private final X509Certificate ca;

    private TlsFiles(Path dir, KeyPair caKey, X509Certificate ca) {
        this.dir = dir;
        this.caKey = caKey;
        this.ca = ca;
    }

    /** A new CA named {@code caName}, writing its files under {@code dir}. */
    public static TlsFiles create(Path dir, String caName) {
        KeyPair key = keyPair();
        X500Name name = new X500Name("CN=" + caName);
        return new TlsFiles(dir, key, sign(name, key, name, key, true));
    }

    /** A trust store holding this CA's certificate. */
    public Path trustStore(String fileName) {
        try {
            KeyStore store = empty();
            store.setCertificateEntry("ca", ca);
            return write(store, dir.resolve(fileName));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Writes (or replaces, atomically, as a Secret volume does) {@code fileName} with a new key and
     * a certificate for {@code commonName} signed by this CA, the chain ending at the CA.
     */
    public Path keyStore(String fileName, String commonName) {
        try {
            KeyPair key = keyPair();
            X509Certificate cert = sign(
                    new X500Name("CN=" + commonName),
                    key,
                    new X500Name(ca.getSubjectX500Principal().getName()),
                    caKey,
                    false);
            KeyStore store = empty();
            store.setKeyEntry("key", key.getPrivate(), PASSWORD.toCharArray(), new Certificate[] {cert, ca});
            return write(store, dir.resolve(fileName));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A client context presenting {@code keyStore} (or nothing when null) and trusting {@code trustStore}. */
    public static SSLContext clientContext(Path keyStore, Path trustStore) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            KeyManagerFactory kmf = null;
            if (keyStore != null) {
                kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(load(keyStore), PASSWORD.toCharArray());
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(load(trustStore));
            context.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyStore load(Path file) throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(file)) {
            store.load(in, PASSWORD.toCharArray());
        }
        return store;
    }

    private static KeyStore empty() throws GeneralSecurityException {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            return store;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path write(KeyStore store, Path file) {
        try {
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), ".tls", ".tmp");
            try (OutputStream out = Files.newOutputStream(tmp)) {
                store.store(out, PASSWORD.toCharArray());
            }
            return Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot write " + file, e);
        }
    }

    private static KeyPair keyPair() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"));
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static X509Certificate sign(
            X500Name subject, KeyPair subjectKey, X500Name issuer, KeyPair issuerKey, boolean isCa) {
        try {
            Instant now = Instant.now();
            var builder = new JcaX509v3CertificateBuilder(
                            issuer,
                            BigInteger.valueOf(SERIAL.incrementAndGet()),
                            Date.from(now.minus(Duration.ofHours(1))),
                            Date.from(now.plus(Duration.ofDays(1))),
                            subject,
                            subjectKey.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(isCa));
            if (!isCa) {
                builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                    new GeneralName(GeneralName.dNSName, "localhost"),
                    new GeneralName(GeneralName.iPAddress, "127.0.0.1")
                }));
            }
            var signer = new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey.getPrivate());
            return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
        } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
            throw new IllegalStateException(e);
        }
    }
}
