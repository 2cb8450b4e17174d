package io.weir.deploy.chart;

import static io.weir.deploy.chart.WeirChart.chart;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.weir.internal.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code helm test} hook: the chart renders it as test-only objects that no Service or
 * PodDisruptionBudget selects, and its script (files/helm-test.sh), run with bash against
 * stand-ins for the pods' HTTP servers answering as Weir does, passes a healthy release and names
 * what is wrong with an unhealthy one. The stand-ins listen on loopback addresses of their own
 * (127.0.0.2 for ordinal 0, ...) at one port, and a {@code getent} first on the script's PATH plays
 * the cluster's DNS for the headless Service's names.
 */
class ReleaseTestHookTest {

    private static final Path SCRIPT = WeirChart.directory().resolve("files/helm-test.sh");
    /**
     * The timeout of a test whose release stays unhealthy: the script checks every pod once and
     * reports at once. Its retries (every 2 s until the timeout) are the same checks again; they are
     * covered by waitsForAPodThatIsStillRestoring and failsNamingAPodThatNeverBecomesReady.
     */
    private static final int ONE_PASS = 0;

    @TempDir
    Path dir;

    private final List<HttpServer> servers = new ArrayList<>();
    private final List<String> hosts = new ArrayList<>();
    private final int port;
    /** Set: the stand-ins speak HTTPS with this certificate. */
    private SelfSignedTls tls;
    /** Set: /info answers 401 without this bearer token, as with http.auth.scope=all. */
    private String requiredToken;

    ReleaseTestHookTest() throws IOException {
        port = freePort();
    }

    @AfterEach
    void stopServers() {
        servers.forEach(s -> s.stop(0));
    }

    // ---- the rendered objects ---------------------------------------------------------------------

    @Test
    void rendersATestPodThatChecksEveryReplicaAndNothingSelectsIt() throws IOException {
        WeirChart.Manifests manifests = chart().set("replicaCount", 3).render();
        Pod test = manifests.only(Pod.class);
        ConfigMap script = manifests.named(ConfigMap.class, WeirChart.FULLNAME + "-test");

        assertThat(test.getMetadata().getAnnotations())
                .containsEntry("helm.sh/hook", "test")
                .containsEntry("helm.sh/hook-delete-policy", "before-hook-creation,hook-succeeded");
        assertThat(script.getMetadata().getAnnotations())
                .containsEntry("helm.sh/hook", "test")
                .containsEntry("helm.sh/hook-weight", "-1");
        assertThat(script.getData().get("helm-test.sh")).isEqualTo(Files.readString(SCRIPT));
        assertThat(test.getSpec().getRestartPolicy()).isEqualTo("Never");
        Container container = test.getSpec().getContainers().get(0);
        assertThat(container.getImage())
                .isEqualTo(manifests
                        .only(StatefulSet.class)
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getImage());
        assertThat(container.getCommand()).containsExactly("/bin/bash", "/etc/weir/test/helm-test.sh");
        // The pods are found in DNS, not counted from the values: nothing in the test says 3.
        assertThat(env(container))
                .containsEntry("WEIR_TEST_POD_PREFIX", "orders-weir-")
                .containsEntry("WEIR_TEST_POD_DOMAIN", "orders-weir.streaming.svc")
                .containsEntry("WEIR_TEST_PORT", "8080")
                .containsEntry("WEIR_TEST_APPLICATION_ID", "orders");
        assertThat(manifests.only(StatefulSet.class).getSpec().getServiceName()).isEqualTo("orders-weir");
        assertThat(manifests.only(Service.class).getSpec().getPublishNotReadyAddresses())
                .as("restoring pods resolve too")
                .isTrue();
        assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        // Not an endpoint of the headless Service, not counted by the PodDisruptionBudget.
        Map<String, String> selector = manifests.only(Service.class).getSpec().getSelector();
        assertThat(selector.entrySet())
                .as("the Service's selector")
                .isNotEmpty()
                .anySatisfy(
                        e -> assertThat(test.getMetadata().getLabels()).doesNotContainEntry(e.getKey(), e.getValue()));
    }

    @Test
    void isLeftOutWhenDisabled() {
        assertThat(chart().set("tests.enabled", false).render().all(Pod.class)).isEmpty();
    }

