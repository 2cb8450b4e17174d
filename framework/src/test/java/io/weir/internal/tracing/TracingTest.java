package io.weir.internal.tracing;

import static io.weir.testing.InMemoryTracing.PARENT_SPAN_ID;
import static io.weir.testing.InMemoryTracing.TRACE_ID;
import static io.weir.testing.InMemoryTracing.spanId;
import static io.weir.testing.InMemoryTracing.traceId;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.weir.processor.Headers;
import io.weir.testing.InMemoryTracing;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class TracingTest {

    private static final String OTHER_TRACEPARENT = "00-11111111111111111111111111111111-2222222222222222-01";

    private static ConsumerRecord<byte[], byte[]> input(String traceparent) {
        RecordHeaders headers = new RecordHeaders();
        if (traceparent != null) {
            headers.add("traceparent", traceparent.getBytes(StandardCharsets.UTF_8));
        }
        headers.add("mine", "1".getBytes(StandardCharsets.UTF_8));
        return new ConsumerRecord<>(
                "in",
                3,
                42,
                7L,
                org.apache.kafka.common.record.TimestampType.CREATE_TIME,
                0,
                1,
                null,
                new byte[] {1},
                headers,
                java.util.Optional.empty());
    }

    private static Tracing on(InMemoryTracing sdk) {
        return Tracing.of(sdk.openTelemetry(), false, "app");
    }

    @Test
    void offWhenNothingPropagates() {
        assertThat(Tracing.of(OpenTelemetry.noop(), true, "app")).isSameAs(Tracing.off());
        assertThat(Tracing.off().on()).isFalse();
        // An SDK without propagators (its default) continues and writes nothing: off, with a warning.
        try (OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().build())
                .build()) {
            assertThat(Tracing.of(sdk, false, "app").on()).isFalse();
        }
    }

    @Test
    void theGlobalOneIsTheNoOpWithoutAnSdkAndIsLeftUnregistered() {
        GlobalOpenTelemetry.resetForTest();
        try {
            assertThat(Tracing.of(Tracing.global(), false, "app")).isSameAs(Tracing.off());
            assertThat(GlobalOpenTelemetry.isSet())
                    .as("an application may still register its SDK")
                    .isFalse();
        } finally {
            GlobalOpenTelemetry.resetForTest();
        }
    }

    @Test
    void autoconfigureIsAskedForByItsPropertyOrVariable() {
        java.util.Properties none = new java.util.Properties();
        java.util.Properties enabled = new java.util.Properties();
        enabled.setProperty("otel.java.global-autoconfigure.enabled", "true");
        assertThat(Tracing.autoconfigureEnabled(none, java.util.Map.of())).isFalse();
        assertThat(Tracing.autoconfigureEnabled(enabled, java.util.Map.of())).isTrue();
        assertThat(Tracing.autoconfigureEnabled(
                        none, java.util.Map.of("OTEL_JAVA_GLOBAL_AUTOCONFIGURE_ENABLED", "true")))
                .isTrue();
    }

    @Test
    void offPassesTheRecordOnItself() {
        ConsumerRecord<byte[], byte[]> record = input(InMemoryTracing.TRACEPARENT);
        assertThat(Tracing.off().withCurrentContext(record)).isSameAs(record);
    }

    @Test
    void aRecordsSpanContinuesItsContextAndIsCurrentUntilItEnds() {
        try (InMemoryTracing sdk = new InMemoryTracing()) {
            Tracing tracing = on(sdk);
            RecordSpan span = tracing.process(input(InMemoryTracing.TRACEPARENT), false);
            String current = Span.current().getSpanContext().getSpanId();
            Headers continued = tracing.continued(Headers.empty().with("traceparent", "x"));
            span.end();

            SpanData data = sdk.spans().get(0);
            assertThat(data.getName()).isEqualTo("process in");
            assertThat(data.getSpanId()).isEqualTo(current);
            assertThat(data.getParentSpanId()).isEqualTo(PARENT_SPAN_ID);
            assertThat(data.getAttributes().asMap()).containsValues("kafka", "in", "3", 42L, "app", "process");
            assertThat(continued.lastString("traceparent")).isEqualTo("00-" + TRACE_ID + "-" + current + "-01");
            assertThat(Span.current().getSpanContext().isValid()).isFalse();
        }
    }

    @Test
    void aResultEmittedOutsideAnyRecordContinuesTheContextItCarries() {
        try (InMemoryTracing sdk = new InMemoryTracing()) {
            Headers out = on(sdk).produced(InMemoryTracing.upstream(), "counts");

            SpanData send = sdk.spans().get(0);
            assertThat(send.getName()).isEqualTo("send counts");
            assertThat(send.getKind()).isEqualTo(SpanKind.PRODUCER);
            assertThat(send.getParentSpanId()).isEqualTo(PARENT_SPAN_ID);
            assertThat(spanId(out.lastString("traceparent"))).isEqualTo(send.getSpanId());
        }
    }

    @Test
    void aResultEmittedOutsideAnyRecordWithoutContextStartsATrace() {
        try (InMemoryTracing sdk = new InMemoryTracing()) {
            Headers out = on(sdk).produced(Headers.empty().with("weir.pane", "final"), "windows");

            SpanData send = sdk.spans().get(0);
            assertThat(send.getParentSpanContext().isValid()).isFalse();
            assertThat(send.getLinks()).isEmpty();
            assertThat(traceId(out.lastString("traceparent"))).isEqualTo(send.getTraceId());
            assertThat(out.lastString("weir.pane")).isEqualTo("final");
        }
    }

    @Test
    void aResultOfAnotherTraceMadeDuringARecordIsLinkedToIt() {
        try (InMemoryTracing sdk = new InMemoryTracing()) {
            Tracing tracing = on(sdk);
            RecordSpan span = tracing.process(input(InMemoryTracing.TRACEPARENT), false);
            Headers out = tracing.produced(Headers.empty().with("traceparent", OTHER_TRACEPARENT), "joined");
            span.end();

            SpanData send = sdk.spans("send joined").get(0);
            SpanData record = sdk.spans("process in").get(0);
            assertThat(send.getParentSpanId()).isEqualTo(record.getSpanId());
            assertThat(send.getLinks())
                    .singleElement()
                    .satisfies(l -> assertThat(l.getSpanContext().getSpanId()).isEqualTo("2222222222222222"));
            assertThat(spanId(out.lastString("traceparent"))).isEqualTo(send.getSpanId());
        }
    }

    @Test
    void aResultOfTheRecordOrWithoutContextIsTheRecordsChild() {
        try (InMemoryTracing sdk = new InMemoryTracing()) {
            Tracing tracing = on(sdk);
            RecordSpan span = tracing.process(input(null), false);
            String id = Span.current().getSpanContext().getSpanId();
            Headers mapped = tracing.produced(tracing.continued(Headers.empty()), "out");
            Headers fresh = tracing.produced(Headers.empty(), "out");
            span.end();

            assertThat(sdk.spans()).hasSize(1);
            assertThat(spanId(mapped.lastString("traceparent"))).isEqualTo(id);
            assertThat(spanId(fresh.lastString("traceparent"))).isEqualTo(id);
        }
    }

    @Test
    void aDeadLetterTakesTheCurrentSpansContextAndKeepsTheRest() {
        try (InMemoryTracing sdk = new InMemoryTracing()) {
            Tracing tracing = on(sdk);
            ConsumerRecord<byte[], byte[]> record = input(InMemoryTracing.TRACEPARENT);
            RecordSpan span = tracing.process(record, false);
            String id = Span.current().getSpanContext().getSpanId();
            ConsumerRecord<byte[], byte[]> traced = tracing.withCurrentContext(record);
            span.end();

            assertThat(traced.headers().headers("traceparent")).hasSize(1);
            assertThat(new String(traced.headers().lastHeader("traceparent").value(), StandardCharsets.UTF_8))
                    .isEqualTo("00-" + TRACE_ID + "-" + id + "-01");
            assertThat(traced.headers().lastHeader("mine")).isNotNull();
            assertThat(traced.offset()).isEqualTo(42);
            assertThat(record.headers().lastHeader("traceparent").value())
                    .as("the input is not changed")
                    .isEqualTo(InMemoryTracing.TRACEPARENT.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void copiesOnlyTheTraceContext() {
        try (InMemoryTracing sdk = new InMemoryTracing()) {
            Headers from = InMemoryTracing.upstream().with("mine", "1");
            Headers onto = Headers.empty().with("weir.pane", "final");

            Headers copied = on(sdk).copyContext(from, onto);

            assertThat(copied.lastString("traceparent")).isEqualTo(InMemoryTracing.TRACEPARENT);
            assertThat(copied.lastString("weir.pane")).isEqualTo("final");
            assertThat(copied.lastString("mine")).isNull();
            assertThat(copied.size()).isEqualTo(2);
        }
    }

    @Test
    void aStepSpanOnlyUnderASampledRecord() {
        try (InMemoryTracing sdk = new InMemoryTracing()) {
            Tracing tracing = Tracing.of(sdk.openTelemetry(), true, "app");
            assertThat(tracing.step("map")).as("no record").isNull();
            RecordSpan span = tracing.process(input(InMemoryTracing.TRACEPARENT), false);
            RecordSpan step = tracing.step("map");
            step.end();
            span.end();

            assertThat(sdk.spans("map"))
                    .singleElement()
                    .satisfies(s -> assertThat(s.getParentSpanId())
                            .isEqualTo(sdk.spans("process in").get(0).getSpanId()));
        }
    }

    @Test
    void anOutputOfTheRecordReusesTheContextWrittenAtTheSourceWithoutWritingItAgain() {
        try (InMemoryTracing sdk = new InMemoryTracing()) {
            Tracing tracing = on(sdk);
            RecordSpan span = tracing.process(input(InMemoryTracing.TRACEPARENT), false);
            Headers continued = tracing.continued(Headers.empty().with("traceparent", InMemoryTracing.TRACEPARENT));
            Headers mapped = tracing.produced(continued, "out");
            Headers withMore = tracing.produced(continued.with("mine", "1"), "out");
            span.end();

            assertThat(mapped).isSameAs(continued);
            assertThat(withMore.lastValue("traceparent")).isSameAs(continued.lastValue("traceparent"));
            assertThat(sdk.spans()).hasSize(1);
        }
    }

    @Test
    void aTraceThatStartsAtAnUnsampledRecordIsWrittenNowhere() {
        try (InMemoryTracing sdk = new InMemoryTracing(Sampler.parentBased(Sampler.alwaysOff()))) {
            Tracing tracing = on(sdk);
            ConsumerRecord<byte[], byte[]> record = input(null);
            Headers inherited = Headers.empty().with("mine", "1");
            RecordSpan span = tracing.process(record, false);
            assertThat(Span.current().getSpanContext().isValid())
                    .as("current, so that a client called meanwhile is not sampled either")
                    .isTrue();
            Headers continued = tracing.continued(inherited);
            Headers mapped = tracing.produced(continued, "out");
            Headers other = tracing.produced(Headers.empty().with("traceparent", OTHER_TRACEPARENT), "joined");
            ConsumerRecord<byte[], byte[]> dead = tracing.withCurrentContext(record);
            span.end();

            assertThat(continued).isSameAs(inherited);
            assertThat(mapped).isSameAs(inherited);
            assertThat(other.lastValue("traceparent"))
                    .as("its producer span is of the quiet trace")
                    .isNull();
            assertThat(dead).isSameAs(record);
            assertThat(sdk.spans()).isEmpty();
        }
    }

    @Test
    void anUnsampledTraceThatTheInputContinuesIsWrittenOn() {
        String unsampled = "00-" + TRACE_ID + "-" + PARENT_SPAN_ID + "-00";
        try (InMemoryTracing sdk = new InMemoryTracing(Sampler.parentBased(Sampler.alwaysOn()))) {
            Tracing tracing = on(sdk);
            ConsumerRecord<byte[], byte[]> record = input(unsampled);
            RecordSpan span = tracing.process(record, false);
            String id = Span.current().getSpanContext().getSpanId();
            Headers out = tracing.produced(tracing.continued(Headers.empty().with("traceparent", unsampled)), "out");
            ConsumerRecord<byte[], byte[]> dead = tracing.withCurrentContext(record);
            span.end();

            assertThat(out.lastString("traceparent")).isEqualTo("00-" + TRACE_ID + "-" + id + "-00");
            assertThat(new String(dead.headers().lastHeader("traceparent").value(), StandardCharsets.UTF_8))
                    .isEqualTo("00-" + TRACE_ID + "-" + id + "-00");
            assertThat(sdk.spans()).isEmpty();
        }
    }

    @Test
    void anUnsampledResultEmittedOutsideAnyRecordWithoutContextIsWrittenWithNone() {
        try (InMemoryTracing sdk = new InMemoryTracing(Sampler.parentBased(Sampler.alwaysOff()))) {
            Tracing tracing = on(sdk);
            Headers pane = Headers.empty().with("weir.pane", "final");

            assertThat(tracing.produced(pane, "windows").lastValue("traceparent"))
                    .isNull();
            assertThat(tracing.produced(InMemoryTracing.upstream(), "counts").lastString("traceparent"))
                    .as("a continued trace is written")
                    .startsWith("00-" + TRACE_ID + "-");
            assertThat(sdk.spans())
                    .as("sampled upstream")
                    .extracting(SpanData::getName)
                    .containsExactly("send counts");
        }
    }

    @Test
    void aRecordedSpanHasTheMessagingAttributes() {
        try (InMemoryTracing sdk = new InMemoryTracing()) {
            Tracing tracing = on(sdk);
            tracing.process(input(null), true).end();
            tracing.produced(Headers.empty(), "windows");

            assertThat(sdk.spans("process in").get(0).getAttributes().asMap())
                    .containsEntry(Tracing.ASYNC_COMPLETION, true)
                    .containsEntry(Tracing.OFFSET, 42L);
            assertThat(sdk.spans("send windows").get(0).getAttributes().asMap())
                    .containsEntry(Tracing.DESTINATION, "windows")
                    .containsEntry(Tracing.OPERATION_TYPE, "send");
        }
    }
}
