package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.dsl.RecordStream;
import io.weir.serde.Serdes;
import io.weir.testing.TestApps;
import io.weir.testkit.KafkaExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class StatelessOperationsIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static List<io.weir.common.KeyValue<String, String>> words(String... kv) {
        List<io.weir.common.KeyValue<String, String>> out = new ArrayList<>();
        for (int i = 0; i < kv.length; i += 2) {
            out.add(io.weir.common.KeyValue.of(kv[i], kv[i + 1]));
        }
        return out;
    }

    @Test
    void everyStatelessOperationWorksEndToEndUnderExactlyOnce() throws Exception {
        String in = KAFKA.uniqueTopic("in", 3);
        String in2 = KAFKA.uniqueTopic("in2", 3);
        String upper = KAFKA.uniqueTopic("upper", 3);
        String small = KAFKA.uniqueTopic("small", 1);
        String big = KAFKA.uniqueTopic("big", 1);
        String dyn = KAFKA.uniqueTopic("dyn", 1);

        TopologyBuilder b = new TopologyBuilder();
        RecordStream<String, String> first = b.stream(Serdes.strings(), Serdes.strings(), in);
        RecordStream<String, String> second = b.stream(Serdes.strings(), Serdes.strings(), in2);
        RecordStream<String, String> merged = first.merge(second)
                .filter((k, v) -> !v.isEmpty())
                .filterNot((k, v) -> v.equals("skip"))
                .peek((k, v) -> {})
                .flatMapValues(v -> List.of(v.split(" ")))
                .selectKey((k, v) -> k + ":" + v.length())
                .map((k, v) -> KeyValue.of(k, v.toUpperCase()))
                .withSerdes(Serdes.strings(), Serdes.strings());
        merged.to(upper);
        Map<String, RecordStream<String, String>> branches =
                merged.split().branch("small", (k, v) -> v.length() <= 3).otherwise("big");
        branches.get("small").to(small);
        branches.get("big").mapValues((k, v) -> v.length()).to(big, Serdes.strings(), Serdes.integers());
        merged.flatMap((k, v) -> List.of(KeyValue.of(v, "x"))).to(r -> dyn, Serdes.strings(), Serdes.strings());

        KAFKA.client().produceStrings(in, words("a", "hello big world", "b", "skip", "c", ""));
        KAFKA.client().produceStrings(in2, words("d", "tiny cat"));

        try (WeirApp app = TestApps.start(
                b.build(),
                TestApps.config(KAFKA.bootstrapServers(), "ops-" + in).build())) {
            List<ConsumerRecord<String, String>> up =
                    KAFKA.client().readStringsAtLeast(upper, 5, Duration.ofSeconds(60));
            assertThat(up)
                    .extracting(r -> r.key() + "=" + r.value())
                    .containsExactlyInAnyOrder("a:5=HELLO", "a:3=BIG", "a:5=WORLD", "d:4=TINY", "d:3=CAT");
            assertThat(KAFKA.client().readStringsAtLeast(small, 2, Duration.ofSeconds(30)))
                    .extracting(ConsumerRecord::value)
                    .containsExactlyInAnyOrder("BIG", "CAT");
            List<ConsumerRecord<byte[], byte[]>> bigs = KAFKA.client().readAtLeast(big, 3, Duration.ofSeconds(30));
            assertThat(bigs.stream()
                            .map(r -> java.nio.ByteBuffer.wrap(r.value()).getInt())
                            .collect(Collectors.toList()))
                    .containsExactlyInAnyOrder(5, 5, 4);
            assertThat(KAFKA.client().readStringsAtLeast(dyn, 5, Duration.ofSeconds(30)))
                    .extracting(ConsumerRecord::key)
                    .contains("HELLO", "CAT");
            // RUNNING follows the threads: it is reached within a tick of the monitor (generous deadline:
            // a slow machine may be rebalancing a moment longer).
            await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == WeirApp.State.RUNNING);
            var registry = app.meterRegistry();
            // The stream thread counts outputs and records the commit's duration after the commit
            // returns, so the outputs read above can be visible before the meters show them: wait for
            // the meters to catch up, then check the counts exactly.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(registry.get("weir.records.in").counter().count()).isGreaterThanOrEqualTo(4.0);
                assertThat(registry.get("weir.records.out").counter().count()).isGreaterThanOrEqualTo(15.0);
                assertThat(registry.get("weir.commit.latency").timer().count()).isPositive();
            });
            assertThat(registry.get("weir.records.in").counter().count()).isEqualTo(4.0);
            assertThat(registry.get("weir.process.latency").timer().count()).isPositive();
            assertThat(registry.get("weir.commit.aborts").counter().count()).isZero();
            assertThat(registry.get("weir.rebalances").counter().count()).isPositive();
        }
    }
}
