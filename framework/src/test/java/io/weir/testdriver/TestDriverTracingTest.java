package io.weir.testdriver;

import static io.weir.testing.InMemoryTracing.PARENT_SPAN_ID;
import static io.weir.testing.InMemoryTracing.TRACEPARENT;
import static io.weir.testing.InMemoryTracing.TRACE_ID;
import static io.weir.testing.InMemoryTracing.spanId;
import static io.weir.testing.InMemoryTracing.traceId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.common.KeyValue;
import io.weir.dsl.Emit;
import io.weir.dsl.SessionWindows;
import io.weir.dsl.TimeWindows;
import io.weir.processor.Headers;
import io.weir.serde.Serdes;
import io.weir.testing.InMemoryTracing;
import io.weir.testing.WordCount;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Tracing through the driver: the same runtime, so the same spans and headers as an instance's. */
class TestDriverTracingTest {

    private static final long T0 = 1_000_000;

    private static Topology upperCase() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .mapValues(v -> {
                    if (v.equals("boom")) {
                        throw new IllegalStateException("boom");
                    }
                    return v.toUpperCase();
                })
                .to("out", Serdes.strings(), Serdes.strings());
        return b.build();
    }

    private static TestDriver driver(Topology topology, OpenTelemetry otel) {
        return TestDriver.builder(topology)
                .startWallClock(T0)
                .inMemoryStores()
                .openTelemetry(otel)
                .build();
    }

    @Test
    void continuesTheInputsTraceThroughTheRepartitionIntoTheCounts() {
        try (InMemoryTracing tracing = new InMemoryTracing();
                TestDriver driver = driver(WordCount.topology(), tracing.openTelemetry())) {
            driver.pipe("lines", 0, "k", "a b", 100, InMemoryTracing.upstream());

            List<TestRecord<String, Long>> counts = driver.output("counts", Serdes.strings(), Serdes.longs());
            assertThat(counts).hasSize(2);
            SpanData lines = single(tracing.spans("process lines"));
            assertThat(lines.getTraceId()).isEqualTo(TRACE_ID);
            assertThat(lines.getParentSpanId()).isEqualTo(PARENT_SPAN_ID);
            assertThat(lines.getKind()).isEqualTo(SpanKind.CONSUMER);
            assertThat(lines.getAttributes().get(AttributeKey.stringKey("messaging.system")))
                    .isEqualTo("kafka");
            assertThat(lines.getAttributes().get(AttributeKey.stringKey("messaging.destination.name")))
                    .isEqualTo("lines");
            assertThat(lines.getAttributes().get(AttributeKey.longKey("messaging.kafka.offset")))
                    .isEqualTo(0L);
            assertThat(lines.getAttributes().get(AttributeKey.stringKey("messaging.consumer.group.name")))
                    .isEqualTo("test-app");
            // One record per word on the repartition topic, each continued by a span of the
            // downstream sub-topology, child of the upstream record's span.
            List<SpanData> repartitioned = tracing.spans().stream()
                    .filter(s ->
                            s.getName().startsWith("process ") && s.getName().endsWith("-repartition"))
                    .toList();
            assertThat(repartitioned).hasSize(2).allSatisfy(s -> {
                assertThat(s.getTraceId()).isEqualTo(TRACE_ID);
                assertThat(s.getParentSpanId()).isEqualTo(lines.getSpanId());
            });
            // The counts are forwarded at the commit, outside any record's span: each is sent under
            // a span of its own, child of the span of the last record that updated it.
            List<SpanData> sends = tracing.spans("send counts");
            assertThat(sends).hasSize(2).allSatisfy(s -> {
                assertThat(s.getKind()).isEqualTo(SpanKind.PRODUCER);
                assertThat(s.getTraceId()).isEqualTo(TRACE_ID);
                assertThat(repartitioned).extracting(SpanData::getSpanId).contains(s.getParentSpanId());
            });
            assertThat(counts).allSatisfy(r -> {
                String traceparent = r.headers().lastString("traceparent");
                assertThat(traceId(traceparent)).isEqualTo(TRACE_ID);
                assertThat(sends).extracting(SpanData::getSpanId).contains(spanId(traceparent));
            });
        }
    }

    @Test
    void anOutputOfTheRecordIsTheChildOfItsSpan() {
        try (InMemoryTracing tracing = new InMemoryTracing();
                TestDriver driver = driver(upperCase(), tracing.openTelemetry())) {
            driver.pipe("in", 0, "k", "a", 100, InMemoryTracing.upstream());

            TestRecord<String, String> out = single(driver.output("out", Serdes.strings(), Serdes.strings()));
            SpanData span = single(tracing.spans("process in"));
            assertThat(out.headers().lastString("traceparent"))
                    .isEqualTo("00-" + TRACE_ID + "-" + span.getSpanId() + "-01");
            assertThat(out.headers().size())
                    .as("the inherited traceparent replaced, not repeated")
                    .isEqualTo(1);
        }
    }

    @Test
    void aRootRatioOfZeroStartsNoTraceButContinuesTheOnesThatCome() {
        try (InMemoryTracing tracing = new InMemoryTracing();
                TestDriver driver = TestDriver.builder(upperCase())
                        .startWallClock(T0)
                        .inMemoryStores()
                        .config("tracing.root.ratio", "0")
                        .openTelemetry(tracing.openTelemetry())
                        .build()) {
            driver.pipe("in", "k", "a", 100); // no context: no span, nothing written
            driver.pipe("in", 0, "k", "b", 200, InMemoryTracing.upstream()); // continued as ever

            List<TestRecord<String, String>> out = driver.output("out", Serdes.strings(), Serdes.strings());
            assertThat(out).extracting(TestRecord::value).containsExactly("A", "B");
            assertThat(out.get(0).headers().size()).isZero();
            SpanData continued = single(tracing.spans("process in"));
            assertThat(continued.getTraceId()).isEqualTo(TRACE_ID);
            assertThat(traceId(out.get(1).headers().lastString("traceparent"))).isEqualTo(TRACE_ID);
        }
    }

    @Test
    void aRootRatioIsAShareFromZeroToOne() {
        assertThatThrownBy(() -> TestDriver.builder(upperCase())
                        .config("tracing.root.ratio", "1.5")
                        .build())
                .hasMessageContaining("tracing.root.ratio")
                .hasMessageContaining("from 0 to 1");
    }

    @Test
    void aRecordWithoutContextStartsATrace() {
        try (InMemoryTracing tracing = new InMemoryTracing();
                TestDriver driver = driver(upperCase(), tracing.openTelemetry())) {
            driver.pipe("in", "k", "a", 100);

            SpanData span = single(tracing.spans("process in"));
            assertThat(span.getParentSpanContext().isValid()).isFalse();
            String traceparent = single(driver.output("out", Serdes.strings(), Serdes.strings()))
                    .headers()
                    .lastString("traceparent");
            assertThat(traceId(traceparent)).isEqualTo(span.getTraceId());
        }
    }

    @Test
    void aDeadLetterCarriesTheContextOfTheFailedRecordsSpan() {
        try (InMemoryTracing tracing = new InMemoryTracing();
                TestDriver driver = driver(upperCase(), tracing.openTelemetry())) {
            driver.pipe("in", 0, "k", "boom", 100, InMemoryTracing.upstream());

            TestRecord<byte[], byte[]> dead = single(driver.deadLetters());
            assertThat(dead.headers().lastString("weir.error.message")).isEqualTo("boom");
            // Under exactly-once the failed record is replayed and dead-lettered under a new span.
            SpanData failed =
                    tracing.spans("process in").get(tracing.spans("process in").size() - 1);
            assertThat(failed.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
            assertThat(failed.getParentSpanId()).isEqualTo(PARENT_SPAN_ID);
            assertThat(dead.headers().lastString("traceparent"))
                    .isEqualTo("00-" + TRACE_ID + "-" + failed.getSpanId() + "-01");
        }
    }

    @Test
    void offByDefaultAddingNothingAndPassingTheInheritedContextOn() {
        try (TestDriver driver =
                TestDriver.builder(upperCase()).inMemoryStores().build()) {
            driver.pipe("in", "k", "a", 100);
            driver.pipe("in", 0, "k", "b", 100, InMemoryTracing.upstream());

            List<TestRecord<String, String>> out = driver.output("out", Serdes.strings(), Serdes.strings());
            assertThat(out.get(0).headers().isEmpty()).isTrue();
            // Outputs inherit their input's headers, tracing or not.
            assertThat(out.get(1).headers().lastString("traceparent")).isEqualTo(TRACEPARENT);
        }
    }

    @Test
    void offWithANoOpOpenTelemetry() {
        try (TestDriver driver = driver(upperCase(), OpenTelemetry.noop())) {
            driver.pipe("in", "k", "a", 100);

            assertThat(single(driver.output("out", Serdes.strings(), Serdes.strings()))
                            .headers()
                            .isEmpty())
                    .isTrue();
        }
    }

    @Test
    void stepSpansOnlyWhenAskedFor() {
        try (InMemoryTracing tracing = new InMemoryTracing();
                TestDriver driver = TestDriver.builder(upperCase())
                        .inMemoryStores()
                        .config("tracing.step.spans", true)
                        .openTelemetry(tracing.openTelemetry())
                        .build()) {
            driver.pipe("in", 0, "k", "a", 100, InMemoryTracing.upstream());

            SpanData record = single(tracing.spans("process in"));
            List<SpanData> steps = tracing.spans().stream()
                    .filter(s -> s.getKind() == SpanKind.INTERNAL)
                    .toList();
            assertThat(steps)
                    .isNotEmpty()
                    .allSatisfy(s -> assertThat(s.getTraceId()).isEqualTo(TRACE_ID));
            assertThat(steps).anySatisfy(s -> assertThat(s.getParentSpanId()).isEqualTo(record.getSpanId()));
            String traceparent = single(driver.output("out", Serdes.strings(), Serdes.strings()))
                    .headers()
                    .lastString("traceparent");
            assertThat(steps).extracting(SpanData::getSpanId).contains(spanId(traceparent));
        }
        try (InMemoryTracing tracing = new InMemoryTracing();
                TestDriver driver = driver(upperCase(), tracing.openTelemetry())) {
            driver.pipe("in", 0, "k", "a", 100, InMemoryTracing.upstream());

            assertThat(tracing.spans()).extracting(SpanData::getKind).containsOnly(SpanKind.CONSUMER);
        }
    }

    @Test
    void unsampledRecordsRecordNothingButKeepTheirTrace() {
        try (InMemoryTracing tracing = new InMemoryTracing(Sampler.alwaysOff());
                TestDriver driver = TestDriver.builder(upperCase())
                        .inMemoryStores()
                        .config("tracing.step.spans", true)
                        .openTelemetry(tracing.openTelemetry())
                        .build()) {
            driver.pipe("in", 0, "k", "a", 100, InMemoryTracing.upstream());

            assertThat(tracing.spans()).isEmpty();
            String traceparent = single(driver.output("out", Serdes.strings(), Serdes.strings()))
                    .headers()
                    .lastString("traceparent");
            assertThat(traceId(traceparent)).isEqualTo(TRACE_ID);
            assertThat(traceparent).endsWith("-00");
        }
    }

    @Test
    void headersOtherThanTheContextPassUnchanged() {
        try (InMemoryTracing tracing = new InMemoryTracing();
                TestDriver driver = driver(upperCase(), tracing.openTelemetry())) {
            driver.pipe("in", 0, "k", "a", 100, InMemoryTracing.upstream().with("mine", "1"));

            Headers headers = single(driver.output("out", Serdes.strings(), Serdes.strings()))
                    .headers();
            assertThat(headers.lastString("mine")).isEqualTo("1");
            assertThat(headers.size()).isEqualTo(2);
        }
    }

    @Test
    void aWindowResultFiredByARecordsWatermarkIsSentUnderItLinkedToTheLastRecordOfTheWindow() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .groupByKey()
                .windowedBy(TimeWindows.of(Duration.ofSeconds(1)))
                .emit(Emit.onWindowClose())
                .count("window-counts")
                .map((w, c) -> KeyValue.of(w.key() + "@" + w.start(), c))
                .to("out", Serdes.strings(), Serdes.longs());
        try (InMemoryTracing tracing = new InMemoryTracing();
                TestDriver driver = driver(b.build(), tracing.openTelemetry())) {
            driver.pipe("in", 0, "k", "a", 100);
            driver.pipe("in", 0, "k", "b", 200, InMemoryTracing.upstream()); // the window's last record
            driver.pipe("in", 0, "k", "c", 5_000); // a new trace; its time closes the first window

            TestRecord<String, Long> result = single(driver.output("out", Serdes.strings(), Serdes.longs()));
            assertThat(result.key()).isEqualTo("k@0");
            assertThat(result.value()).isEqualTo(2);
            List<SpanData> records = tracing.spans("process in");
            SpanData last = records.get(1);
            SpanData closer = records.get(2);
            assertThat(last.getTraceId()).isEqualTo(TRACE_ID);
            SpanData send = single(tracing.spans("send out"));
            assertThat(send.getParentSpanId()).isEqualTo(closer.getSpanId());
            assertThat(send.getTraceId()).isEqualTo(closer.getTraceId());
            assertThat(send.getLinks())
                    .singleElement()
                    .satisfies(l -> assertThat(l.getSpanContext().getSpanId()).isEqualTo(last.getSpanId()));
            String traceparent = result.headers().lastString("traceparent");
            assertThat(spanId(traceparent)).isEqualTo(send.getSpanId());
            assertThat(result.headers().lastString("weir.pane")).isEqualTo("final");
        }
    }

    @Test
    void aMergedSessionContinuesFromTheLastRecordThatUpdatedIt() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .groupByKey()
                .windowedBy(SessionWindows.withInactivityGap(Duration.ofSeconds(1)))
                .count("sessions")
                .map((w, c) -> KeyValue.of(w.key() + "@" + w.start() + "-" + w.end(), c))
                .to("out", Serdes.strings(), Serdes.longs());
        try (InMemoryTracing tracing = new InMemoryTracing();
                TestDriver driver = TestDriver.builder(b.build())
                        .inMemoryStores()
                        .config("max.out.of.orderness.ms", 5_000) // the first sessions wait
                        .openTelemetry(tracing.openTelemetry())
                        .build()) {
            driver.pipe("in", 0, "k", "a", 100);
            driver.pipe("in", 0, "k", "b", 1_500);
            driver.pipe("in", 0, "k", "c", 800, InMemoryTracing.upstream()); // merges both sessions
            driver.pipe("in", 0, "k", "d", 20_000); // closes the merged session

            List<TestRecord<String, Long>> out = driver.output("out", Serdes.strings(), Serdes.longs());
            TestRecord<String, Long> merged = out.stream()
                    .filter(r -> r.value() != null && r.value() == 3)
                    .findFirst()
                    .orElseThrow();
            assertThat(merged.key()).isEqualTo("k@100-1500");
            SpanData send = tracing.spans("send out").stream()
                    .filter(s -> s.getSpanId().equals(spanId(merged.headers().lastString("traceparent"))))
                    .findFirst()
                    .orElseThrow();
            SpanData merger = tracing.spans("process in").get(2);
            assertThat(merger.getTraceId()).isEqualTo(TRACE_ID);
            assertThat(send.getLinks())
                    .singleElement()
                    .satisfies(l -> assertThat(l.getSpanContext().getSpanId()).isEqualTo(merger.getSpanId()));
        }
    }

    @Test
    void anAsynchronousResultContinuesItsRecordsTrace() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .mapValuesAsync(v -> CompletableFuture.completedFuture(v.toUpperCase()))
                .to("out", Serdes.strings(), Serdes.strings());
        try (InMemoryTracing tracing = new InMemoryTracing();
                TestDriver driver = driver(b.build(), tracing.openTelemetry())) {
            driver.pipe("in", 0, "k", "a", 100, InMemoryTracing.upstream());

            TestRecord<String, String> out = single(driver.output("out", Serdes.strings(), Serdes.strings()));
            assertThat(out.value()).isEqualTo("A");
            SpanData completion = single(tracing.spans("process in").stream()
                    .filter(s -> Boolean.TRUE.equals(
                            s.getAttributes().get(AttributeKey.booleanKey("weir.async.completion"))))
                    .toList());
            assertThat(completion.getParentSpanId()).isEqualTo(PARENT_SPAN_ID);
            assertThat(out.headers().lastString("traceparent"))
                    .isEqualTo("00-" + TRACE_ID + "-" + completion.getSpanId() + "-01");
        }
    }

    private static <T> T single(List<T> list) {
        assertThat(list).hasSize(1);
        return list.get(0);
    }
}
