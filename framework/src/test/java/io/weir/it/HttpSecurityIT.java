package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.errors.ConfigException;
import io.weir.serde.Serdes;
import io.weir.testing.TestApps;
import io.weir.testing.TlsFiles;
import io.weir.testkit.HttpProbe;
import io.weir.testkit.KafkaExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The HTTP endpoints of a running instance with TLS, bearer tokens and client certificates, and
 * with a separate admin port, against a real broker.
 */
class HttpSecurityIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final String TOKEN = "s3cret-token-one";
    private static final String ROTATED_TOKEN = "s3cret-token-two";

    @TempDir
    Path dir;

    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

    @BeforeEach
    void captureLogs() {
        logs.start();
        root.addAppender(logs);
    }

    @AfterEach
    void releaseLogs() {
        root.detachAppender(logs);
    }

    private static Topology copying(String input) {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input).to(input + "-copy", Serdes.strings(), Serdes.strings());
        return b.build();
    }

    /** A new client (and TLS session) per request, so each sees the certificate served now. */
    private static HttpResponse<String> send(SSLContext tls, HttpRequest request) throws Exception {
        return HttpClient.newBuilder()
                .sslContext(tls)
                .connectTimeout(Duration.ofSeconds(5))
                .build()
                .send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder https(int port, String path) {
        return HttpRequest.newBuilder(URI.create("https://localhost:" + port + path))
                .timeout(Duration.ofSeconds(10));
    }

    private static HttpRequest leave(int port, String authorization) {
        HttpRequest.Builder r = https(port, "/admin/leave").POST(HttpRequest.BodyPublishers.noBody());
        if (authorization != null) {
            r.header("Authorization", authorization);
        }
        return r.build();
    }

    private static String servedName(HttpResponse<?> r) throws Exception {
        return ((X509Certificate) r.sslSession().orElseThrow().getPeerCertificates()[0])
                .getSubjectX500Principal()
                .getName();
    }

    @Test
    void httpsWithTokensAndClientCertificatesGuardsTheAdminEndpointsAndPicksUpRenewals() throws Exception {
        String input = KAFKA.uniqueTopic("http-sec-in", 1);
        KAFKA.client().createTopic(input + "-copy", 1);
        TlsFiles tls = TlsFiles.create(dir, "weir-test-ca");
        Path keyStore = tls.keyStore("tls/keystore.p12", "weir-0");
        Path trustStore = tls.trustStore("tls/truststore.p12");
        Path tokenFile = Files.writeString(dir.resolve("token"), TOKEN + "\n");
        Path operator = tls.keyStore("operator.p12", "operator");
        Path stranger = TlsFiles.create(dir.resolve("other"), "other-ca").keyStore("stranger.p12", "stranger");
        SSLContext anonymous = TlsFiles.clientContext(null, trustStore);
        List<String> secrets = List.of(TlsFiles.PASSWORD, TOKEN, ROTATED_TOKEN);

        WeirApp app = TestApps.start(
                copying(input),
                TestApps.config(KAFKA.bootstrapServers(), "http-sec-" + input)
                        .set("http.tls.keystore.path", keyStore)
                        .set("http.tls.keystore.password", TlsFiles.PASSWORD)
                        .set("http.tls.truststore.path", trustStore)
                        .set("http.tls.truststore.password", TlsFiles.PASSWORD)
                        .set("http.auth.token.file", tokenFile)
                        .set("http.reload.interval.ms", 200)
                        .build());
        try (app) {
            int port = app.httpPort().orElseThrow();
            // Health and metrics stay open; the client trusts the CA that signed the instance's certificate.
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> send(anonymous, https(port, "/health/ready").build())
                                    .statusCode()
                            == 200);
            HttpResponse<String> live =
                    send(anonymous, https(port, "/health/live").build());
            assertThat(live.statusCode()).isEqualTo(200);
            assertThat(servedName(live)).isEqualTo("CN=weir-0");
            assertThat(send(anonymous, https(port, "/metrics").build()).statusCode())
                    .isEqualTo(200);
            for (String path : List.of("/info", "/topology", "/metrics")) {
                String body = send(anonymous, https(port, path).build()).body();
                assertThat(secrets).as(path).noneMatch(body::contains);
            }
            assertThatThrownBy(() -> HttpProbe.localhost(port).status("/health/live"))
                    .as("plain HTTP on the HTTPS port")
                    .isInstanceOf(java.io.UncheckedIOException.class);

            HttpResponse<String> noToken = send(anonymous, leave(port, null));
            assertThat(noToken.statusCode()).isEqualTo(401);
            assertThat(noToken.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
            assertThat(send(anonymous, leave(port, "Bearer not-" + TOKEN)).statusCode())
                    .isEqualTo(401);
            assertThat(send(TlsFiles.clientContext(stranger, trustStore), leave(port, null))
                            .statusCode())
                    .as("a certificate of another CA")
                    .isEqualTo(401);
            // A certificate of the trusted CA authenticates: past the check, GET is the wrong method.
            assertThat(send(
                                    TlsFiles.clientContext(operator, trustStore),
                                    https(port, "/admin/leave").build())
                            .statusCode())
                    .isEqualTo(405);
            assertThat(app.state()).isEqualTo(WeirApp.State.RUNNING);

            // cert-manager renews the certificate and rotates the token: no restart.
            tls.keyStore("tls/keystore.p12", "weir-0-renewed");
            Files.writeString(tokenFile, ROTATED_TOKEN + "\n");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> servedName(send(
                                    TlsFiles.clientContext(null, trustStore),
                                    https(port, "/health/live").build()))
                            .equals("CN=weir-0-renewed"));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> send(anonymous, leave(port, "Bearer " + TOKEN)).statusCode() == 401);

            HttpResponse<String> left = send(anonymous, leave(port, "Bearer " + ROTATED_TOKEN));
            assertThat(left.statusCode()).as(left.body()).isEqualTo(202);
            assertThat(app.awaitTermination(Duration.ofSeconds(30))).isTrue();
            List<String> lines = new ArrayList<>();
            synchronized (logs) {
                logs.list.forEach(e -> lines.add(e.getFormattedMessage()));
            }
            lines.add(app.config().toString());
            for (String secret : secrets) {
                assertThat(lines).as("log lines and the config's toString").noneMatch(l -> l.contains(secret));
            }
            assertThat(lines).anyMatch(l -> l.contains("https://"));
        }
    }

    @Test
    void aSeparateAdminPortServesLeaveAndTheMainPortDoesNot() throws Exception {
        String input = KAFKA.uniqueTopic("http-admin-in", 1);
        KAFKA.client().createTopic(input + "-copy", 1);
        try (WeirApp app = TestApps.start(
                copying(input),
                TestApps.config(KAFKA.bootstrapServers(), "http-admin-" + input)
                        .set("http.admin.port", 0)
                        .set("http.admin.bind.address", "127.0.0.1")
                        .build())) {
            HttpProbe main = HttpProbe.localhost(app.httpPort().orElseThrow());
            HttpProbe admin = HttpProbe.localhost(app.httpAdminPort().orElseThrow());
            await().atMost(Duration.ofSeconds(30)).until(() -> main.status("/health/ready") == 200);
            assertThat(admin.status("/health/ready")).isEqualTo(404);
            assertThat(main.post("/admin/leave").status()).isEqualTo(404);
            // No credentials configured: from this host (loopback) only.
            assertThat(admin.post("/admin/leave").status()).isEqualTo(202);
            assertThat(app.awaitTermination(Duration.ofSeconds(30))).isTrue();
        }
    }

    @Test
    void aMissingKeyStoreStopsTheStartNamingItsSetting() {
        String input = KAFKA.uniqueTopic("http-bad-in", 1);
        assertThatThrownBy(() -> TestApps.start(
                        copying(input),
                        TestApps.config(KAFKA.bootstrapServers(), "http-bad-" + input)
                                .set("http.tls.keystore.path", dir.resolve("absent.p12"))
                                .set("http.tls.keystore.password", TlsFiles.PASSWORD)
                                .build()))
                .isInstanceOfSatisfying(
                        ConfigException.class, e -> assertThat(e.setting()).isEqualTo("http.tls.keystore.path"))
                .hasMessageContaining("absent.p12")
                .hasMessageNotContaining(TlsFiles.PASSWORD);
    }
}
