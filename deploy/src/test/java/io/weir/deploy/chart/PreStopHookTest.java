package io.weir.deploy.chart;

import static io.weir.deploy.chart.WeirChart.chart;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scale-in hook (files/pre-stop.sh), run with bash against a stand-in for Weir's HTTP server:
 * a restart must not leave the group, a pod marked weir.io/scale-in=true must, and the hook must
 * return once the instance has stopped.
 */
class PreStopHookTest {

    /** The hook calls 127.0.0.1, as Weir listens on every interface (http.bind.address). */
    private static final InetAddress LOCALHOST = localhost();

    private static final Duration NEVER = Duration.ofSeconds(-1);
    private static final Path SCRIPT = WeirChart.directory().resolve("files/pre-stop.sh");

    @TempDir
    Path dir;

    private HttpServer weir;
    private final List<String> requests = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopServer() {
        if (weir != null) {
            weir.stop(0);
        }
    }

    /** Answers like Weir: 202 to POST /admin/leave, then closes its port after {@code stopAfter}. */
    private int startWeir(Duration stopAfter) throws IOException {
        weir = HttpServer.create(new InetSocketAddress(LOCALHOST, 0), 0);
        weir.createContext("/", exchange -> {
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
            exchange.sendResponseHeaders(202, -1);
            exchange.close();
            if (exchange.getRequestURI().getPath().equals("/admin/leave") && !stopAfter.isNegative()) {
                // Weir commits, leaves the group and stops; its HTTP server closes last.
                CompletableFuture.delayedExecutor(stopAfter.toMillis(), TimeUnit.MILLISECONDS)
                        .execute(() -> weir.stop(0));
            }
        });
        weir.start();
        return weir.getAddress().getPort();
    }

    @Test
    void aRestartedPodKeepsItsMembership() throws Exception {
        int port = startWeir(NEVER);

        Process hook =
                runHook(port, "kubernetes.io/config.seen=\"2024-01-01T00:00:00Z\"\nweir.io/scale-in=\"false\"\n", 5);

        assertExitsWithin(hook, Duration.ofSeconds(5));
        assertThat(requests).as("SIGTERM alone stops a restarted pod").isEmpty();
        assertThat(log()).isEmpty();
    }

    @Test
    void aPodMarkedForScaleInLeavesTheGroupAndWaitsUntilItHasStopped() throws Exception {
        int port = startWeir(Duration.ofMillis(1500));

        long start = System.nanoTime();
        Process hook =
                runHook(port, "kubernetes.io/config.seen=\"2024-01-01T00:00:00Z\"\nweir.io/scale-in=\"true\"", 20);

        assertExitsWithin(hook, Duration.ofSeconds(15));
        assertThat(requests).containsExactly("POST /admin/leave");
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .as("returned only once the port closed")
                .isGreaterThanOrEqualTo(Duration.ofMillis(1500));
        assertThat(log())
                .contains("weir preStop: scale-in: POST /admin/leave answered HTTP/1.1 202")
                .contains("the instance has left the group and stopped");
    }

    @Test
    void aMarkedPodCallsTheAdminPortWithTheFirstTokenOfTheTokenFile() throws Exception {
        int adminPort = startWeir(Duration.ofMillis(200));
        List<String> authorizations = new CopyOnWriteArrayList<>();
        weir.createContext("/admin/", exchange -> {
            authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            exchange.sendResponseHeaders(202, -1);
            exchange.close();
            CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS).execute(() -> weir.stop(0));
        });
        Path tokens = Files.writeString(dir.resolve("token"), "\nfirst-token\nsecond-token\n");

        Process hook = runHook(
                freePort(),
                "weir.io/scale-in=\"true\"\n",
                10,
                Map.of(
                        "WEIR_HTTP_ADMIN_PORT",
                        String.valueOf(adminPort),
                        "WEIR_HTTP_AUTH_TOKEN_FILE",
                        tokens.toString()));

