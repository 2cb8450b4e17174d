package io.weir.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.weir.internal.config.HttpSettings;
import io.weir.internal.http.security.HttpSecurity;
import io.weir.internal.http.security.HttpSecurityOptions;
import io.weir.internal.http.security.PeerHttp;
import io.weir.internal.http.security.StoreFile;
import io.weir.testing.TlsFiles;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The server with TLS, client certificates, tokens and a second port, and peers calling it. */
class SecuredOpsServerTest {

    @TempDir
    Path dir;

    private TlsFiles tls;
    private Path keyStore;
    private Path trustStore;
    private final FakeView view = new FakeView();
    private HttpSecurity security;
    private OpsHttpServer server;
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

    @BeforeEach
    void files() {
        tls = TlsFiles.create(dir, "test-ca");
        keyStore = tls.keyStore("server.p12", "server-1");
        trustStore = tls.trustStore("trust.p12");
        logs.start();
        root.addAppender(logs);
    }

    @AfterEach
    void stop() {
        root.detachAppender(logs);
        if (server != null) {
            server.close();
        }
        if (security != null) {
            security.close();
        }
    }

    private void start(HttpSettings.ClientAuth clientAuth, List<String> tokens, Optional<Integer> adminPort) {
        security = HttpSecurity.load(new HttpSecurityOptions(
                Optional.of(new StoreFile("http.tls.keystore.path", keyStore, "PKCS12", TlsFiles.PASSWORD)),
                clientAuth == HttpSettings.ClientAuth.NONE
                        ? Optional.empty()
                        : Optional.of(
                                new StoreFile("http.tls.truststore.path", trustStore, "PKCS12", TlsFiles.PASSWORD)),
                clientAuth,
                tokens,
                Optional.empty(),
                false,
                false,
                Duration.ofMillis(100)));
        server = OpsHttpServer.start(new HttpOptions("127.0.0.1", 0, "127.0.0.1", adminPort), security, view);
    }

