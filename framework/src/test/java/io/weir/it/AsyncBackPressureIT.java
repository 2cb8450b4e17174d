package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.dsl.Async;
import io.weir.serde.Serdes;
import io.weir.testing.TestApps;
import io.weir.testkit.KafkaExtension;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A service far slower than the input: the instance takes no more records than its in-flight
 * bound lets it, its partitions pause, and memory stays bounded; once the service answers, every
 * record comes out exactly once. Prints the heap it measured as {@code FIGURE} lines.
 */
class AsyncBackPressureIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int RECORDS = 20_000;
    private static final int MAX_IN_FLIGHT = 100;
    private static final int PARTITIONS = 2;
    private static final int BUFFERED = 200;

    @Test
    void aSlowServiceKeepsTheInstanceAtItsBoundAndNothingIsLost() throws Exception {
        String in = KAFKA.uniqueTopic("slow-in", PARTITIONS);
        String out = KAFKA.uniqueTopic("slow-out", PARTITIONS);
        String value = "x".repeat(1_000);
        List<KeyValue<String, String>> input = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            input.add(KeyValue.of("k" + (i % 500), i + ":" + value));
        }
        KAFKA.client().produceStrings(in, input);

        // The service: answers only what the test releases.
        ConcurrentLinkedQueue<CompletableFuture<String>> waiting = new ConcurrentLinkedQueue<>();
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), in)
                .mapValuesAsync(
                        (k, v, call) -> {
                            CompletableFuture<String> answer = new CompletableFuture<String>();
                            waiting.add(answer);
                            return answer.thenApply(a -> v.substring(0, v.indexOf(':')));
                        },
                        Async.named("slow").withMaxInFlight(MAX_IN_FLIGHT).withOrder(Async.Order.NONE))
                .to(out, Serdes.strings(), Serdes.strings());
        long heapBefore = usedHeapAfterGc();
        try (WeirApp app = TestApps.start(
                b.build(),
                TestApps.config(KAFKA.bootstrapServers(), "slow-" + in)
                        .set("buffered.records.per.partition", BUFFERED)
                        .build())) {
            MeterRegistry registry = app.meterRegistry();
            // Nothing answered: the tasks fill up to their bound and stop taking records.
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> gauge(registry, "weir.async.in.flight") == PARTITIONS * MAX_IN_FLIGHT);
            await().atMost(Duration.ofSeconds(30)).until(() -> gauge(registry, "weir.paused.partitions") == PARTITIONS);
            // A trickle of answers, 100 times slower than the input could go: the bound holds throughout.
            long released = 0;
            double maxInFlight = 0;
            for (int round = 0; round < 20; round++) {
                released += release(waiting, 10);
                long taken = (long) counter(registry, "weir.records.in");
                maxInFlight = Math.max(maxInFlight, gauge(registry, "weir.async.in.flight"));
                assertThat(taken)
                        .as("records taken never run ahead of the answers by more than the bound")
                        .isLessThanOrEqualTo(released + PARTITIONS * MAX_IN_FLIGHT);
                await().pollDelay(Duration.ofMillis(50)).until(() -> true);
            }
            long heapSlow = usedHeapAfterGc();
            System.out.println("FIGURE async_slow_service_heap_growth_mb=" + (heapSlow - heapBefore) / (1 << 20)
                    + " max_in_flight=" + (long) maxInFlight + " input_mb=" + RECORDS * value.length() / (1 << 20));
            assertThat(maxInFlight).isLessThanOrEqualTo(PARTITIONS * MAX_IN_FLIGHT);

            // The service recovers: everything comes out, once.
            CompletableFuture<Void> answering = CompletableFuture.runAsync(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    if (release(waiting, 1_000) == 0) {
                        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                    }
                }
            });
            try {
                List<ConsumerRecord<String, String>> results =
                        KAFKA.client().readStringsAtLeast(out, RECORDS, Duration.ofSeconds(120));
                Set<String> seen = new HashSet<>();
                for (ConsumerRecord<String, String> r : results) {
                    assertThat(seen.add(r.value()))
                            .as("record %s twice", r.value())
                            .isTrue();
                }
                assertThat(seen).hasSize(RECORDS);
            } finally {
                answering.cancel(true);
            }
        }
    }

    /** Completes up to {@code n} waiting calls; returns how many. */
    private static int release(ConcurrentLinkedQueue<CompletableFuture<String>> waiting, int n) {
        int done = 0;
        CompletableFuture<String> f;
        while (done < n && (f = waiting.poll()) != null) {
            f.complete("ok");
            done++;
        }
        return done;
    }

    private static double gauge(MeterRegistry registry, String name) {
        return Search.in(registry).name(name).gauges().stream()
                .mapToDouble(g -> g.value())
                .sum();
    }

    private static double counter(MeterRegistry registry, String name) {
        return Search.in(registry).name(name).counters().stream()
                .mapToDouble(c -> c.count())
                .sum();
    }

    private static long usedHeapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
