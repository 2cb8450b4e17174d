package io.weir.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.errors.ConfigException;
import io.weir.internal.config.WeirVersion;
import io.weir.internal.topology.TopologyDescription;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OpsHttpServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();
    private final FakeView view = new FakeView();
    private OpsHttpServer server;

    @BeforeEach
    void start() {
        server = OpsHttpServer.start("127.0.0.1", 0, view);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpRequest.Builder request(String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + pathAndQuery))
                .timeout(Duration.ofSeconds(5));
    }

    /** Sends a request and checks what every answer must have, whatever its status. */
    private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.headers().firstValue("cache-control")).hasValue("no-store");
        if (!request.method().equals("HEAD")) {
            assertThat(response.headers().firstValueAsLong("content-length"))
                    .hasValue(response.body().getBytes(StandardCharsets.UTF_8).length);
        }
        return response;
    }

    private HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
        return send(request(pathAndQuery).GET().build());
    }

    private HttpResponse<String> post(String path) throws IOException, InterruptedException {
        return send(request(path).POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    private static JsonNode json(HttpResponse<String> response) throws IOException {
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        return JSON.readTree(response.body());
    }

    private static void assertError(HttpResponse<String> response, int status, String error) throws IOException {
        assertThat(response.statusCode()).isEqualTo(status);
        JsonNode body = json(response);
        assertThat(body.get("error").asText()).isEqualTo(error);
        assertThat(body.get("message").asText()).isNotBlank();
    }

    // ---- health ------------------------------------------------------------------------------

    @Test
    void liveAnswers200WithUpAndNoProblems() throws Exception {
        HttpResponse<String> response = get("/health/live");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = json(response);
        assertThat(body.get("status").asText()).isEqualTo("UP");
        assertThat(body.get("state").asText()).isEqualTo("RUNNING");
        assertThat(body.get("problems")).isEmpty();
    }

    @Test
    void liveAnswers503WithTheReasonWhenAThreadDied() throws Exception {
        view.liveness = () -> new HealthReport(
                false, "FAILED", List.of(Problem.of("thread_dead", "stream thread weir-stream-1 died")));

        HttpResponse<String> response = get("/health/live");

        assertThat(response.statusCode()).isEqualTo(503);
        JsonNode body = json(response);
        assertThat(body.get("status").asText()).isEqualTo("DOWN");
        assertThat(body.get("state").asText()).isEqualTo("FAILED");
        assertThat(body.get("problems").get(0).get("kind").asText()).isEqualTo("thread_dead");
    }

    @Test
    void readyAnswers503ListingProblemsWithTheirDetailsBesideKindAndMessage() throws Exception {
        view.readiness = () -> new HealthReport(
                false,
                "RESTORING",
                List.of(
                        new Problem(
                                "restoring",
                                "restoring word-counts of task 0_3",
                                Map.of(
                                        "thread",
                                        "weir-stream-1",
                                        "task",
                                        "0_3",
                                        "store",
                                        "word-counts",
                                        "restored",
                                        120,
                                        "remaining",
                                        880)),
                        new Problem(
                                "stalled",
                                "commits failing",
                                Map.of(
                                        "cause",
                                        "broker unreachable",
                                        "tasks",
                                        List.of("0_1", "0_2"),
                                        "seconds",
                                        12.5,
                                        "message",
                                        "must not override"))));

        HttpResponse<String> response = get("/health/ready");

        assertThat(response.statusCode()).isEqualTo(503);
        JsonNode body = json(response);
        assertThat(body.get("status").asText()).isEqualTo("DOWN");
        assertThat(body.get("state").asText()).isEqualTo("RESTORING");
        JsonNode restoring = body.get("problems").get(0);
        assertThat(restoring.get("kind").asText()).isEqualTo("restoring");
        assertThat(restoring.get("message").asText()).isEqualTo("restoring word-counts of task 0_3");
        assertThat(restoring.get("store").asText()).isEqualTo("word-counts");
        assertThat(restoring.get("restored").asLong()).isEqualTo(120);
        assertThat(restoring.get("remaining").asLong()).isEqualTo(880);
        JsonNode stalled = body.get("problems").get(1);
        assertThat(stalled.get("message").asText()).isEqualTo("commits failing");
        assertThat(stalled.get("tasks")).hasSize(2);
        assertThat(stalled.get("seconds").asDouble()).isEqualTo(12.5);
    }

    @Test
    void readyAnswers200WhenReady() throws Exception {
        HttpResponse<String> response = get("/health/ready");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).get("status").asText()).isEqualTo("UP");
    }

    // ---- metrics, info, topology -------------------------------------------------------------

    @Test
    void metricsAnswerPrometheusText() throws Exception {
        HttpResponse<String> response = get("/metrics");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(response.body()).isEqualTo(view.prometheusText());
    }

    @Test
    void infoShowsTheInstanceWithTasksPerThreadSorted() throws Exception {
        HttpResponse<String> response = get("/info");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = json(response);
        assertThat(body.get("version").asText()).isEqualTo("0.1.0");
        assertThat(body.get("applicationId").asText()).isEqualTo("wc");
        assertThat(body.get("instanceId").asText()).isEqualTo("wc-1");
        assertThat(body.get("guarantee").asText()).isEqualTo("exactly_once");
        assertThat(body.get("state").asText()).isEqualTo("RUNNING");
        assertThat(body.get("tasksByThread").fieldNames())
                .toIterable()
                .containsExactly("weir-stream-1", "weir-stream-2");
        assertThat(body.get("tasksByThread").get("weir-stream-1").toString()).isEqualTo("[\"0_0\",\"0_1\"]");
        assertThat(body.get("standbyTasks").toString()).isEqualTo("[\"1_1\",\"1_2\"]");
        assertThat(body.get("warmupTasks").toString()).isEqualTo("[\"1_2\"]");
    }

    @Test
    void topologyAnswersTheTopologyAsJson() throws Exception {
        HttpResponse<String> response = get("/topology");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response))
                .isEqualTo(TopologyDescription.of(OpsTopologies.mixed(), "wc", WeirVersion.current())
                        .toJsonTree());
        assertThat(json(get("/topology?format=json"))).isEqualTo(json(response));
    }

    @Test
    void topologyAnswersAMermaidGraphOnRequest() throws Exception {
        HttpResponse<String> response = get("/topology?format=mermaid");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("text/plain; charset=utf-8");
        assertThat(response.body()).startsWith("graph TD\n");
        OpsTopologies.mixed()
                .nodes()
                .keySet()
                .forEach(name -> assertThat(response.body()).contains("\"" + name + "\""));
    }

    @Test
    void topologyRejectsAnUnknownFormat() throws Exception {
        HttpResponse<String> response = get("/topology?format=dot");

        assertError(response, 400, "bad_request");
        assertThat(json(response).get("message").asText()).contains("dot", "mermaid");
    }

    // ---- admin -------------------------------------------------------------------------------

    @Test
    void leaveAnswers202OnceThen409() throws Exception {
        HttpResponse<String> first = post("/admin/leave");

        assertThat(first.statusCode()).isEqualTo(202);
        assertThat(json(first).get("status").asText()).isEqualTo("LEAVING");
        assertThat(view.stopping).isTrue();
        assertError(post("/admin/leave"), 409, "conflict");
    }

    // ---- errors ------------------------------------------------------------------------------

    @Test
    void unknownPathAnswers404() throws Exception {
        HttpResponse<String> response = get("/nothing/here");

        assertError(response, 404, "not_found");
        assertThat(json(response).get("message").asText()).contains("/health/ready");
        assertError(get("/health/live/"), 404, "not_found");
    }

    @Test
    void wrongMethodAnswers405WithAllow() throws Exception {
        HttpResponse<String> postToLive = post("/health/live");
        assertError(postToLive, 405, "method_not_allowed");
        assertThat(postToLive.headers().firstValue("allow")).hasValue("GET, HEAD");

        HttpResponse<String> getLeave = get("/admin/leave");
        assertError(getLeave, 405, "method_not_allowed");
        assertThat(getLeave.headers().firstValue("allow")).hasValue("POST");
        assertThat(view.stopping).isFalse();
    }

    @Test
    void headAnswersLikeGetWithoutABody() throws Exception {
        int getLength = get("/info").body().getBytes(StandardCharsets.UTF_8).length;

        HttpResponse<String> head = send(request("/info")
                .method("HEAD", HttpRequest.BodyPublishers.noBody())
                .build());

        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
        assertThat(head.headers().firstValueAsLong("content-length")).hasValue(getLength);
    }

    @Test
    void aViewThatThrowsGets500AndTheServerKeepsServing() throws Exception {
        view.readiness = () -> {
            throw new IllegalStateException("snapshot missing");
        };

        for (int i = 0; i < 5; i++) { // more than the two threads: none of them is lost
            HttpResponse<String> response = get("/health/ready");
            assertError(response, 500, "internal_error");
            assertThat(json(response).get("message").asText()).contains("/health/ready", "snapshot missing");
        }
        assertThat(get("/health/live").statusCode()).isEqualTo(200);
    }

    // ---- threads and life cycle --------------------------------------------------------------

    @Test
    void aSlowViewDoesNotHoldUpAnotherRequest() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Thread> answeredOn = new AtomicReference<>();
        view.readiness = () -> {
            answeredOn.set(Thread.currentThread());
            entered.countDown();
            try {
                release.await(2, TimeUnit.SECONDS); // a view breaking its promise to be quick
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new HealthReport(true, "RUNNING", List.of());
        };
        CompletableFuture<HttpResponse<String>> slow =
                client.sendAsync(request("/health/ready").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();

        HttpResponse<String> fast = client.send(
                request("/info").timeout(Duration.ofSeconds(1)).GET().build(), HttpResponse.BodyHandlers.ofString());

        assertThat(fast.statusCode()).isEqualTo(200);
        assertThat(slow).isNotDone();
        assertThat(answeredOn.get().getName()).startsWith("weir-http-");
        assertThat(answeredOn.get().isDaemon()).isTrue();
        release.countDown();
        assertThat(slow.get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    }

    @Test
    void whenEveryThreadHangsFurtherRequestsFailFastInsteadOfPilingUp() throws Exception {
        CountDownLatch entered = new CountDownLatch(OpsHttpServer.THREADS);
        CountDownLatch release = new CountDownLatch(1);
        view.readiness = () -> {
            entered.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new HealthReport(true, "RUNNING", List.of());
        };
        List<CompletableFuture<HttpResponse<Void>>> hung = new ArrayList<>();
        for (int i = 0; i < OpsHttpServer.THREADS; i++) {
            hung.add(client.sendAsync(request("/health/ready").GET().build(), HttpResponse.BodyHandlers.discarding()));
        }
        assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
        List<CompletableFuture<HttpResponse<Void>>> waiting = new ArrayList<>();
        for (int i = 0; i < 40; i++) { // more than the queue holds
            waiting.add(client.sendAsync(request("/info").GET().build(), HttpResponse.BodyHandlers.discarding()));
        }
        try {
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> waiting.stream()
                                    .filter(CompletableFuture::isCompletedExceptionally)
                                    .count()
                            >= 8);
            assertThat(waiting).noneMatch(f -> f.isDone() && !f.isCompletedExceptionally());
        } finally {
            release.countDown();
        }
        for (CompletableFuture<HttpResponse<Void>> f : hung) {
            assertThat(f.get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        assertThat(get("/info").statusCode()).isEqualTo(200);
    }

    @Test
    void noThreadOfTheServerKeepsTheJvmAlive() {
        assertThat(Thread.getAllStackTraces().keySet())
                .filteredOn(t ->
                        t.getName().equals("HTTP-Dispatcher") || t.getName().startsWith("weir-http-"))
                .isNotEmpty()
                .allMatch(Thread::isDaemon);
    }

    @Test
    void closeReturnsWhileARequestHangs() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        view.liveness = () -> {
            entered.countDown();
            while (true) { // ignores interrupts, as a stuck view might
                try {
                    if (never.await(10, TimeUnit.SECONDS)) {
                        return new HealthReport(true, "RUNNING", List.of());
                    }
                } catch (InterruptedException ignored) {
                    // keep hanging
                }
            }
        };
        client.sendAsync(request("/health/live").GET().build(), HttpResponse.BodyHandlers.discarding());
        assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
        int port = server.port();
        try {
            // The request hangs until `never` is released, after close: close returning at all shows it
            // gave up on the request (after its drain time) instead of waiting for it. The deadline only
            // fails a close that hangs.
            CompletableFuture.runAsync(server::close).get(30, TimeUnit.SECONDS);
            assertThat(never.getCount()).as("the request still hangs").isOne();
            assertThatThrownBy(() -> client.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/info"))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding()))
                    .isInstanceOf(ConnectException.class);
        } finally {
            never.countDown();
        }
    }

    @Test
    void aTakenPortFailsNamingHttpPortAndHowToChangeIt() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            assertThatThrownBy(() -> OpsHttpServer.start("127.0.0.1", taken.getLocalPort(), view))
                    .isInstanceOfSatisfying(
                            ConfigException.class, e -> assertThat(e.setting()).isEqualTo("http.port"))
                    .hasMessageContaining("127.0.0.1:" + taken.getLocalPort())
                    .hasMessageContaining("http.port=0")
                    .hasMessageContaining("http.port=-1");
        }
    }

    @Test
    void aPortOutOfRangeFailsNamingHttpPort() {
        assertThatThrownBy(() -> OpsHttpServer.start("127.0.0.1", 70_000, view))
                .isInstanceOfSatisfying(
                        ConfigException.class, e -> assertThat(e.setting()).isEqualTo("http.port"));
    }
}
