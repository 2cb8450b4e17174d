package io.weir.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.errors.TopologyException;
import io.weir.processor.TaskId;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AsyncStepsTest {

    private static final long T0 = 1_000_000;

    /** The calls a function was asked to make, each with the future it returned. */
    private static final class Calls {
        final List<String> made = new ArrayList<>();
        final Map<String, CompletableFuture<String>> futures = new ConcurrentHashMap<>();

        CompletableFuture<String> call(String key, String value) {
            made.add(value);
            CompletableFuture<String> f = new CompletableFuture<>();
            futures.put(value, f);
            return f;
        }

        void complete(String value) {
            futures.get(value).complete(value.toUpperCase());
        }
    }

    private static Topology mapAsync(AsyncFunction<String, String, String> f, Async options) {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .mapValuesAsync(f, options)
                .to("out", Serdes.strings(), Serdes.strings());
        return b.build();
    }

    private static List<String> values(TestDriver driver) {
        return driver.output("out", Serdes.strings(), Serdes.strings()).stream()
                .map(TestRecord::value)
                .toList();
    }

    @Test
    void pipeReturnsOnceCallsCompletedOnOtherThreads() {
        Executor later = CompletableFuture.delayedExecutor(5, TimeUnit.MILLISECONDS);
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .mapValuesAsync(v -> CompletableFuture.supplyAsync(v::toUpperCase, later))
                .to("out", Serdes.strings(), Serdes.strings());
        try (TestDriver driver = TestDriver.builder(b.build()).build()) {
            for (int i = 0; i < 20; i++) {
                driver.pipe("in", "k" + (i % 3), "v" + i, T0 + i);
            }
            List<TestRecord<String, String>> out = driver.output("out", Serdes.strings(), Serdes.strings());
            assertThat(out).hasSize(20);
            for (String key : List.of("k0", "k1", "k2")) {
                List<String> ofKey = out.stream()
                        .filter(r -> r.key().equals(key))
                        .map(TestRecord::value)
                        .toList();
                assertThat(ofKey)
                        .as("per-key input order")
                        .isSortedAccordingTo((x, y) ->
                                Integer.compare(Integer.parseInt(x.substring(1)), Integer.parseInt(y.substring(1))));
            }
            assertThat(driver.inFlight()).isZero();
        }
    }

    @Test
    void callsOfOneKeyRunOneAfterTheOtherWhileOtherKeysOverlap() {
        Calls calls = new Calls();
        try (TestDriver driver = TestDriver.builder(mapAsync((k, v, c) -> calls.call(k, v), Async.named("lookup")))
                .completeCallsByHand()
                .build()) {
            driver.pipe("in", "a", "a1", T0);
            driver.pipe("in", "a", "a2", T0 + 1);
            driver.pipe("in", "b", "b1", T0 + 2);
            assertThat(calls.made).as("a2 waits for a1; b1 overlaps").containsExactly("a1", "b1");
            assertThat(driver.inFlight()).isEqualTo(3);

            calls.complete("b1");
            driver.commit();
            assertThat(values(driver))
                    .as("b1 finished first and is not held back by a1")
                    .containsExactly("B1");

            calls.complete("a1");
            driver.commit();
            assertThat(calls.made).as("a1 done: a2 starts").containsExactly("a1", "b1", "a2");
            calls.complete("a2");
            driver.commit();
            assertThat(values(driver)).containsExactly("A1", "A2");
            assertThat(driver.inFlight()).isZero();
        }
    }

    @Test
    void partitionOrderHoldsResultsBehindTheOldestCall() {
        Calls calls = new Calls();
        Async inOrder = Async.named("lookup").withOrder(Async.Order.PARTITION);
        try (TestDriver driver = TestDriver.builder(mapAsync((k, v, c) -> calls.call(k, v), inOrder))
                .completeCallsByHand()
                .build()) {
            driver.pipe("in", "a", "a1", T0);
            driver.pipe("in", "a", "a2", T0 + 1);
            driver.pipe("in", "b", "b1", T0 + 2);
            assertThat(calls.made).as("all overlap").containsExactly("a1", "a2", "b1");
            calls.complete("b1");
            calls.complete("a2");
            driver.commit();
            assertThat(values(driver)).as("held behind a1").isEmpty();
            calls.complete("a1");
            driver.commit();
            assertThat(values(driver)).containsExactly("A1", "A2", "B1");
        }
    }

    @Test
    void unorderedStepForwardsEachResultWhenReady() {
        Calls calls = new Calls();
        Async unordered = Async.named("lookup").withOrder(Async.Order.NONE);
        try (TestDriver driver = TestDriver.builder(mapAsync((k, v, c) -> calls.call(k, v), unordered))
                .completeCallsByHand()
                .build()) {
            driver.pipe("in", "a", "a1", T0);
            driver.pipe("in", "a", "a2", T0 + 1);
            calls.complete("a2");
            driver.commit();
            calls.complete("a1");
            driver.commit();
            assertThat(values(driver)).containsExactly("A2", "A1");
        }
    }

    @Test
    void stopsTakingRecordsAtTheInFlightBound() {
        Calls calls = new Calls();
        Async two = Async.named("lookup").withOrder(Async.Order.NONE).withMaxInFlight(2);
        try (TestDriver driver = TestDriver.builder(mapAsync((k, v, c) -> calls.call(k, v), two))
                .completeCallsByHand()
                .build()) {
            for (int i = 0; i < 5; i++) {
                driver.pipe("in", "k" + i, "v" + i, T0 + i);
            }
            assertThat(calls.made).as("bounded by maxInFlight").containsExactly("v0", "v1");
            calls.complete("v0");
            driver.commit();
            assertThat(calls.made).containsExactly("v0", "v1", "v2");
            assertThat(values(driver)).containsExactly("V0");
        }
    }

    @Test
    void retriesTransientFailuresThenSucceeds() {
        AtomicInteger attempts = new AtomicInteger();
        Async retried = Async.named("lookup")
                .withRetry(new Async.Retry(
                        3, Duration.ofMillis(1), Duration.ofMillis(5), e -> e instanceof IllegalStateException));
        AsyncFunction<String, String, String> flaky = (k, v, call) -> {
            attempts.incrementAndGet();
            return call.attempt() < 3
                    ? CompletableFuture.failedFuture(new IllegalStateException("busy"))
                    : CompletableFuture.completedFuture(v + "@" + call.attempt());
        };
        try (TestDriver driver = TestDriver.builder(mapAsync(flaky, retried)).build()) {
            driver.pipe("in", "a", "x", T0);
            assertThat(values(driver)).containsExactly("x@3");
            assertThat(attempts).hasValue(3);
            assertThat(driver.deadLetters()).isEmpty();
        }
    }

    @Test
    void callsThatFailForGoodGoToTheDeadLetterTopicAndTheStreamGoesOn() {
        Async quick = Async.named("lookup")
                .withTimeout(Duration.ofMillis(20))
                .withRetry(new Async.Retry(2, Duration.ZERO, Duration.ZERO, e -> true));
        AsyncFunction<String, String, String> f = (k, v, call) -> switch (v) {
            case "hang" -> new CompletableFuture<>();
            case "bad" -> CompletableFuture.failedFuture(new IllegalArgumentException("no price for bad"));
            default -> CompletableFuture.completedFuture(v.toUpperCase());
        };
        try (TestDriver driver = TestDriver.builder(mapAsync(f, quick)).build()) {
            driver.pipe("in", "a", "hang", T0);
            driver.pipe("in", "a", "ok", T0 + 1);
            driver.pipe("in", "b", "bad", T0 + 2);
            assertThat(values(driver)).containsExactly("OK");
            List<TestRecord<byte[], byte[]>> dead = driver.deadLetters();
            assertThat(dead).hasSize(2);
            assertThat(dead.get(0).headers().lastString("weir.error.stage")).isEqualTo("call");
            assertThat(dead.get(0).headers().lastString("weir.error.message"))
                    .contains("async step 'lookup'", "timeout of 20 ms");
            assertThat(new String(dead.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("hang");
            assertThat(dead.get(1).headers().lastString("weir.error.message")).contains("no price for bad");
        }
    }

    @Test
    void failModeStopsTheDriverWithTheRecordNamed() {
        Async failing = Async.named("lookup").withOnFailure(Async.OnFailure.FAIL);
        AsyncFunction<String, String, String> f =
                (k, v, call) -> CompletableFuture.failedFuture(new IllegalStateException("service down"));
        try (TestDriver driver = TestDriver.builder(mapAsync(f, failing)).build()) {
            assertThatThrownBy(() -> driver.pipe("in", "a", "x", T0))
                    .hasMessageContaining("in-0@0")
                    .hasMessageContaining("service down");
        }
    }

    @Test
    void flatMapAndFilterAsync() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .filterAsync((k, v, c) -> CompletableFuture.completedFuture(!v.startsWith("x")), Async.named("keep"))
                .flatMapValuesAsync(
                        (k, v, c) -> CompletableFuture.completedFuture(List.of(v + "1", v + "2")), Async.named("split"))
                .to("out", Serdes.strings(), Serdes.strings());
        try (TestDriver driver = TestDriver.builder(b.build()).build()) {
            driver.pipe("in", "a", "p", T0);
            driver.pipe("in", "a", "xq", T0 + 1);
            driver.pipe("in", "a", "r", T0 + 2);
            assertThat(values(driver)).containsExactly("p1", "p2", "r1", "r2");
        }
    }

    @Test
    void idempotencyKeyNamesTheStepAndTheInputRecord() {
        List<String> keys = new ArrayList<>();
        AsyncFunction<String, String, String> f = (k, v, call) -> {
            keys.add(call.idempotencyKey());
            return CompletableFuture.completedFuture(v);
        };
        try (TestDriver driver =
                TestDriver.builder(mapAsync(f, Async.named("lookup"))).build()) {
            driver.pipe("in", "a", "x", T0);
            driver.pipe("in", "a", "y", T0 + 1);
            assertThat(keys).containsExactly("lookup:in-0@0:0", "lookup:in-0@1:0");
        }
    }

    @Test
    void callsInFlightAtARevocationAreMadeAgainByTheNextOwnerExactlyOnce() {
        Calls calls = new Calls();
        try (TestDriver driver = TestDriver.builder(mapAsync((k, v, c) -> calls.call(k, v), Async.named("lookup")))
                .completeCallsByHand()
                .build()) {
            driver.pipe("in", "a", "a1", T0);
            driver.pipe("in", "b", "b1", T0 + 1);
            calls.complete("b1");
            driver.commit();
            assertThat(values(driver)).containsExactly("B1");

            TaskId task = new TaskId(0, 0);
            driver.revoke(task); // a1 is still in flight: stored with the commit, abandoned here
            calls.complete("a1"); // the old owner's call finishing late changes nothing
            driver.reassign(task);
            assertThat(calls.made).as("called again after the restore").containsExactly("a1", "b1", "a1");
            calls.complete("a1");
            driver.commit();
            assertThat(values(driver)).containsExactly("A1");
            driver.pipe("in", "b", "b2", T0 + 2);
            calls.complete("b2");
            driver.commit();
            assertThat(values(driver)).containsExactly("B2");
        }
    }

    @Test
    void watermarkWaitsForTheOldestCallInFlight() {
        Calls calls = new Calls();
        try (TestDriver driver = TestDriver.builder(mapAsync((k, v, c) -> calls.call(k, v), Async.named("lookup")))
                .completeCallsByHand()
                .build()) {
            TaskId task = new TaskId(0, 0);
            driver.pipe("in", "a", "a1", T0);
            driver.pipe("in", "b", "b1", T0 + 5_000);
            assertThat(driver.watermark(task)).isLessThanOrEqualTo(T0);
            calls.complete("a1");
            driver.commit();
            assertThat(driver.watermark(task)).isEqualTo(T0 + 5_000);
        }
    }

    @Test
    void refusesAStepWhoseInputSerdesAreUnknown() {
        TopologyBuilder b = new TopologyBuilder();
        RecordStream<String, Integer> lengths =
                b.stream(Serdes.strings(), Serdes.strings(), "in").mapValues(String::length);
        assertThatThrownBy(() -> lengths.mapValuesAsync(n -> CompletableFuture.completedFuture(n + 1)))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("map-values-async")
                .hasMessageContaining("-in-flight")
                .hasMessageContaining("withSerdes");
    }

    /** Counts per sensor in 10 s windows; with or without an asynchronous step before them. */
    private static Topology windowCounts(Calls calls) {
        TopologyBuilder b = new TopologyBuilder();
        RecordStream<String, String> in = b.stream(Serdes.strings(), Serdes.strings(), "in");
        RecordStream<String, String> enriched = calls == null
                ? in.mapValues((String v) -> v.toUpperCase())
                : in.mapValuesAsync((k, v, c) -> calls.call(k, v), Async.named("lookup"));
        enriched.groupByKey()
                .windowedBy(TimeWindows.of(Duration.ofSeconds(10)))
                .emit(Emit.onWindowClose())
                .count("counts")
                .map((w, n) -> io.weir.common.KeyValue.of(w.key() + "@" + w.start(), n))
                .to("out", Serdes.strings(), Serdes.longs());
        return b.build();
    }

    private static List<String> windowResults(TestDriver driver) {
        return driver.output("out", Serdes.strings(), Serdes.longs()).stream()
                .map(r -> r.key() + "=" + r.value())
                .sorted()
                .toList();
    }

    @Test
    void windowsDownstreamGiveTheSynchronousResultsWhateverOrderCallsFinishIn() {
        java.util.Random random = new java.util.Random(42);
        List<long[]> input = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            long jitter = random.nextInt(2_000); // within max.out.of.orderness
            input.add(new long[] {random.nextInt(5), T0 + i * 250L - jitter});
        }
        List<String> expected;
        try (TestDriver sync = TestDriver.builder(windowCounts(null))
                .config("max.out.of.orderness.ms", 2_000)
                .build()) {
            input.forEach(r -> sync.pipe("in", "s" + r[0], "v", r[1]));
            expected = windowResults(sync);
        }
        assertThat(expected).hasSizeGreaterThan(20);

        Calls calls = new Calls();
        try (TestDriver async = TestDriver.builder(windowCounts(calls))
                .config("max.out.of.orderness.ms", 2_000)
                .completeCallsByHand()
                .build()) {
            for (int i = 0; i < input.size(); i++) {
                long[] r = input.get(i);
                async.pipe("in", "s" + r[0], "v" + i, r[1]);
                if (i % 25 == 24 || i == input.size() - 1) {
                    while (async.inFlight() > 0) {
                        List<CompletableFuture<String>> open = new ArrayList<>(calls.futures.values());
                        calls.futures.clear();
                        java.util.Collections.shuffle(open, random);
                        open.forEach(f -> f.complete("V"));
                        async.commit();
                    }
                }
            }
            assertThat(windowResults(async)).isEqualTo(expected);
        }
    }

    @Test
    void aFailureDownstreamOfTheStepDeadLettersThatRecordOnlyUnderExactlyOnce() {
        Executor later = CompletableFuture.delayedExecutor(2, TimeUnit.MILLISECONDS);
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .mapValuesAsync(v -> CompletableFuture.supplyAsync(v::toUpperCase, later))
                .mapValues(v -> {
                    if (v.equals("BOOM")) {
                        throw new IllegalStateException("cannot price BOOM");
                    }
                    return v;
                })
                .to("out", Serdes.strings(), Serdes.strings());
        try (TestDriver driver = TestDriver.builder(b.build()).commitEvery(3).build()) {
            driver.pipe("in", "a", "x", T0);
            driver.pipe("in", "b", "boom", T0 + 1);
            driver.pipe("in", "c", "y", T0 + 2);
            driver.pipe("in", "a", "z", T0 + 3);
            driver.commit();
            assertThat(values(driver)).containsExactly("X", "Y", "Z");
            List<TestRecord<byte[], byte[]>> dead = driver.deadLetters();
            assertThat(dead).hasSize(1);
            assertThat(dead.get(0).headers().lastString("weir.error.message")).contains("cannot price BOOM");
        }
    }

    @Test
    void metersCountAttemptsRetriesFailuresAndCallsInFlight() {
        Calls calls = new Calls();
        Async quick = Async.named("lookup")
                .withTimeout(Duration.ofMillis(30))
                .withRetry(new Async.Retry(2, Duration.ZERO, Duration.ZERO, e -> true));
        AsyncFunction<String, String, String> f = (k, v, c) -> v.equals("b1")
                ? calls.call(k, v) // never completed: times out twice
                : CompletableFuture.completedFuture(v);
        try (TestDriver driver =
                TestDriver.builder(mapAsync(f, quick)).completeCallsByHand().build()) {
            io.micrometer.core.instrument.MeterRegistry registry = driver.meterRegistry();
            driver.pipe("in", "b", "b1", T0);
            assertThat(registry.get("weir.async.in.flight")
                            .tag("step", "lookup")
                            .gauge()
                            .value())
                    .isEqualTo(1.0);
            driver.pipe("in", "a", "a1", T0 + 1);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
                driver.commit(); // b1 times out twice: a retry, then a dead letter
                return driver.inFlight() == 0;
            });
            assertThat(registry.get("weir.async.attempts")
                            .tag("outcome", "success")
                            .counter()
                            .count())
                    .isEqualTo(1.0);
            assertThat(registry.get("weir.async.attempts")
                            .tag("outcome", "timeout")
                            .counter()
                            .count())
                    .isEqualTo(2.0);
            assertThat(registry.get("weir.async.retries").counter().count()).isEqualTo(1.0);
            assertThat(registry.get("weir.async.failed")
                            .tag("action", "dead_letter")
                            .counter()
                            .count())
                    .isEqualTo(1.0);
            assertThat(registry.get("weir.async.latency").timer().count()).isEqualTo(2);
            assertThat(registry.get("weir.async.in.flight").gauge().value()).isZero();
        }
    }

    @Test
    void theTopologyDescriptionShowsTheStepAndItsOptions() {
        Topology t = mapAsync(
                (k, v, c) -> CompletableFuture.completedFuture(v),
                Async.named("lookup").withMaxInFlight(64).withOrder(Async.Order.PARTITION));
        io.weir.internal.topology.TopologyDescription d = io.weir.internal.topology.TopologyDescription.of(
                io.weir.TopologyModels.resolved(t, "app"), "app", "1.0");
        io.weir.internal.topology.TopologyDescription.NodeInfo node = d.subtopologies().get(0).graph().stream()
                .filter(n -> n.name().equals("lookup"))
                .findFirst()
                .orElseThrow();
        assertThat(node.stores()).containsExactly("lookup-in-flight");
        assertThat(node.options())
                .containsEntry("kind", "async")
                .containsEntry("order", "partition")
                .containsEntry("maxInFlight", 64)
                .containsEntry("onFailure", "dead-letter");
        assertThat(d.toJson()).contains("\"maxInFlight\": 64");
        assertThat(io.weir.internal.http.TopologyMermaid.render(io.weir.TopologyModels.resolved(t, "app")))
                .contains("[/\"lookup\"/]");
    }

    /**
     * Scores each payment of a card by a call that is given the card's running total so far (read
     * from the store), and adds the score to the total when the call finished: each call must see
     * the total the previous call of its card wrote.
     */
    static final class Scorer implements io.weir.processor.AsyncProcessor<String, String, String, Long, Long> {
        private final Calls calls;
        private io.weir.processor.ProcessorContext<String, Long> context;
        private io.weir.state.KeyValueStore<String, Long> totals;

        Scorer(Calls calls) {
            this.calls = calls;
        }

        @Override
        public void init(io.weir.processor.ProcessorContext<String, Long> context) {
            this.context = context;
            this.totals = context.getStateStore("totals");
        }

        @Override
        public java.util.concurrent.CompletionStage<Long> call(
                io.weir.processor.Record<String, String> record, io.weir.processor.AsyncCall call) {
            Long total = totals.get(record.key());
            return calls.call(record.key(), record.value() + "|" + (total == null ? 0 : total))
                    .thenApply(s -> (long) record.value().length());
        }

        @Override
        public void complete(io.weir.processor.Record<String, String> record, Long score) {
            Long total = totals.get(record.key());
            long next = (total == null ? 0 : total) + score;
            totals.put(record.key(), next);
            context.forward(record.with(record.key(), next));
        }
    }

    private static Topology scoring(Calls calls) {
        TopologyBuilder b = new TopologyBuilder();
        b.addStateStore(io.weir.processor.Stores.keyValueStore("totals", Serdes.strings(), Serdes.longs()));
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .processAsync(() -> new Scorer(calls), Async.named("score"), "totals")
                .to("out", Serdes.strings(), Serdes.longs());
        return b.build();
    }

    @Test
    void anAsyncProcessorReadsWhatThePreviousCallOfItsKeyWrote() {
        Calls calls = new Calls();
        try (TestDriver driver =
                TestDriver.builder(scoring(calls)).completeCallsByHand().build()) {
            driver.pipe("in", "card1", "aa", T0);
            driver.pipe("in", "card1", "bbb", T0 + 1);
            driver.pipe("in", "card2", "c", T0 + 2);
            assertThat(calls.made).as("card1's second call waits").containsExactly("aa|0", "c|0");
            calls.complete("aa|0");
            driver.commit();
            assertThat(calls.made).as("and then sees the total the first wrote").endsWith("bbb|2");
            calls.complete("bbb|2");
            calls.complete("c|0");
            driver.commit();
            assertThat(driver.output("out", Serdes.strings(), Serdes.longs()))
                    .extracting(r -> r.key() + "=" + r.value())
                    .containsExactlyInAnyOrder("card1=2", "card1=5", "card2=1");
            assertThat(driver.<String, Long>store("totals").get("card1")).isEqualTo(5L);
        }
    }

    @Test
    void anAsyncProcessorsStoreAndCallsInFlightSurviveARevocation() {
        Calls calls = new Calls();
        try (TestDriver driver =
                TestDriver.builder(scoring(calls)).completeCallsByHand().build()) {
            driver.pipe("in", "card1", "aa", T0);
            calls.complete("aa|0");
            driver.commit();
            driver.pipe("in", "card1", "bbb", T0 + 1); // in flight at the revocation
            TaskId task = new TaskId(0, 0);
            driver.revoke(task);
            driver.reassign(task);
            assertThat(calls.made)
                    .as("made again, seeing the restored total")
                    .containsExactly("aa|0", "bbb|2", "bbb|2");
            calls.futures.get("bbb|2").complete("x");
            driver.commit();
            assertThat(driver.<String, Long>store("totals").get("card1")).isEqualTo(5L);
            assertThat(driver.output("out", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::value)
                    .containsExactly(2L, 5L);
        }
    }

    @Test
    void anAsyncProcessorWithStoresMustKeepPerKeyOrderAndHaveAName() {
        TopologyBuilder b = new TopologyBuilder();
        b.addStateStore(io.weir.processor.Stores.keyValueStore("totals", Serdes.strings(), Serdes.longs()));
        RecordStream<String, String> in = b.stream(Serdes.strings(), Serdes.strings(), "in");
        assertThatThrownBy(() -> in.processAsync(
                        () -> new Scorer(new Calls()), Async.named("score").withOrder(Async.Order.NONE), "totals"))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("only Async.Order.KEY");
        assertThatThrownBy(() -> in.processAsync(() -> new Scorer(new Calls()), Async.defaults(), "totals"))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("Async.named");
    }

    @Test
    void enrichAsyncJoinsTheLookedUpValueAndCachesItForItsTtl() {
        List<String> lookups = new ArrayList<>();
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "orders")
                .enrichAsync(
                        (order, product) -> product.isEmpty() ? null : product,
                        (product, call) -> {
                            lookups.add(product);
                            return CompletableFuture.completedFuture(product.equals("none") ? null : product.length());
                        },
                        (product, price) -> product + "=" + price,
                        Async.named("prices").withCache(100, Duration.ofMinutes(1)))
                .to("priced", Serdes.strings(), Serdes.strings());
        try (TestDriver driver = TestDriver.builder(b.build()).startWallClock(0).build()) {
            driver.pipe("orders", "o1", "apple", T0);
            driver.pipe("orders", "o2", "apple", T0 + 1);
            driver.pipe("orders", "o3", "none", T0 + 2);
            driver.pipe("orders", "o4", "none", T0 + 3);
            driver.pipe("orders", "o5", "", T0 + 4);
            assertThat(driver.output("priced", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("apple=5", "apple=5", "none=null", "none=null", "=null");
            assertThat(lookups).as("cached, also when the service had none").containsExactly("apple", "none");
            driver.advanceWallClock(Duration.ofMinutes(2));
            driver.pipe("orders", "o6", "apple", T0 + 5);
            assertThat(lookups).as("past its ttl: looked up again").containsExactly("apple", "none", "apple");
        }
    }

    @Test
    void onlyEnrichAsyncTakesACache() {
        TopologyBuilder b = new TopologyBuilder();
        RecordStream<String, String> in = b.stream(Serdes.strings(), Serdes.strings(), "in");
        assertThatThrownBy(() -> in.mapValuesAsync(
                        (k, v, c) -> CompletableFuture.completedFuture(v),
                        Async.named("m").withCache(10, Duration.ofSeconds(1))))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("only enrichAsync uses");
    }

    @Test
    void theInstanceBoundHoldsAcrossTasks() {
        Calls calls = new Calls();
        Async oneAtATime = Async.named("lookup").withMaxInFlight(10).withMaxInFlightPerInstance(1);
        try (TestDriver driver = TestDriver.builder(mapAsync((k, v, c) -> calls.call(k, v), oneAtATime))
                .partitions("in", 2)
                .completeCallsByHand()
                .build()) {
            driver.pipe("in", 0, "a", "a1", T0, io.weir.processor.Headers.empty());
            driver.pipe("in", 1, "b", "b1", T0, io.weir.processor.Headers.empty());
            assertThat(calls.made)
                    .as("task 0_1 waits for the instance's one call")
                    .containsExactly("a1");
            calls.complete("a1");
            driver.commit();
            assertThat(calls.made).containsExactly("a1", "b1");
        }
    }

    @Test
    void callsRestoredFromTheStoreWaitForTheInstanceBound() {
        Calls calls = new Calls();
        Async twoAtATime = Async.named("lookup").withMaxInFlight(10).withMaxInFlightPerInstance(2);
        try (TestDriver driver = TestDriver.builder(mapAsync((k, v, c) -> calls.call(k, v), twoAtATime))
                .partitions("in", 2)
                .completeCallsByHand()
                .build()) {
            driver.pipe("in", 0, "a", "a1", T0, io.weir.processor.Headers.empty());
            driver.pipe("in", 0, "x", "x1", T0, io.weir.processor.Headers.empty());
            driver.commit(); // both stored as in flight
            TaskId task = new TaskId(0, 0);
            driver.revoke(task);
            driver.pipe("in", 1, "b", "b1", T0, io.weir.processor.Headers.empty());
            driver.pipe("in", 1, "c", "c1", T0, io.weir.processor.Headers.empty());
            driver.reassign(task); // as a task taking over another instance's calls
            assertThat(calls.made)
                    .as("the restored calls wait: the instance has two calls started")
                    .containsExactly("a1", "x1", "b1", "c1");
            calls.complete("b1");
            driver.commit();
            assertThat(calls.made).as("one started in b1's place").containsExactly("a1", "x1", "b1", "c1", "a1");
            calls.complete("c1");
            driver.commit();
            assertThat(calls.made).containsExactly("a1", "x1", "b1", "c1", "a1", "x1");
            calls.complete("a1");
            calls.complete("x1");
            driver.commit();
            assertThat(values(driver)).containsExactlyInAnyOrder("B1", "C1", "A1", "X1");
        }
    }

    @Test
    void anAsyncProcessorAddedNodeByNodeRunsAsThroughTheDsl() {
        Calls calls = new Calls();
        TopologyBuilder b = new TopologyBuilder();
        b.addSource("payments", Serdes.strings(), Serdes.strings(), "in")
                .addAsyncProcessor(
                        "score",
                        () -> new Scorer(calls),
                        Async.defaults(),
                        Serdes.strings(),
                        Serdes.strings(),
                        List.of("payments"),
                        List.of("totals"))
                .addStateStore(io.weir.processor.Stores.keyValueStore("totals", Serdes.strings(), Serdes.longs()))
                .addSink("alerts", "out", Serdes.strings(), Serdes.longs(), "score");
        try (TestDriver driver =
                TestDriver.builder(b.build()).completeCallsByHand().build()) {
            driver.pipe("in", "card1", "aa", T0);
            driver.pipe("in", "card1", "bbb", T0 + 1);
            calls.complete("aa|0");
            driver.commit();
            calls.complete("bbb|2");
            driver.commit();
            assertThat(driver.output("out", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::value)
                    .containsExactly(2L, 5L);
        }
        assertThatThrownBy(() -> new TopologyBuilder()
                        .addAsyncProcessor(
                                "score",
                                () -> new Scorer(calls),
                                Async.defaults(),
                                null,
                                Serdes.strings(),
                                List.of("payments"),
                                List.of()))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("key and value serdes of its input");
    }
}
