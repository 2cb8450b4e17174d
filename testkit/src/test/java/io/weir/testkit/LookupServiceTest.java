package io.weir.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class LookupServiceTest {

    private final HttpClient client = HttpClient.newHttpClient();

    private CompletableFuture<HttpResponse<String>> get(LookupService service, String key, String idempotencyKey) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(service.lookup(key)).timeout(Duration.ofSeconds(5));
        if (idempotencyKey != null) {
            request.header(LookupService.IDEMPOTENCY_HEADER, idempotencyKey);
        }
        return client.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void answersManyCallsAtOnceAfterItsLatency() throws Exception {
        try (LookupService service = LookupService.start(Duration.ofMillis(200), Duration.ZERO, 0)) {
            long start = System.nanoTime();
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                calls.add(get(service, "k" + i, "id-" + (i % 50)));
            }
            for (int i = 0; i < 100; i++) {
                HttpResponse<String> r = calls.get(i).get();
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.body()).isEqualTo(LookupService.answer("k" + i));
            }
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertThat(ms).as("answered together, not one after the other").isGreaterThanOrEqualTo(200);
            assertThat(service.calls()).isEqualTo(100);
            assertThat(service.repeats()).isEqualTo(50);
        }
    }

    @Test
    void failsWhileDown() throws Exception {
        try (LookupService service = LookupService.start(Duration.ZERO, Duration.ZERO, 0)) {
            service.down(true);
            assertThat(get(service, "a", null).get().statusCode()).isEqualTo(503);
            service.down(false);
            assertThat(get(service, "a", null).get().statusCode()).isEqualTo(200);
            assertThat(service.failures()).isEqualTo(1);
        }
    }
}
