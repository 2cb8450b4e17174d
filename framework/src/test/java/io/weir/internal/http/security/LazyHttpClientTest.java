package io.weir.internal.http.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class LazyHttpClientTest {

    /** Counts builds; everything else goes to the JDK's builder. */
    private static HttpClient.Builder counting(AtomicInteger builds) {
        HttpClient.Builder jdk = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3));
        return (HttpClient.Builder) Proxy.newProxyInstance(
                HttpClient.Builder.class.getClassLoader(),
                new Class<?>[] {HttpClient.Builder.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("build")) {
                        builds.incrementAndGet();
                    }
                    Object result = method.invoke(jdk, args);
                    return result == jdk ? proxy : result;
                });
    }

    @Test
    void buildsNothingUntilAsked() {
        AtomicInteger builds = new AtomicInteger();

        new LazyHttpClient(counting(builds));

        assertThat(builds).hasValue(0);
    }

    @Test
    void everyCallerGetsTheOneClientWithTheBuildersSettings() throws Exception {
        AtomicInteger builds = new AtomicInteger();
        LazyHttpClient lazy = new LazyHttpClient(counting(builds));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<HttpClient>> calls = IntStream.range(0, 32)
                    .<Callable<HttpClient>>mapToObj(i -> lazy::get)
                    .toList();
            List<Future<HttpClient>> clients = pool.invokeAll(calls);
            HttpClient first = clients.get(0).get();
            for (Future<HttpClient> c : clients) {
                assertThat(c.get()).isSameAs(first);
            }
            assertThat(first.connectTimeout()).contains(Duration.ofSeconds(3));
        } finally {
            pool.shutdownNow();
        }
        assertThat(builds).hasValue(1);
    }
}
