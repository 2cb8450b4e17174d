package io.weir.testing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.weir.processor.Headers;
import java.util.List;

/**
 * An OpenTelemetry SDK for the tracing tests: W3C trace context, spans exported at their end into
 * memory ({@link #spans()}), sampled as the test says.
 */
public final class InMemoryTracing implements AutoCloseable {

    /** A trace id and a parent span id of an upstream producer, as a traceparent header gives them. */
    public static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

    public static final String PARENT_SPAN_ID = "00f067aa0ba902b7";
    public static final String TRACEPARENT = "00-" + TRACE_ID + "-" + PARENT_SPAN_ID + "-01";

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk;

    public InMemoryTracing() {
        this(Sampler.parentBased(Sampler.alwaysOn()));
    }

    public InMemoryTracing(Sampler sampler) {
        this.sdk = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder()
                        .setSampler(sampler)
                        .addSpanProcessor(SimpleSpanProcessor.create(exporter))
                        .build())
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
    }

    public OpenTelemetry openTelemetry() {
        return sdk;
    }

    /** The spans ended so far, in the order they ended. */
    public List<SpanData> spans() {
        return exporter.getFinishedSpanItems();
    }

    /** The ended spans named {@code name}. */
    public List<SpanData> spans(String name) {
        return spans().stream().filter(s -> s.getName().equals(name)).toList();
    }

    /** Headers with the upstream producer's context ({@link #TRACEPARENT}). */
    public static Headers upstream() {
        return Headers.empty().with("traceparent", TRACEPARENT);
    }

    /** The trace id of a {@code traceparent} value. */
    public static String traceId(String traceparent) {
        return traceparent.split("-")[1];
    }

    /** The span id of a {@code traceparent} value. */
    public static String spanId(String traceparent) {
        return traceparent.split("-")[2];
    }

    @Override
    public void close() {
        sdk.close();
    }
}