        assertExitsWithin(hook, Duration.ofSeconds(10));
        assertThat(authorizations).containsExactly("Bearer first-token");
        assertThat(log()).contains("answered HTTP/1.1 202").doesNotContain("first-token");
    }

    @Test
    void readsThePortAndTokenFileFromThePropertiesFileWhenTheEnvironmentLacksThem() throws Exception {
        int adminPort = startWeir(Duration.ofMillis(200));
        List<String> authorizations = recordAuthorizations();
        Path tokens = Files.writeString(dir.resolve("token"), "file-token\n");
        // As the chart writes its config values; WEIR_HTTP_PORT (another port) stays in the environment.
        Path properties = Files.writeString(
                dir.resolve("weir.properties"),
                "# Written by the Helm chart\napplication.id=orders\nhttp.admin.port=" + adminPort
                        + "\nhttp.auth.token.file = " + tokens + "\n");

        Process hook = runHook(
                freePort(), "weir.io/scale-in=\"true\"\n", 10, Map.of("WEIR_CONFIG_FILE", properties.toString()));

        assertExitsWithin(hook, Duration.ofSeconds(10));
        assertThat(authorizations).containsExactly("Bearer file-token");
    }

    @Test
    void aWeirVariableWinsOverThePropertiesFileAsInWeir() throws Exception {
        int adminPort = startWeir(Duration.ofMillis(200));
        List<String> authorizations = recordAuthorizations();
        Path properties = Files.writeString(
                dir.resolve("weir.properties"), "http.admin.port=" + freePort() + "\nhttp.auth.token=from-file\n");

        Process hook = runHook(
                freePort(),
                "weir.io/scale-in=\"true\"\n",
                10,
                Map.of(
                        "WEIR_CONFIG_FILE",
                        properties.toString(),
                        "WEIR_HTTP_ADMIN_PORT",
                        String.valueOf(adminPort),
                        "WEIR_HTTP_AUTH_TOKEN",
                        "from-env,second"));

        assertExitsWithin(hook, Duration.ofSeconds(10));
        assertThat(authorizations).containsExactly("Bearer from-env");
    }

    @Test
    void aMarkedPodCallsAnHttpsServerWithCurlSendingTheToken() throws Exception {
        callsAnHttpsServerWith("curl");
    }

    @Test
    void aMarkedPodCallsAnHttpsServerWithOpensslWhenTheImageHasNoCurl() throws Exception {
        callsAnHttpsServerWith("openssl");
    }

    private void callsAnHttpsServerWith(String tool) throws Exception {
        SelfSignedTls tls = SelfSignedTls.shared();
        weir = tls.server(new InetSocketAddress(LOCALHOST, 0));
        List<String> authorizations = new CopyOnWriteArrayList<>();
        weir.createContext("/", exchange -> {
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
            authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            exchange.sendResponseHeaders(202, -1);
            exchange.close();
            CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS).execute(() -> weir.stop(0));
        });
        weir.start();
        Path tokens = Files.writeString(dir.resolve("token"), "tls-token\n");

        Process hook = runHook(
                weir.getAddress().getPort(),
                "weir.io/scale-in=\"true\"\n",
                10,
                Map.of(
                        "PATH",
                        SelfSignedTls.toolsOnly(dir.resolve("bin"), tool).toString(),
                        "WEIR_HTTP_TLS_KEYSTORE_PATH",
                        tls.keyStore.toString(),
                        "WEIR_HTTP_AUTH_TOKEN_FILE",
                        tokens.toString()));

        assertExitsWithin(hook, Duration.ofSeconds(15));
        assertThat(requests).containsExactly("POST /admin/leave");
        assertThat(authorizations).containsExactly("Bearer tls-token");
        assertThat(log())
                .contains("POST /admin/leave answered HTTP/1.1 202")
                .contains("the instance has left the group and stopped")
                .doesNotContain("tls-token");
    }

    @Test
    void aMarkedPodWhoseServerSpeaksTlsIsLeftToSigtermWhenTheImageHasNeitherCurlNorOpenssl() throws Exception {
        int port = startWeir(NEVER);

        Process hook = runHook(
                port,
                "weir.io/scale-in=\"true\"\n",
                5,
                Map.of(
                        "PATH",
                        SelfSignedTls.toolsOnly(dir.resolve("bin")).toString(),
                        "WEIR_HTTP_TLS_KEYSTORE_PATH",
                        "/etc/weir/tls/keystore.p12"));

        assertExitsWithin(hook, Duration.ofSeconds(5));
        assertThat(requests).isEmpty();
        assertThat(log()).contains("speaks TLS and this image has neither curl nor openssl");
    }

    @Test
    void theChartGivesTheHookItsTokenFileAndPropertiesFile() {
        Container weir = chart().set("http.auth.existingSecret", "orders-http-token")
                .set("http.adminPort", 8081)
                .render()
                .only(StatefulSet.class)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0);
        Map<String, String> env = weir.getEnv().stream()
                .filter(e -> e.getValue() != null)
                .collect(java.util.stream.Collectors.toMap(e -> e.getName(), e -> e.getValue()));

        assertThat(env)
                .containsEntry("WEIR_HTTP_AUTH_TOKEN_FILE", "/etc/weir/http-token/token")
                .containsEntry("WEIR_HTTP_ADMIN_PORT", "8081")
                .containsEntry("WEIR_CONFIG_FILE", "/etc/weir/config/weir.properties");
        assertThat(weir.getVolumeMounts())
                .anySatisfy(m -> assertThat(m.getMountPath()).isEqualTo("/etc/weir/http-token"));
    }

    private List<String> recordAuthorizations() {
        List<String> authorizations = new CopyOnWriteArrayList<>();
        weir.createContext("/admin/", exchange -> {
            authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            exchange.sendResponseHeaders(202, -1);
            exchange.close();
            CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS).execute(() -> weir.stop(0));
        });
        return authorizations;
    }

    @Test
    void aMarkedPodThatDoesNotStopInTimeIsLeftToSigterm() throws Exception {
        int port = startWeir(NEVER);

        Process hook = runHook(port, "weir.io/scale-in=\"true\"\n", 2);

        assertExitsWithin(hook, Duration.ofSeconds(10));
        assertThat(requests).containsExactly("POST /admin/leave");
        assertThat(log()).contains("the instance is still up after 2 s; SIGTERM follows");
    }

    @Test
    void aMarkedPodWhoseServerIsDownIsLeftToSigterm() throws Exception {
        Process hook = runHook(freePort(), "weir.io/scale-in=\"true\"\n", 5);

        assertExitsWithin(hook, Duration.ofSeconds(5));
        assertThat(log()).contains("nothing answers on port");
    }

    @Test
    void thePodRunsThisScriptWithItsAnnotationsWhereTheScriptReadsThem() throws Exception {
        WeirChart.Manifests manifests = chart().render();
        StatefulSet statefulSet = manifests.only(StatefulSet.class);
        Container weir =
                statefulSet.getSpec().getTemplate().getSpec().getContainers().get(0);

        assertThat(manifests
                        .named(ConfigMap.class, WeirChart.FULLNAME)
                        .getData()
                        .get("pre-stop.sh"))
                .isEqualTo(Files.readString(SCRIPT));
        assertThat(weir.getLifecycle().getPreStop().getExec().getCommand())
                .startsWith("/bin/bash", "/etc/weir/config/pre-stop.sh");
        assertThat(weir.getVolumeMounts())
                .anySatisfy(m -> assertThat(m.getMountPath()).isEqualTo("/etc/weir/config"));
        assertThat(weir.getVolumeMounts()).anySatisfy(m -> {
            assertThat(m.getMountPath()).isEqualTo("/etc/weir/pod");
            Volume podinfo = statefulSet.getSpec().getTemplate().getSpec().getVolumes().stream()
                    .filter(v -> v.getName().equals(m.getName()))
                    .findFirst()
                    .orElseThrow();
            assertThat(podinfo.getDownwardAPI().getItems()).singleElement().satisfies(item -> {
                assertThat(item.getPath()).isEqualTo("annotations");
                assertThat(item.getFieldRef().getFieldPath()).isEqualTo("metadata.annotations");
            });
        });
        assertThat(Files.readString(SCRIPT)).contains("${PODINFO_ANNOTATIONS:-/etc/weir/pod/annotations}");
    }

    private static InetAddress localhost() {
        try {
            return InetAddress.getByName("127.0.0.1");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private Process runHook(int port, String annotations, int waitSeconds) throws IOException {
        return runHook(port, annotations, waitSeconds, Map.of());
    }

    private Process runHook(int port, String annotations, int waitSeconds, Map<String, String> env) throws IOException {
        Path annotationsFile = dir.resolve("annotations");
        Files.writeString(annotationsFile, annotations);
        ProcessBuilder builder = new ProcessBuilder("bash", SCRIPT.toString(), String.valueOf(waitSeconds));
        builder.environment().put("WEIR_HTTP_PORT", String.valueOf(port));
        builder.environment().put("PODINFO_ANNOTATIONS", annotationsFile.toString());
        builder.environment().put("PRESTOP_LOG", dir.resolve("log").toString());
        builder.environment().putAll(env);
        builder.redirectErrorStream(true).redirectOutput(dir.resolve("output").toFile());
        return builder.start();
    }

    private String log() throws IOException {
        Path log = dir.resolve("log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    private static void assertExitsWithin(Process hook, Duration deadline) throws InterruptedException {
        assertThat(hook.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS))
                .as("hook returned in time")
                .isTrue();
        assertThat(hook.exitValue()).isZero();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, LOCALHOST)) {
            return socket.getLocalPort();
        }
    }
}
