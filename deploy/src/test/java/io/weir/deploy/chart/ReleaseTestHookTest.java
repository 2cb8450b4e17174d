package io.weir.deploy.chart;

import static io.weir.deploy.chart.WeirChart.chart;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
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
 * what is wrong with an unhealthy one.
 */
class ReleaseTestHookTest {

  private static final Path SCRIPT = WeirChart.directory().resolve("files/helm-test.sh");
  private static final InetAddress LOCALHOST = InetAddress.getLoopbackAddress();

  @TempDir Path dir;
  private final List<HttpServer> servers = new ArrayList<>();

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

    assertThat(test.getMetadata().getAnnotations()).containsEntry("helm.sh/hook", "test")
        .containsEntry("helm.sh/hook-delete-policy", "before-hook-creation,hook-succeeded");
    assertThat(script.getMetadata().getAnnotations()).containsEntry("helm.sh/hook", "test")
        .containsEntry("helm.sh/hook-weight", "-1");
    assertThat(script.getData().get("helm-test.sh")).isEqualTo(Files.readString(SCRIPT));
    assertThat(test.getSpec().getRestartPolicy()).isEqualTo("Never");
    Container container = test.getSpec().getContainers().get(0);
    assertThat(container.getImage()).isEqualTo(
        manifests.only(StatefulSet.class).getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
    assertThat(container.getCommand()).containsExactly("/bin/bash", "/etc/weir/test/helm-test.sh");
    assertThat(env(container)).containsEntry("WEIR_TEST_PODS",
            "orders-weir-0.orders-weir.streaming.svc:8080 orders-weir-1.orders-weir.streaming.svc:8080"
                + " orders-weir-2.orders-weir.streaming.svc:8080")
        .containsEntry("WEIR_TEST_APPLICATION_ID", "orders");
    assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    // Not an endpoint of the headless Service, not counted by the PodDisruptionBudget.
    Map<String, String> selector = manifests.only(Service.class).getSpec().getSelector();
    assertThat(selector.entrySet()).as("the Service's selector").isNotEmpty()
        .anySatisfy(e -> assertThat(test.getMetadata().getLabels()).doesNotContainEntry(e.getKey(), e.getValue()));
  }

  @Test
  void withKedaChecksTheFewestReplicas() {
    Pod test = chart().values("keda.yaml").render().only(Pod.class);

    assertThat(env(test.getSpec().getContainers().get(0)).get("WEIR_TEST_PODS").split(" ")).hasSize(2);
  }

  @Test
  void isLeftOutWhenDisabledOrWhenTheHttpServerSpeaksTls() {
    assertThat(chart().set("tests.enabled", false).render().all(Pod.class)).isEmpty();
    assertThat(chart().set("config.http\\.tls\\.keystore\\.path", "/etc/weir/tls/http.p12").render().all(Pod.class))
        .isEmpty();
  }

  // ---- the script ---------------------------------------------------------------------------------

  @Test
  void passesWhenEveryPodIsReadyAndRunsItsOwnTasks() throws Exception {
    String pods = String.join(" ", pod("orders", 200, "0_0", "0_3"), pod("orders", 200, "0_1", "1_0"),
        pod("orders", 200, "0_2"));

    Result result = runTest(pods, 10);

    assertThat(result.exit()).as(result.output()).isZero();
    assertThat(result.output()).contains("ready, RUNNING, 2 active tasks").contains("passed (3 pods of orders)");
  }

  @Test
  void waitsForAPodThatIsStillRestoring() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    String restoring = serve(path -> path.equals("/health/ready") && asked.incrementAndGet() < 3
        ? new Answer(503, "{\"status\":\"DOWN\",\"state\":\"RESTORING\"}") : info("orders", "0_1"));
    String pods = pod("orders", 200, "0_0") + " " + restoring;

    Result result = runTest(pods, 30);

    assertThat(result.exit()).as(result.output()).isZero();
    assertThat(asked.get()).isGreaterThanOrEqualTo(3);
  }

  @Test
  void failsNamingAPodThatNeverBecomesReady() throws Exception {
    String stuck = pod("orders", 503, "0_1");
    String pods = pod("orders", 200, "0_0") + " " + stuck;

    Result result = runTest(pods, 3);

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.output()).contains(stuck + ": /health/ready answered 503").contains("FAILED after 3 s");
  }

  @Test
  void failsWhenATaskIsActiveOnTwoPods() throws Exception {
    Result result = runTest(pod("orders", 200, "0_0", "0_1") + " " + pod("orders", 200, "0_1"), 2);

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.output()).contains("task 0_1 is active on both");
  }

  @Test
  void failsWhenAPodRunsAnotherApplication() throws Exception {
    Result result = runTest(pod("payments", 200, "0_0"), 2);

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.output()).contains("runs application.id payments, not orders");
  }

  @Test
  void failsWhenNothingAnswers() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, LOCALHOST)) {
      port = socket.getLocalPort();
    }

    Result result = runTest("127.0.0.1:" + port, 2);

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.output()).contains("nothing answers");
  }

  // ---- helpers ------------------------------------------------------------------------------------

  private record Answer(int status, String body) {
  }

  private interface Route {
    Answer answer(String path);
  }

  /** A stand-in pod: /health/ready answers {@code readyStatus}, /info lists {@code tasks} on one thread. */
  private String pod(String applicationId, int readyStatus, String... tasks) throws IOException {
    return serve(path -> path.equals("/health/ready")
        ? new Answer(readyStatus, "{\"status\":\"" + (readyStatus == 200 ? "UP" : "DOWN") + "\"}")
        : info(applicationId, tasks));
  }

  /** /info as Weir writes it (InstanceJson): compact JSON, tasks per stream thread. */
  private static Answer info(String applicationId, String... tasks) {
    String list = java.util.Arrays.stream(tasks).map(t -> "\"" + t + "\"").collect(Collectors.joining(","));
    return new Answer(200, "{\"version\":\"0.1.0\",\"applicationId\":\"" + applicationId + "\",\"instanceId\":\"x\","
        + "\"guarantee\":\"exactly_once\",\"state\":\"RUNNING\",\"tasksByThread\":{\"" + applicationId
        + "-x-0\":[" + list + "]},\"standbyTasks\":[\"9_9\"],\"warmupTasks\":[]}");
  }

  private String serve(Route route) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(LOCALHOST, 0), 0);
    server.createContext("/", exchange -> {
      Answer answer = route.answer(exchange.getRequestURI().getPath());
      byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(answer.status(), body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    servers.add(server);
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  private record Result(int exit, String output) {
  }

  private Result runTest(String pods, int timeoutSeconds) throws Exception {
    Path output = dir.resolve("output-" + System.nanoTime());
    ProcessBuilder builder = new ProcessBuilder("bash", SCRIPT.toString());
    builder.environment().put("WEIR_TEST_PODS", pods);
    builder.environment().put("WEIR_TEST_APPLICATION_ID", "orders");
    builder.environment().put("WEIR_TEST_TIMEOUT_SECONDS", String.valueOf(timeoutSeconds));
    builder.redirectErrorStream(true).redirectOutput(output.toFile());
    Process test = builder.start();
    assertThat(test.waitFor(timeoutSeconds + 30L, TimeUnit.SECONDS)).as("the test ends after its timeout").isTrue();
    return new Result(test.exitValue(), Files.readString(output));
  }

  private static Map<String, String> env(Container container) {
    return container.getEnv().stream().filter(e -> e.getValue() != null)
        .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
  }
}
