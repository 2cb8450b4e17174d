package io.weir.benchmarks.systems;

import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.util.Collection;

/**
 * The OpenTelemetry SDK of {@code weir_traced}: W3C trace context, a parent-based sampler keeping a
 * fraction of the traces, and a batch processor whose exporter drops the spans, so the run pays for
 * propagation, spans and their batching, not for a collector's network.
 */
final class TracingSdk {

    private TracingSdk() {}

    static OpenTelemetrySdk sampling(double ratio) {
        return with(Sampler.parentBased(Sampler.traceIdRatioBased(ratio)));
    }

    /** Every trace sampled: for {@code tracing.root.ratio}, which picks the traces before the SDK. */
    static OpenTelemetrySdk samplingAll() {
        return with(Sampler.parentBased(Sampler.alwaysOn()));
    }

    private static OpenTelemetrySdk with(Sampler sampler) {
        SdkTracerProvider tracer = SdkTracerProvider.builder()
                .setSampler(sampler)
                .addSpanProcessor(BatchSpanProcessor.builder(new Dropping()).build())
                .build();
        return OpenTelemetrySdk.builder()
                .setTracerProvider(tracer)
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
    }

    /** Takes every batch and keeps nothing. */
    private static final class Dropping implements SpanExporter {
        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}
