package io.weir.testkit.kubernetes;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * HTTPS in front of the mock API server, which serves plain HTTP on the loopback address: accepts
 * TLS on every address of the host (pods come from the Podman bridge) and forwards the decrypted
 * bytes to the mock server. The certificate is made in-process (Bouncy Castle), self-signed, valid for
 * the loopback, {@code kubernetes.default.svc} and the names pods use for the host (given: for
 * Podman pods, the bridge's gateway and {@code host.containers.internal}); its PEM is what pods get
 * as {@code ca.crt}.
 *
 * <p>One thread per connection and direction; connections are few (a pod's calls, the hooks').
 */
final class TlsFront implements AutoCloseable {

    private static final String PASSWORD = "weir-runner";
    private static final Pattern IP_ADDRESS = Pattern.compile("[0-9.]+|[0-9a-fA-F:]*:[0-9a-fA-F:]*");

    private final SSLServerSocket socket;
    /**
     * The connections open now: a pump blocked in a socket read does not see an interrupt, so
     * {@link #close} closes them, or its wait for the pumps would last until the time-out.
     */
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();

    private final String certificatePem;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "api-tls-front");
        t.setDaemon(true);
        return t;
    });

    private TlsFront(SSLServerSocket socket, String certificatePem, int backendPort) {
        this.socket = socket;
        this.certificatePem = certificatePem;
        threads.execute(() -> accept(backendPort));
    }

    /** {@code hostNames}: more IP addresses or DNS names the certificate is valid for. */
    static TlsFront start(int backendPort, List<String> hostNames) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair key = generator.generateKeyPair();
            X509Certificate certificate = selfSigned(key, hostNames);
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("apiserver", key.getPrivate(), PASSWORD.toCharArray(), new Certificate[] {certificate});
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, PASSWORD.toCharArray());
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), null, null);
            SSLServerSocket server =
                    (SSLServerSocket) context.getServerSocketFactory().createServerSocket();
            server.bind(new InetSocketAddress("0.0.0.0", 0));
            String pem = "-----BEGIN CERTIFICATE-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                            .encodeToString(certificate.getEncoded())
                    + "\n-----END CERTIFICATE-----\n";
            return new TlsFront(server, pem, backendPort);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the API server's TLS front", e);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot make the API server's certificate", e);
        }
    }

    /**
     * A certificate for {@code CN=kubernetes}, signed by its own key, valid for two days and for the
     * loopback, {@code kubernetes.default.svc} and {@code hostNames} (made in-process: a keytool run
     * per server start cost seconds on a busy machine).
     */
    private static X509Certificate selfSigned(KeyPair key, List<String> hostNames)
            throws GeneralSecurityException, OperatorCreationException, IOException {
        List<GeneralName> names = new ArrayList<>();
        for (String host : hostNames) {
            names.add(new GeneralName(
                    IP_ADDRESS.matcher(host).matches() ? GeneralName.iPAddress : GeneralName.dNSName, host));
        }
        names.add(new GeneralName(GeneralName.iPAddress, "127.0.0.1"));
        names.add(new GeneralName(GeneralName.dNSName, "localhost"));
        names.add(new GeneralName(GeneralName.dNSName, "kubernetes.default.svc"));
        X500Name subject = new X500Name("CN=kubernetes");
        Instant now = Instant.now();
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                        subject,
                        BigInteger.valueOf(new SecureRandom().nextLong() & Long.MAX_VALUE),
                        Date.from(now.minus(Duration.ofHours(1))),
                        Date.from(now.plus(Duration.ofDays(2))),
                        subject,
                        key.getPublic())
                .addExtension(
                        Extension.subjectAlternativeName, false, new GeneralNames(names.toArray(GeneralName[]::new)));
        return new JcaX509CertificateConverter()
                .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(key.getPrivate())));
    }

    int port() {
        return socket.getLocalPort();
    }

    String certificatePem() {
        return certificatePem;
    }

    private void accept(int backendPort) {
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                threads.execute(() -> forward(client, backendPort));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void forward(Socket client, int backendPort) {
        open.add(client);
        try (client;
                Socket backend = new Socket("127.0.0.1", backendPort)) {
            open.add(backend);
            try {
                threads.execute(() -> pump(backend, client));
                pump(client, backend);
            } finally {
                open.remove(backend);
            }
        } catch (IOException e) {
            // a client that hangs up mid-request: nothing to answer
        } finally {
            open.remove(client);
        }
    }

    private static void pump(Socket from, Socket to) {
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            byte[] buffer = new byte[16 * 1024];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
            to.shutdownOutput();
        } catch (IOException e) {
            // either side closed
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing
        }
        threads.shutdownNow();
        for (Socket s : open) {
            try {
                s.close();
            } catch (IOException e) {
                // closing
            }
        }
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
