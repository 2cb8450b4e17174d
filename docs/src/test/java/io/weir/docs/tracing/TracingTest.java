package io.weir.docs.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.config.WeirConfig;
import io.weir.processor.Headers;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/tracing.md: an SDK given to the application, and a test of the trace context with the driver. */
class TracingTest {

    static Topology alerts() {
        TopologyBuilder builder = new TopologyBuilder();
        builder.stream(Serdes.strings(), Serdes.strings(), "readings")
                .filter((sensor, reading) -> reading.startsWith("hot"))
                .to("alerts", Serdes.strings(), Serdes.strings());
        return builder.build();
    }

    /** The SDK of the page: W3C trace context, 1% of new traces sampled, spans batched to {@code exporter}. */
    static OpenTelemetry sdk(SpanExporter exporter) {
        // tag::sdk[]
        OpenTelemetrySdk openTelemetry = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder()
                        // Follow the upstream's decision; sample 1% of the traces that start here.
                        .setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(0.01)))
                        .addSpanProcessor(BatchSpanProcessor.builder(exporter).build())
                        .build())
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
        // end::sdk[]
        return openTelemetry;
    }

    /** How an application gives it to Weir (compiled, not run: it needs a broker). */
    static WeirApp start(WeirConfig config, SpanExporter exporter) {
        OpenTelemetry openTelemetry = sdk(exporter);
        // tag::app[]
        WeirApp app =
                WeirApp.create(alerts(), config).openTelemetry(openTelemetry).start();
        // end::app[]
        return app;
    }

    @Test
    void anAlertCarriesTheTraceOfItsReading() {
        // tag::driver[]
        InMemorySpanExporter spans = InMemorySpanExporter.create();
        OpenTelemetry openTelemetry = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder()
                        .addSpanProcessor(SimpleSpanProcessor.create(spans))
                        .build())
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
        try (TestDriver driver =
                TestDriver.builder(alerts()).openTelemetry(openTelemetry).build()) {
            String upstream = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
            driver.pipe("readings", 0, "s1", "hot 95", 1_000, Headers.empty().with("traceparent", upstream));

            TestRecord<String, String> alert =
                    driver.output("alerts", Serdes.strings(), Serdes.strings()).get(0);
            SpanData span = spans.getFinishedSpanItems().get(0); // "process readings", kind CONSUMER
            assertThat(span.getParentSpanId()).isEqualTo("00f067aa0ba902b7");
            assertThat(alert.headers().lastString("traceparent"))
                    .isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-" + span.getSpanId() + "-01");
        }
        // end::driver[]
    }

    @Test
    void theSdkOfThePageSamplesWhatItsUpstreamSampled() {
        InMemorySpanExporter spans = InMemorySpanExporter.create();
        OpenTelemetry openTelemetry = sdk(spans);
        try (TestDriver driver =
                TestDriver.builder(alerts()).openTelemetry(openTelemetry).build()) {
            driver.pipe(
                    "readings",
                    0,
                    "s1",
                    "hot 95",
                    1_000,
                    Headers.empty().with("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"));
            assertThat(driver.output("alerts", Serdes.strings(), Serdes.strings()))
                    .hasSize(1);
        }
        ((OpenTelemetrySdk) openTelemetry)
                .getSdkTracerProvider()
                .forceFlush()
                .join(10, java.util.concurrent.TimeUnit.SECONDS);
        List<SpanData> ended = spans.getFinishedSpanItems();
        assertThat(ended).extracting(SpanData::getName).containsExactly("process readings");
    }
}