    @Test
    void withTlsAndScopeAllTheTestPodSpeaksHttpsWithTheCaAndTheToken() {
        Pod test = chart().set("http.tls.keystore.secretName", "orders-http-tls")
                .set("http.auth.existingSecret", "orders-http-token")
                .set("http.auth.scope", "all")
                .render()
                .only(Pod.class);
        Container container = test.getSpec().getContainers().get(0);

        assertThat(env(container))
                .containsEntry("WEIR_TEST_SCHEME", "https")
                .containsEntry("WEIR_TEST_CA_FILE", "/etc/weir/http-ca/ca.crt")
                .containsEntry("WEIR_TEST_TOKEN_FILE", "/etc/weir/http-token/token");
        assertThat(container.getVolumeMounts())
                .extracting(m -> m.getName() + "@" + m.getMountPath())
                .contains("http-ca@/etc/weir/http-ca", "http-token@/etc/weir/http-token");
        assertThat(test.getSpec().getVolumes())
                .filteredOn(v -> v.getSecret() != null)
                .extracting(v -> v.getName() + "<-" + v.getSecret().getSecretName())
                .containsExactlyInAnyOrder("http-ca<-orders-http-tls", "http-token<-orders-http-token");

        // A CA of its own Secret; and with scope admin, /info is open: no token in the test pod.
        Pod separateCa = chart().set("http.tls.keystore.secretName", "orders-http-tls")
                .set("http.tls.ca.secretName", "orders-ca")
                .set("http.tls.ca.key", "tls.crt")
                .set("http.auth.existingSecret", "orders-http-token")
                .render()
                .only(Pod.class);
        assertThat(env(separateCa.getSpec().getContainers().get(0)))
                .containsEntry("WEIR_TEST_CA_FILE", "/etc/weir/http-ca/tls.crt")
                .doesNotContainKey("WEIR_TEST_TOKEN_FILE");
        assertThat(separateCa.getSpec().getVolumes())
                .filteredOn(v -> v.getName().equals("http-ca"))
                .singleElement()
                .satisfies(v -> assertThat(v.getSecret().getSecretName()).isEqualTo("orders-ca"));
        assertThat(env(chart().render()
                        .only(Pod.class)
                        .getSpec()
                        .getContainers()
                        .get(0)))
                .containsEntry("WEIR_TEST_SCHEME", "http")
                .doesNotContainKeys("WEIR_TEST_CA_FILE", "WEIR_TEST_TOKEN_FILE");
    }

    // ---- the script ---------------------------------------------------------------------------------

    @Test
    void passesWhenEveryPodIsReadyAndRunsItsOwnTasks() throws Exception {
        pod(0, "orders", 200, "0_0", "0_3");
        pod(1, "orders", 200, "0_1", "1_0");
        pod(2, "orders", 200, "0_2");

        Result result = runTest(10);

        assertThat(result.exit()).as(result.output()).isZero();
        assertThat(result.output())
                .contains(name(0) + ": ready, RUNNING, 2 active tasks")
                .contains("passed (3 pods of orders)");
    }

    @Test
    void checksThePodsThatExistWhateverTheReplicaCount() throws Exception {
        // Scaled out by hand or by KEDA to 5: every one is found and checked.
        for (int ordinal = 0; ordinal < 5; ordinal++) {
            pod(ordinal, "orders", 200, "0_" + ordinal);
        }

        Result result = runTest(10);

        assertThat(result.exit()).as(result.output()).isZero();
        assertThat(result.output()).contains(name(4) + ": ready").contains("passed (5 pods of orders)");
    }