    /** A new client each time: a pooled connection would keep the certificate of its handshake. */
    private static HttpResponse<String> send(SSLContext context, HttpRequest request) throws Exception {
        HttpClient client = HttpClient.newBuilder()
                .sslContext(context)
                .connectTimeout(Duration.ofSeconds(2))
                .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(int port, String path) {
        return HttpRequest.newBuilder(URI.create("https://localhost:" + port + path))
                .timeout(Duration.ofSeconds(5));
    }

    private HttpResponse<String> leave(SSLContext context, String authorization) throws Exception {
        HttpRequest.Builder r = request(server.port(), "/admin/leave").POST(HttpRequest.BodyPublishers.noBody());
        if (authorization != null) {
            r.header("Authorization", authorization);
        }
        return send(context, r.build());
    }

    private static String servedCommonName(HttpResponse<?> response) throws Exception {
        X509Certificate cert =
                (X509Certificate) response.sslSession().orElseThrow().getPeerCertificates()[0];
        return cert.getSubjectX500Principal().getName();
    }

    @Test
    void servesHttpsAndPicksUpARenewedCertificateWithoutARestart() throws Exception {
        start(HttpSettings.ClientAuth.NONE, List.of("t0ken"), Optional.empty());
        SSLContext client = TlsFiles.clientContext(null, trustStore);
        HttpResponse<String> live =
                send(client, request(server.port(), "/health/live").build());
        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(servedCommonName(live)).isEqualTo("CN=server-1");
        assertThat(server.scheme()).isEqualTo("https");

        // A new client context each time: one that resumed its TLS session would not be sent a certificate.
        tls.keyStore("server.p12", "server-2");
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(servedCommonName(send(
                                TlsFiles.clientContext(null, trustStore),
                                request(server.port(), "/health/live").build())))
                        .isEqualTo("CN=server-2"));

        // A broken renewal keeps the certificate being served, with one WARN naming the setting.
        // Swapped in whole, as a renewal is: written in place, the reload could also read the empty
        // file between the truncation and the write, a second broken content with a WARN of its own.
        Path broken = Files.writeString(keyStore.resolveSibling("broken.tmp"), "half-written");
        Files.move(broken, keyStore, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> logs.list.stream()
                        .anyMatch(e -> e.getLevel() == Level.WARN
                                && e.getFormattedMessage().contains("http.tls.keystore.path")));
        assertThat(servedCommonName(send(
                        TlsFiles.clientContext(null, trustStore),
                        request(server.port(), "/health/live").build())))
                .isEqualTo("CN=server-2");

        // Fixed, it is served again: the reload thread went on checking after the broken version,
        // and warned about it only once (that a check of unchanged broken content never warns again
        // is WatchedFileTest's, which calls refresh itself instead of waiting for ticks).
        tls.keyStore("server.p12", "server-3");
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(servedCommonName(send(
                                TlsFiles.clientContext(null, trustStore),
                                request(server.port(), "/health/live").build())))
                        .isEqualTo("CN=server-3"));
        assertThat(logs.list)
                .filteredOn(e -> e.getLevel() == Level.WARN)
                .singleElement()
                .satisfies(e -> assertThat(e.getFormattedMessage()).contains("http.tls.keystore.path"));
        assertThat(logs.list).noneMatch(e -> e.getFormattedMessage().contains(TlsFiles.PASSWORD));
    }

    @Test
    void plainHttpIsRefusedOnAnHttpsPort() {
        start(HttpSettings.ClientAuth.NONE, List.of("t0ken"), Optional.empty());
        HttpClient plain =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        assertThatThrownBy(() -> plain.send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + "/health/live"))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(IOException.class);
    }

    @Test
    void theAdminEndpointsNeedTheToken() throws Exception {
        start(HttpSettings.ClientAuth.NONE, List.of("t0ken"), Optional.empty());
        SSLContext client = TlsFiles.clientContext(null, trustStore);
        HttpResponse<String> none = leave(client, null);
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        assertThat(none.body()).contains("\"error\": \"unauthorized\"");
        HttpResponse<String> wrong = leave(client, "Bearer t0ke");
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.headers().firstValue("WWW-Authenticate")).hasValue("Bearer error=\"invalid_token\"");
        assertThat(view.stopping).isFalse();
        assertThat(leave(client, "Bearer t0ken").statusCode()).isEqualTo(202);
        assertThat(view.stopping).isTrue();
        assertThat(send(client, request(server.port(), "/metrics").build()).statusCode())
                .isEqualTo(200);
    }

    @Test
    void aClientCertificateFromTheTrustedCaAuthenticatesAndAnotherCaIsRefused() throws Exception {
        start(HttpSettings.ClientAuth.OPTIONAL, List.of(), Optional.empty());
        Path client = tls.keyStore("client.p12", "operator");
        assertThat(leave(TlsFiles.clientContext(null, trustStore), null).statusCode())
                .isEqualTo(401);

        // The server asks for a certificate of its CA; the JDK client has none to offer, so it sends
        // none and is not authenticated (a client that sent it anyway would fail the handshake).
        TlsFiles other = TlsFiles.create(dir.resolve("other"), "other-ca");
        Path stranger = other.keyStore("stranger.p12", "stranger");
        assertThat(leave(TlsFiles.clientContext(stranger, trustStore), null).statusCode())
                .isEqualTo(401);
        assertThat(view.stopping).isFalse();

        assertThat(leave(TlsFiles.clientContext(client, trustStore), null).statusCode())
                .isEqualTo(202);
    }

    @Test
    void requiredClientAuthRefusesTheHandshakeWithoutACertificate() throws Exception {
        start(HttpSettings.ClientAuth.REQUIRED, List.of(), Optional.empty());
        assertThatThrownBy(() -> send(
                        TlsFiles.clientContext(null, trustStore),
                        request(server.port(), "/health/live").build()))
                .isInstanceOf(IOException.class);
        Path client = tls.keyStore("client.p12", "prometheus");
        assertThat(send(
                                TlsFiles.clientContext(client, trustStore),
                                request(server.port(), "/health/live").build())
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void aSecondPortServesTheAdminEndpointsAndOnlyThem() throws Exception {
        start(HttpSettings.ClientAuth.NONE, List.of("t0ken"), Optional.of(0));
        SSLContext client = TlsFiles.clientContext(null, trustStore);
        int admin = server.adminPort().orElseThrow();
        assertThat(admin).isNotEqualTo(server.port());
        assertThat(leave(client, "Bearer t0ken").statusCode()).isEqualTo(404);
        assertThat(send(
                                client,
                                request(admin, "/metrics")
                                        .header("Authorization", "Bearer t0ken")
                                        .build())
                        .statusCode())
                .isEqualTo(404);
        assertThat(send(client, request(server.port(), "/metrics").build()).statusCode())
                .isEqualTo(200);
        assertThat(send(
                                client,
                                request(admin, "/admin/leave")
                                        .POST(HttpRequest.BodyPublishers.noBody())
                                        .build())
                        .statusCode())
                .isEqualTo(401);
        assertThat(send(
                                client,
                                request(admin, "/admin/leave")
                                        .header("Authorization", "Bearer t0ken")
                                        .POST(HttpRequest.BodyPublishers.noBody())
                                        .build())
                        .statusCode())
                .isEqualTo(202);
    }

    @Test
    void aPeerCallsWithItsCertificateAndToken() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens"), "peer-token\nolder-token\n");
        security = HttpSecurity.load(new HttpSecurityOptions(
                Optional.of(new StoreFile("http.tls.keystore.path", keyStore, "PKCS12", TlsFiles.PASSWORD)),
                Optional.of(new StoreFile("http.tls.truststore.path", trustStore, "PKCS12", TlsFiles.PASSWORD)),
                HttpSettings.ClientAuth.REQUIRED,
                List.of(),
                Optional.of(tokens),
                false,
                false,
                Duration.ofMillis(100)));
        server = OpsHttpServer.start(HttpOptions.onePort("127.0.0.1", 0), security, view);
        PeerHttp peers = PeerHttp.of(security);
        assertThat(peers.scheme()).isEqualTo("https");
        assertThat(peers.authorization()).hasValue("Bearer peer-token");
        assertThat(peers.uri("localhost", 8080, "/stores/s/keys/k"))
                .hasToString("https://localhost:8080/stores/s/keys/k");

        // The handshake needs the peer's client certificate (client auth required), the answer its token.
        HttpResponse<String> info = peers.client()
                .send(
                        peers.request("localhost", server.port(), "/info").GET().build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(info.statusCode()).isEqualTo(200);
        HttpResponse<String> left = peers.client()
                .send(
                        peers.request("localhost", server.port(), "/admin/leave")
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(left.statusCode()).isEqualTo(202);

        Files.writeString(tokens, "rotated-token\n");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> peers.authorization().equals(Optional.of("Bearer rotated-token")));
    }
}
