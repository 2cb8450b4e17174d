package io.weir.testkit.kubernetes;

import io.weir.testkit.Command;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;

/**
 * HTTPS in front of the mock API server, which serves plain HTTP on the loopback address: accepts
 * TLS on every address of the host (pods come from the Podman bridge) and forwards the decrypted
 * bytes to the mock server. The certificate is made with the JDK's keytool, self-signed, valid for
 * the loopback, {@code kubernetes.default.svc} and the names pods use for the host (given: for
 * Podman pods, the bridge's gateway and {@code host.containers.internal}); its PEM is what pods get
 * as {@code ca.crt}.
 *
 * <p>One thread per connection and direction; connections are few (a pod's calls, the hooks').
 */
final class TlsFront implements AutoCloseable {

    private static final String PASSWORD = "weir-runner";
    private static final java.util.regex.Pattern IP_ADDRESS = java.util.regex.Pattern.compile("[0-9.]+|[0-9a-fA-F:]*:[0-9a-fA-F:]*");

    private final SSLServerSocket socket;
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
    static TlsFront start(Path workDir, int backendPort, List<String> hostNames) {
        try {
            Path keyStore = workDir.resolve("apiserver.p12");
            Path pem = workDir.resolve("apiserver.crt");
            Files.deleteIfExists(keyStore);
            keytool("-genkeypair", "-alias", "apiserver", "-keyalg", "EC", "-groupname", "secp256r1",
                    "-dname", "CN=kubernetes", "-ext", "SAN=" + subjectAlternativeNames(hostNames),
                    "-validity", "2", "-keystore", keyStore.toString(), "-storetype", "PKCS12",
                    "-storepass", PASSWORD, "-keypass", PASSWORD);
            keytool("-exportcert", "-alias", "apiserver", "-rfc", "-file", pem.toString(),
                    "-keystore", keyStore.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD);
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = new FileInputStream(keyStore.toFile())) {
                ks.load(in, PASSWORD.toCharArray());
            }
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, PASSWORD.toCharArray());
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), null, null);
            SSLServerSocket server = (SSLServerSocket) context.getServerSocketFactory().createServerSocket();
            server.bind(new InetSocketAddress("0.0.0.0", 0));
            return new TlsFront(server, Files.readString(pem), backendPort);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the API server's TLS front", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot load the API server's certificate", e);
        }
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
        try (client; Socket backend = new Socket("127.0.0.1", backendPort)) {
            threads.execute(() -> pump(backend, client));
            pump(client, backend);
        } catch (IOException e) {
            // a client that hangs up mid-request: nothing to answer
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

    private static String subjectAlternativeNames(List<String> hostNames) {
        List<String> names = new java.util.ArrayList<>();
        for (String host : hostNames) {
            names.add((IP_ADDRESS.matcher(host).matches() ? "ip:" : "dns:") + host);
        }
        names.addAll(List.of("ip:127.0.0.1", "dns:localhost", "dns:kubernetes.default.svc"));
        return String.join(",", names);
    }

    private static void keytool(String... args) {
        List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Command.Result r = Command.run(command, java.time.Duration.ofSeconds(30), java.util.Map.of());
        r.requireSuccess("keytool " + args[0]);
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing
        }
        threads.shutdownNow();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