    @Test
    void failsNamingAnOrdinalMissingBelowOneThatExists() throws Exception {
        pod(0, "orders", 200, "0_0");
        pod(2, "orders", 200, "0_2");

        Result result = runTest(ONE_PASS);

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.output()).contains(name(1) + ": does not resolve, though " + name(2) + " does");
    }

    @Test
    void failsWhenNoPodResolves() throws Exception {
        Result result = runTest(ONE_PASS);

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.output()).contains("no pod found: " + name(0) + " does not resolve");
    }

    @Test
    void waitsForAPodThatIsStillRestoring() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        pod(0, "orders", 200, "0_0");
        serve(
                1,
                path -> path.equals("/health/ready") && asked.incrementAndGet() < 3
                        ? new Answer(
                                503, json(Json.object().put("status", "DOWN").put("state", "RESTORING")))
                        : info("orders", "0_1"));

        Result result = runTest(30);

        assertThat(result.exit()).as(result.output()).isZero();
        assertThat(asked.get()).isGreaterThanOrEqualTo(3);
    }

    @Test
    void failsNamingAPodThatNeverBecomesReady() throws Exception {
        pod(0, "orders", 200, "0_0");
        pod(1, "orders", 503, "0_1");

        // Checked, found not ready, checked again after the 2 s pause, and reported at the deadline.
        Result result = runTest(2);

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.output())
                .contains(name(1) + ": /health/ready answered 503")
                .contains("FAILED after 2 s");
    }

    @Test
    void failsWhenATaskIsActiveOnTwoPods() throws Exception {
        pod(0, "orders", 200, "0_0", "0_1");
        pod(1, "orders", 200, "0_1");

        Result result = runTest(ONE_PASS);

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.output()).contains("task 0_1 is active on both");
    }

    @Test
    void failsWhenAPodRunsAnotherApplication() throws Exception {
        pod(0, "payments", 200, "0_0");

        Result result = runTest(ONE_PASS);

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.output()).contains("runs application.id payments, not orders");
    }

    @Test
    void passesOverHttpsWithTheTokenUsingCurl() throws Exception {
        passesOverHttpsWithTheTokenUsing("curl");
    }

    @Test
    void passesOverHttpsWithTheTokenUsingOpensslWhenTheImageHasNoCurl() throws Exception {
        passesOverHttpsWithTheTokenUsing("openssl");
    }

    private void passesOverHttpsWithTheTokenUsing(String tool) throws Exception {
        tls = SelfSignedTls.shared();
        requiredToken = "test-token";
        pod(0, "orders", 200, "0_0");
        pod(1, "orders", 200, "0_1");

        Result result = runTest(10, https(tool, "\ntest-token\nold-token\n"));

        assertThat(result.exit()).as(result.output()).isZero();
        assertThat(result.output())
                .contains(name(1) + ": ready, RUNNING, 1 active tasks")
                .contains("passed (2 pods");
        assertThat(result.output()).doesNotContain("test-token");
    }

    @Test
    void failsNamingTheCertificateProblemOverHttps() throws Exception {
        tls = SelfSignedTls.shared();
        pod(0, "orders", 200, "0_0");
        // Trusting another CA than the one that signed the pods' certificate.
        Map<String, String> env = new java.util.HashMap<>(https("curl", null));
        env.put("WEIR_TEST_CA_FILE", SelfSignedTls.unrelatedCaPem(dir).toString());

        Result result = runTest(ONE_PASS, env);

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.output()).contains(name(0) + ": no HTTPS answer from " + address(0) + ":" + port + ": curl:");
    }

    @Test
    void passesOverPlainHttpWithTheToken() throws Exception {
        requiredToken = "test-token";
        pod(0, "orders", 200, "0_0");
        Path tokens = Files.writeString(dir.resolve("token"), "test-token\n");

        Result result = runTest(10, Map.of("WEIR_TEST_TOKEN_FILE", tokens.toString()));

        assertThat(result.exit()).as(result.output()).isZero();
        assertThat(result.output()).contains("passed (1 pods of orders)");
    }

    @Test
    void failsNamingTheMissingTokenWhenInfoWantsOne() throws Exception {
        requiredToken = "test-token";
        pod(0, "orders", 200, "0_0");

        Result result = runTest(ONE_PASS);

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.output()).contains(name(0) + ": /info answered 401 (a token is needed");
    }

    @Test
    void failsAtOnceOverHttpsWhenTheImageHasNeitherCurlNorOpenssl() throws Exception {
        tls = SelfSignedTls.shared();
        pod(0, "orders", 200, "0_0");

        Result result = runTest(30, https(null, null));

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.output()).contains("this image has neither curl nor openssl");
    }

    @Test
    void failsWhenNothingAnswers() throws Exception {
        hosts.add(address(0) + " " + name(0));

        Result result = runTest(ONE_PASS);

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.output()).contains(name(0) + ": nothing answers on " + address(0) + ":" + port);
    }

    // ---- helpers ------------------------------------------------------------------------------------

    private record Answer(int status, String body) {}

    private interface Route {
        Answer answer(String path);
    }

    /** A stand-in for pod {@code ordinal}: /health/ready answers {@code readyStatus}, /info lists {@code tasks} on one thread. */
    private void pod(int ordinal, String applicationId, int readyStatus, String... tasks) throws IOException {
        serve(
                ordinal,
                path -> path.equals("/health/ready")
                        ? new Answer(
                                readyStatus,
                                json(Json.object()
                                        .put("status", readyStatus == 200 ? "UP" : "DOWN")
                                        .put("state", "RUNNING")))
                        : info(applicationId, tasks));
    }

    /** /info with Weir's fields, written as Weir writes it (Json.prettyBytes: one field per line, "key" : value). */
    private static Answer info(String applicationId, String... tasks) {
        ObjectNode info = Json.object()
                .put("version", "0.1.0")
                .put("applicationId", applicationId)
                .put("instanceId", "x")
                .put("guarantee", "exactly_once")
                .put("state", "RUNNING");
        ArrayNode active = info.putObject("tasksByThread").putArray(applicationId + "-x-0");
        java.util.Arrays.stream(tasks).forEach(active::add);
        info.putArray("standbyTasks").add("9_9");
        info.putArray("warmupTasks");
        return new Answer(200, json(info));
    }

    private static String json(ObjectNode node) {
        return new String(Json.prettyBytes(node), StandardCharsets.UTF_8);
    }

    /** Serves {@code route} at pod {@code ordinal}'s address and the shared port, and puts its name in DNS. */
    private void serve(int ordinal, Route route) throws IOException {
        InetSocketAddress at = new InetSocketAddress(address(ordinal), port);
        HttpServer server = tls == null ? HttpServer.create(at, 0) : tls.server(at);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            boolean authorized = requiredToken == null
                    || ("Bearer " + requiredToken)
                            .equals(exchange.getRequestHeaders().getFirst("Authorization"));
            Answer answer = path.equals("/info") && !authorized
                    ? new Answer(401, json(Json.object().put("error", "unauthorized")))
                    : route.answer(path);
            byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(answer.status(), body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        servers.add(server);
        hosts.add(address(ordinal) + " " + name(ordinal));
    }

    private static String name(int ordinal) {
        return "orders-weir-" + ordinal + ".orders-weir.streaming.svc";
    }

    private static String address(int ordinal) {
        return "127.0.0." + (ordinal + 2);
    }

    /** A port free on the loopback addresses the stand-ins use. */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(address(0)))) {
            return socket.getLocalPort();
        }
    }

    private record Result(int exit, String output) {}

    /** The environment of an HTTPS test with only {@code tool} (or nothing) on PATH, and a token file when given. */
    private Map<String, String> https(String tool, String tokens) throws IOException {
        Map<String, String> env = new java.util.HashMap<>();
        Path tools = tool == null
                ? SelfSignedTls.toolsOnly(dir.resolve("tools"))
                : SelfSignedTls.toolsOnly(dir.resolve("tools"), tool);
        env.put("PATH", tools.toString());
        env.put("WEIR_TEST_SCHEME", "https");
        env.put("WEIR_TEST_CA_FILE", tls.caPem.toString());
        if (tokens != null) {
            env.put(
                    "WEIR_TEST_TOKEN_FILE",
                    Files.writeString(dir.resolve("token"), tokens).toString());
        }
        return env;
    }

    private Result runTest(int timeoutSeconds) throws Exception {
        return runTest(timeoutSeconds, Map.of());
    }

    private Result runTest(int timeoutSeconds, Map<String, String> extraEnv) throws Exception {
        // getent hosts NAME, as the cluster's DNS would answer for the headless Service.
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path hostsFile = Files.write(dir.resolve("hosts"), hosts);
        Path getent = Files.writeString(bin.resolve("getent"), """
        #!/bin/bash
        [[ "$1" == hosts ]] || exit 2
        while read -r address name; do
          [[ "$name" == "$2" ]] && { echo "$address       $name"; exit 0; }
        done < "%s"
        exit 2
        """.formatted(hostsFile));
        assertThat(getent.toFile().setExecutable(true)).isTrue();
        Path output = dir.resolve("output-" + System.nanoTime());
        ProcessBuilder builder = new ProcessBuilder("bash", SCRIPT.toString());
        builder.environment().put("PATH", bin + ":" + extraEnv.getOrDefault("PATH", System.getenv("PATH")));
        builder.environment().put("WEIR_TEST_POD_PREFIX", "orders-weir-");
        builder.environment().put("WEIR_TEST_POD_DOMAIN", "orders-weir.streaming.svc");
        builder.environment().put("WEIR_TEST_PORT", String.valueOf(port));
        builder.environment().put("WEIR_TEST_APPLICATION_ID", "orders");
        builder.environment().put("WEIR_TEST_TIMEOUT_SECONDS", String.valueOf(timeoutSeconds));
        extraEnv.forEach((name, value) -> {
            if (!name.equals("PATH")) {
                builder.environment().put(name, value);
            }
        });
        builder.redirectErrorStream(true).redirectOutput(output.toFile());
        Process test = builder.start();
        assertThat(test.waitFor(timeoutSeconds + 30L, TimeUnit.SECONDS))
                .as("the test ends after its timeout")
                .isTrue();
        return new Result(test.exitValue(), Files.readString(output));
    }

    private static Map<String, String> env(Container container) {
        return container.getEnv().stream()
                .filter(e -> e.getValue() != null)
                .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
    }
}
