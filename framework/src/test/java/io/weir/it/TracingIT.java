package io.weir.it;

import static io.weir.testing.InMemoryTracing.spanId;
import static io.weir.testing.InMemoryTracing.traceId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.dsl.RecordStream;
import io.weir.serde.Serdes;
import io.weir.testing.InMemoryTracing;
import io.weir.testing.TestApps;
import io.weir.testkit.KafkaExtension;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tracing on a real broker: the W3C trace context of each input continues through a repartition
 * topic into the outputs and the dead-letter topic, with the spans on both sides of the
 * repartition in one trace; a trace that starts in Weir and is not sampled is written nowhere;
 * with tracing off (no SDK), nothing is added.
 */
class TracingIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration WAIT = Duration.ofMinutes(1);

    /** Upper-cases values to {@code upper}; counts values, re-keyed through a repartition topic, to {@code counts}. */
    private static Topology topology(String in, String upper, String counts) {
        TopologyBuilder b = new TopologyBuilder();
        RecordStream<String, String> checked = b.stream(Serdes.strings(), Serdes.strings(), in)
                .mapValues(v -> {
                    if (v.equals("bad")) {
                        throw new IllegalArgumentException("bad input");
                    }
                    return v;
                });
        checked.mapValues(v -> v.toUpperCase()).to(upper, Serdes.strings(), Serdes.strings());
        checked.groupBy((k, v) -> v, Serdes.strings(), Serdes.strings())
                .count("counts")
                .toStream()
                .to(counts, Serdes.strings(), Serdes.longs());
        return b.build();
    }

    /** A traceparent of an upstream producer: trace {@code 0...0<n>}, span {@code 0...0<n>}, sampled. */
    private static String traceparent(int n) {
        return String.format("00-%032x-%016x-01", n, n);
    }

    private static ProducerRecord<byte[], byte[]> input(String topic, String key, String value, String traceparent) {
        ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, utf8(key), utf8(value));
        if (traceparent != null) {
            r.headers().add("traceparent", utf8(traceparent));
        }
        return r;
    }

    @Test
    void theInputsTraceContinuesThroughTheRepartitionIntoOutputsAndDeadLetters() {
        String in = KAFKA.uniqueTopic("trace-in", 1);
        String upper = KAFKA.uniqueTopic("trace-upper", 1);
        String counts = KAFKA.uniqueTopic("trace-counts", 1);
        String app = "tracing-" + UUID.randomUUID();
        List<String> values = List.of("a", "b", "bad", "a");
        List<ProducerRecord<byte[], byte[]>> inputs = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            inputs.add(input(in, "k" + i, values.get(i), traceparent(i + 1)));
        }
        KAFKA.client().send(inputs);

        try (InMemoryTracing tracing = new InMemoryTracing();
                WeirApp weir = WeirApp.create(
                                topology(in, upper, counts),
                                TestApps.config(KAFKA.bootstrapServers(), app).build())
                        .openTelemetry(tracing.openTelemetry())
                        .start()) {
            // Direct outputs: children of their input's span, in their input's trace.
            List<ConsumerRecord<byte[], byte[]>> uppers = KAFKA.client().readAtLeast(upper, 3, WAIT);
            assertThat(uppers).extracting(r -> text(r.value())).containsExactly("A", "B", "A");
            for (ConsumerRecord<byte[], byte[]> r : uppers) {
                int input = Integer.parseInt(text(r.key()).substring(1)) + 1;
                String traceparent = AbortIT.header(r, "traceparent");
                assertThat(traceId(traceparent)).isEqualTo(traceId(traceparent(input)));
                SpanData span = processSpan(tracing, in, traceId(traceparent));
                assertThat(spanId(traceparent)).isEqualTo(span.getSpanId());
                assertThat(span.getParentSpanId()).isEqualTo(spanId(traceparent(input)));
            }

            // Through the repartition topic: the downstream span is the upstream span's child; the
            // count is sent at the commit as the child of the span of the last input that updated it.
            List<ConsumerRecord<byte[], byte[]>> countRecords = KAFKA.client()
                    .readUntil(
                            counts,
                            rs -> rs.stream().anyMatch(r -> text(r.key()).equals("a") && count(r) == 2),
                            WAIT);
            ConsumerRecord<byte[], byte[]> b = last(countRecords, "b");
            ConsumerRecord<byte[], byte[]> a2 = last(countRecords, "a");
            assertThat(count(b)).isEqualTo(1);
            assertThat(traceId(AbortIT.header(b, "traceparent"))).isEqualTo(traceId(traceparent(2)));
            assertThat(traceId(AbortIT.header(a2, "traceparent"))).isEqualTo(traceId(traceparent(4)));
            for (int input : List.of(1, 2, 4)) {
                String trace = traceId(traceparent(input));
                SpanData upstream = processSpan(tracing, in, trace);
                SpanData downstream = await().atMost(WAIT)
                        .until(
                                () -> tracing.spans().stream()
                                        .filter(s -> s.getTraceId().equals(trace)
                                                && s.getName().endsWith("-repartition"))
                                        .findFirst(),
                                java.util.Optional::isPresent)
                        .orElseThrow();
                assertThat(downstream.getName()).startsWith("process " + app + "-");
                assertThat(downstream.getParentSpanId()).isEqualTo(upstream.getSpanId());
            }
            String sentA2 = spanId(AbortIT.header(a2, "traceparent"));
            SpanData send = tracing.spans("send " + counts).stream()
                    .filter(s -> s.getSpanId().equals(sentA2))
                    .findFirst()
                    .orElseThrow();
            SpanData downstreamA2 = tracing.spans().stream()
                    .filter(s -> s.getSpanId().equals(send.getParentSpanId()))
                    .findFirst()
                    .orElseThrow();
            assertThat(downstreamA2.getName()).endsWith("-repartition");
            assertThat(downstreamA2.getTraceId()).isEqualTo(traceId(traceparent(4)));

            // The dead letter: in the bad input's trace, the child of the span that failed it.
            ConsumerRecord<byte[], byte[]> dead = KAFKA.client()
                    .readAtLeast(weir.config().deadLetterTopic(), 1, WAIT)
                    .get(0);
            String deadParent = AbortIT.header(dead, "traceparent");
            assertThat(traceId(deadParent)).isEqualTo(traceId(traceparent(3)));
            SpanData failed = tracing.spans("process " + in).stream()
                    .filter(s -> s.getSpanId().equals(spanId(deadParent)))
                    .findFirst()
                    .orElseThrow();
            assertThat(failed.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
            assertThat(failed.getParentSpanId()).isEqualTo(spanId(traceparent(3)));
            assertThat(dead.headers().headers("traceparent")).hasSize(1);
        }
    }

    /**
     * The SDK's sampler drops every trace that would start here, or (rootRatio) Weir lets none
     * start with {@code tracing.root.ratio=0} and the SDK would sample all: the same outcome.
     */
    @ParameterizedTest(name = "decided by Weir''s tracing.root.ratio: {0}")
    @ValueSource(booleans = {false, true})
    void aTraceThatStartsInWeirUnsampledIsWrittenNowhereWhileAContinuedOneIs(boolean rootRatio) {
        String in = KAFKA.uniqueTopic("quiet-in", 1);
        String upper = KAFKA.uniqueTopic("quiet-upper", 1);
        String counts = KAFKA.uniqueTopic("quiet-counts", 1);
        KAFKA.client()
                .send(List.of(
                        input(in, "k0", "a", null),
                        input(in, "k1", "b", traceparent(7)),
                        input(in, "k2", "bad", null)));

        // The upstream's decision is followed; a trace that would start here is never sampled.
        try (InMemoryTracing tracing =
                        new InMemoryTracing(Sampler.parentBased(rootRatio ? Sampler.alwaysOn() : Sampler.alwaysOff()));
                WeirApp weir = WeirApp.create(
                                topology(in, upper, counts),
                                TestApps.config(KAFKA.bootstrapServers(), "quiet-" + UUID.randomUUID())
                                        .set("tracing.root.ratio", rootRatio ? 0 : 1)
                                        .build())
                        .openTelemetry(tracing.openTelemetry())
                        .start()) {
            List<ConsumerRecord<byte[], byte[]>> uppers = KAFKA.client().readAtLeast(upper, 2, WAIT);
            List<ConsumerRecord<byte[], byte[]>> countRecords = KAFKA.client().readAtLeast(counts, 2, WAIT);
            ConsumerRecord<byte[], byte[]> dead = KAFKA.client()
                    .readAtLeast(weir.config().deadLetterTopic(), 1, WAIT)
                    .get(0);

            for (List<ConsumerRecord<byte[], byte[]>> out : List.of(uppers, countRecords)) {
                assertThat(out).hasSize(2).allSatisfy(r -> {
                    String traceparent = AbortIT.header(r, "traceparent");
                    if (text(r.key()).equals("k1") || text(r.key()).equals("b")) {
                        assertThat(traceId(traceparent)).isEqualTo(traceId(traceparent(7)));
                    } else {
                        assertThat(traceparent).isNull();
                    }
                });
            }
            assertThat(dead.headers().lastHeader("traceparent")).isNull();
            // Through the repartition topic too: the continued trace's spans only, both sides.
            SpanData upstream = processSpan(tracing, in, traceId(traceparent(7)));
            await().atMost(WAIT)
                    .untilAsserted(() -> assertThat(tracing.spans())
                            .anySatisfy(s -> assertThat(s.getParentSpanId()).isEqualTo(upstream.getSpanId())));
            assertThat(tracing.spans())
                    .allSatisfy(s -> assertThat(s.getTraceId()).isEqualTo(traceId(traceparent(7))));
        }
    }

    @Test
    void withoutAnSdkNothingIsAddedAndTheInheritedContextPassesOn() {
        String in = KAFKA.uniqueTopic("untraced-in", 1);
        String upper = KAFKA.uniqueTopic("untraced-upper", 1);
        String counts = KAFKA.uniqueTopic("untraced-counts", 1);
        KAFKA.client()
                .send(List.of(
                        input(in, "k0", "a", null), input(in, "k1", "b", traceparent(7)), input(in, "k2", "c", null)));

        // No openTelemetry(...): the instance takes GlobalOpenTelemetry, the no-op without an SDK.
        try (WeirApp weir = TestApps.start(
                topology(in, upper, counts),
                TestApps.config(KAFKA.bootstrapServers(), "untraced-" + UUID.randomUUID())
                        .build())) {
            List<ConsumerRecord<byte[], byte[]>> uppers = KAFKA.client().readAtLeast(upper, 3, WAIT);
            List<ConsumerRecord<byte[], byte[]>> countRecords = KAFKA.client().readAtLeast(counts, 3, WAIT);
            for (List<ConsumerRecord<byte[], byte[]>> out : List.of(uppers, countRecords)) {
                assertThat(out).hasSize(3).allSatisfy(r -> {
                    boolean traced = text(r.key()).equals("k1") || text(r.key()).equals("b");
                    assertThat(AbortIT.header(r, "traceparent")).isEqualTo(traced ? traceparent(7) : null);
                });
            }
        }
    }

    /** The span of the input record of {@code topic} in {@code trace}, once it ended. */
    private static SpanData processSpan(InMemoryTracing tracing, String topic, String trace) {
        return await().atMost(WAIT)
                .until(
                        () -> tracing.spans("process " + topic).stream()
                                .filter(s -> s.getTraceId().equals(trace))
                                .reduce((x, y) -> y),
                        java.util.Optional::isPresent)
                .orElseThrow();
    }

    private static ConsumerRecord<byte[], byte[]> last(List<ConsumerRecord<byte[], byte[]>> records, String key) {
        return records.stream()
                .filter(r -> text(r.key()).equals(key))
                .reduce((x, y) -> y)
                .orElseThrow();
    }

    private static long count(ConsumerRecord<byte[], byte[]> r) {
        return ByteBuffer.wrap(r.value()).getLong();
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
