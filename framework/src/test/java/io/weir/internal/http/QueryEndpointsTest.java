package io.weir.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class QueryEndpointsTest {

    /** Records what it was asked; blocks each answer until released. */
    private static final class BlockingView implements StoreQueryView {
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch entered;
        final AtomicReference<KeyQuery> lastKey = new AtomicReference<>();
        final AtomicReference<String> lastScan = new AtomicReference<>();

        BlockingView(int expected) {
            entered = new CountDownLatch(expected);
        }

        @Override
        public QueryAnswer answer(KeyQuery query) {
            lastKey.set(query);
            entered.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return QueryAnswer.ok(JsonNodeFactory.instance.objectNode().put("value", 1));
        }

        @Override
        public QueryAnswer scan(String store, Map<String, String> params) {
            lastScan.set(store + params);
            return QueryAnswer.ok(JsonNodeFactory.instance.objectNode());
        }
    }

    private static Reply get(Router router, String uri) {
        return router.answer(Request.of("GET", URI.create(uri)));
    }

    @Test
    void pathSegmentsAreDecodedOneByOneSoAKeyMayHoldASlash() {
        BlockingView view = new BlockingView(1);
        view.release.countDown();
        Router router = new QueryEndpoints(view).addTo(new Router());
        assertThat(get(router, "/stores/my%20store/keys/user%2F7+x/windows?from=5")
                        .status())
                .isEqualTo(200);
        StoreQueryView.KeyQuery q = view.lastKey.get();
        assertThat(q.store()).isEqualTo("my store");
        assertThat(q.key()).isEqualTo("user/7+x");
        assertThat(q.target()).isEqualTo(StoreQueryView.Target.WINDOWS);
        assertThat(q.params()).containsEntry("from", "5");
        assertThat(get(router, "/stores/counts/keys?prefix=a").status()).isEqualTo(200);
        assertThat(view.lastScan.get()).isEqualTo("counts{prefix=a}");
        assertThat(get(router, "/stores/counts/keys/k/other").status()).isEqualTo(404);
        assertThat(get(router, "/stores/counts").status()).isEqualTo(404);
    }

    @Test
    void pastItsPermitsAQueryIsTurnedAwayAtOnceWithRetryAfter() throws Exception {
        BlockingView view = new BlockingView(QueryEndpoints.PERMITS);
        Router router = new QueryEndpoints(view).addTo(new Router());
        List<CompletableFuture<Reply>> held = new ArrayList<>();
        java.util.concurrent.ExecutorService pool =
                java.util.concurrent.Executors.newFixedThreadPool(QueryEndpoints.PERMITS);
        for (int i = 0; i < QueryEndpoints.PERMITS; i++) {
            held.add(CompletableFuture.supplyAsync(() -> get(router, "/stores/s/keys/k"), pool));
        }
        try {
            assertThat(view.entered.await(5, TimeUnit.SECONDS)).isTrue();
            Reply busy = get(router, "/stores/s/keys/k");
            assertThat(busy.status()).isEqualTo(503);
            assertThat(busy.headers()).containsEntry("Retry-After", "1");
            assertThat(new String(busy.body(), java.nio.charset.StandardCharsets.UTF_8))
                    .contains("\"busy\"");
        } finally {
            view.release.countDown();
        }
        for (CompletableFuture<Reply> f : held) {
            assertThat(f.get(5, TimeUnit.SECONDS).status()).isEqualTo(200);
        }
        assertThat(get(router, "/stores/s/keys/k").status())
                .as("permits given back")
                .isEqualTo(200);
        pool.shutdownNow();
    }
}
