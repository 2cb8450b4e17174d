package io.weir.internal.tracing;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.weir.processor.Headers;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An instance's tracing: a CONSUMER span per input record, child of the context in its headers
 * (W3C {@code traceparent}/{@code tracestate} with the default propagators); the context of the
 * span that produced an output written into the output's headers, replacing what it inherited;
 * and, where the runtime cuts a record's lineage (results emitted by a commit, a punctuation or
 * the watermark), a PRODUCER span of its own (see {@link #produced}).
 *
 * <p>Decided once, at start-up: with a no-op text-map propagator (OpenTelemetry's default
 * without an SDK), {@link #on()} is false and the runtime calls nothing else, so the hot path
 * reads no header and allocates nothing for tracing. Callers test {@link #on()} first.
 *
 * <p>With tracing on, a record pays in proportion to what is recorded: its span's attributes, and
 * its context in its outputs' headers, only for a sampled trace or one its input continues; a
 * trace that starts at the record and is not sampled ({@link RecordTrace#quiet}) costs the
 * sampler's decision and leaves the headers as they were.
 *
 * <p>Shared by the instance's threads, safely (its only state is a cache of span names); the
 * per-record state travels in OpenTelemetry's {@link Context}, current on the thread that
 * processes the record.
 */
public final class Tracing {

    static final String INSTRUMENTATION = "io.weir";

    static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("messaging.system");
    static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    static final AttributeKey<String> PARTITION = AttributeKey.stringKey("messaging.destination.partition.id");
    static final AttributeKey<Long> OFFSET = AttributeKey.longKey("messaging.kafka.offset");
    static final AttributeKey<String> GROUP = AttributeKey.stringKey("messaging.consumer.group.name");
    static final AttributeKey<String> OPERATION_TYPE = AttributeKey.stringKey("messaging.operation.type");
    static final AttributeKey<String> OPERATION_NAME = AttributeKey.stringKey("messaging.operation.name");
    /** Set on the span of an asynchronous step's completion, a second span of an input record. */
    static final AttributeKey<Boolean> ASYNC_COMPLETION = AttributeKey.booleanKey("weir.async.completion");

    /** The trace of the input record being processed, in the context while its span is current. */
    private static final ContextKey<RecordTrace> RECORD = ContextKey.named("weir.record");

    private static final Logger log = LoggerFactory.getLogger(Tracing.class);
    private static final Tracing OFF = new Tracing(null, null, false, 1, null);

    private final Tracer tracer;
    private final TextMapPropagator propagator;
    private final String[] fields;
    private final boolean stepSpans;
    /** {@code tracing.root.ratio}: below 1, records without a context skip the SDK this often. */
    private final double rootRatio;

    private final String group;

    /** The context of a quiet record that carried no context at all ({@link #rootRatio}). */
    private final Context quietRoot = quiet(Context.root());

    private final SpanNames processNames = new SpanNames("process ");
    private final SpanNames sendNames = new SpanNames("send ");

    private Tracing(Tracer tracer, TextMapPropagator propagator, boolean stepSpans, double rootRatio, String group) {
        this.tracer = tracer;
        this.propagator = propagator;
        this.fields = propagator == null ? new String[0] : propagator.fields().toArray(new String[0]);
        this.stepSpans = stepSpans;
        this.rootRatio = rootRatio;
        this.group = group;
    }

    /** No tracing (the test driver's default). */
    public static Tracing off() {
        return OFF;
    }

    /**
     * Tracing with {@code openTelemetry}, or {@link #off()} if its text-map propagator is the
     * no-op: nothing to continue and nothing to write.
     *
     * @param stepSpans {@code tracing.step.spans}: a span per processor step of sampled records
     * @param group     the consumer group (the application id), an attribute of every record's span
     */
    public static Tracing of(OpenTelemetry openTelemetry, boolean stepSpans, String group) {
        return of(openTelemetry, stepSpans, 1, group);
    }

    /**
     * As {@link #of(OpenTelemetry, boolean, String)}, with {@code tracing.root.ratio}: the share of
     * records without a trace context that may start one (the SDK's sampler decides for those); the
     * others are quiet without asking the SDK, whose decision (two random ids made as text, the
     * sampler parsing one back) is most of what an unsampled record costs.
     */
    public static Tracing of(OpenTelemetry openTelemetry, boolean stepSpans, double rootRatio, String group) {
        TextMapPropagator propagator = openTelemetry.getPropagators().getTextMapPropagator();
        if (propagator == TextMapPropagator.noop()) {
            if (openTelemetry.getTracerProvider() != TracerProvider.noop()) {
                log.warn("tracing is off: the OpenTelemetry instance has a tracer provider but no text-map"
                        + " propagator (set OTEL_PROPAGATORS=tracecontext,baggage, or give its SDK"
                        + " ContextPropagators.create(W3CTraceContextPropagator.getInstance()))");
            }
            return OFF;
        }
        log.info(
                "tracing on: a span per input record, the trace context ({}) written into what it produces;"
                        + " step spans {} (tracing.step.spans); {} of the records without a context may start a"
                        + " trace (tracing.root.ratio)",
                String.join(", ", propagator.fields()),
                stepSpans ? "on" : "off",
                rootRatio);
        return new Tracing(openTelemetry.getTracer(INSTRUMENTATION), propagator, stepSpans, rootRatio, group);
    }

    /**
     * The application's global OpenTelemetry: the one it registered, or the one the SDK's
     * autoconfigure builds from {@code OTEL_*} when {@code otel.java.global-autoconfigure.enabled}
     * (or {@code OTEL_JAVA_GLOBAL_AUTOCONFIGURE_ENABLED}) is true; else the no-op, without
     * registering it. {@code GlobalOpenTelemetry.get()} would make the no-op the global for good,
     * and an application that registers its SDK after starting Weir would then fail.
     */
    public static OpenTelemetry global() {
        return GlobalOpenTelemetry.isSet() || autoconfigureEnabled(System.getProperties(), System.getenv())
                ? GlobalOpenTelemetry.get()
                : OpenTelemetry.noop();
    }

    static boolean autoconfigureEnabled(java.util.Properties properties, java.util.Map<String, String> env) {
        String value = properties.getProperty(
                "otel.java.global-autoconfigure.enabled", env.get("OTEL_JAVA_GLOBAL_AUTOCONFIGURE_ENABLED"));
        return Boolean.parseBoolean(value);
    }

    /** False when tracing is off: then no other method may be called. */
    public boolean on() {
        return tracer != null;
    }

    /** True if processor steps get spans of their own ({@link #step}). */
    public boolean stepSpans() {
        return stepSpans;
    }

    /**
     * Starts the span of {@code record} (kind CONSUMER, named {@code process <topic>}), child of the
     * context its headers carry (a new trace if none), and makes it current. The sampler sees the
     * span's name, kind and parent; the attributes are set only on a span it records, so that an
     * unsampled record costs no more than the sampler's decision and the context made current.
     *
     * @param completion true for the completion of an asynchronous step's call for the record
     */
    public RecordSpan process(ConsumerRecord<byte[], byte[]> record, boolean completion) {
        // From the root: nothing of the record before may leak into this one.
        Context carried = propagator.extract(Context.root(), record.headers(), HeaderCarriers.KAFKA);
        if (notPicked(carried)) {
            // Not one of the records that may start a trace: quiet, as an unsampled one, without the
            // SDK. A quiet trace is never written to, so records that carried nothing share one.
            return new RecordSpan(
                    Span.getInvalid(), (carried == Context.root() ? quietRoot : quiet(carried)).makeCurrent());
        }
        Span span = tracer.spanBuilder(processNames.of(record.topic()))
                .setParent(carried)
                .setSpanKind(SpanKind.CONSUMER)
                .startSpan();
        if (span.isRecording()) {
            span.setAttribute(SYSTEM, "kafka")
                    .setAttribute(DESTINATION, record.topic())
                    .setAttribute(PARTITION, Integer.toString(record.partition()))
                    .setAttribute(OFFSET, record.offset())
                    .setAttribute(GROUP, group)
                    .setAttribute(OPERATION_TYPE, "process")
                    .setAttribute(OPERATION_NAME, "process");
            if (completion) {
                span.setAttribute(ASYNC_COMPLETION, true);
            }
        }
        RecordTrace trace =
                new RecordTrace(startsHere(carried) && !span.getSpanContext().isSampled());
        trace.context = carried.with(span).with(RECORD, trace);
        return new RecordSpan(span, trace.context.makeCurrent());
    }

    /**
     * True if a trace would start at {@code carried} (it holds no span context) and
     * {@code tracing.root.ratio} does not pick it: quiet, without asking the SDK.
     */
    private boolean notPicked(Context carried) {
        return rootRatio < 1
                && startsHere(carried)
                && ThreadLocalRandom.current().nextDouble() >= rootRatio;
    }

    /** {@code carried} with no span and a quiet record trace. */
    private static Context quiet(Context carried) {
        RecordTrace trace = new RecordTrace(true);
        trace.context = carried.with(Span.getInvalid()).with(RECORD, trace);
        return trace.context;
    }

    /**
     * {@code headers} of the record being processed, as the runtime passes the record on: with the
     * context of its span in place of the one it came with, so that a result that keeps them (an
     * aggregation's, emitted at the commit) continues from this span. Unchanged for a quiet trace
     * ({@link RecordTrace#quiet}), which carried no context in and writes none out.
     */
    public Headers continued(Headers headers) {
        Context current = Context.current();
        RecordTrace trace = current.get(RECORD);
        if (trace == null) {
            return inject(current, headers, false);
        }
        if (trace.quiet) {
            return headers;
        }
        Headers out = inject(current, headers, false);
        trace.written(out, fields);
        return out;
    }

    /**
     * Starts a span (kind INTERNAL) for the processor step {@code node} and makes it current, if
     * the current record's span is sampled; else returns null and records nothing.
     */
    public RecordSpan step(String node) {
        if (!Span.current().getSpanContext().isSampled()) {
            return null;
        }
        Span span = tracer.spanBuilder(node).setSpanKind(SpanKind.INTERNAL).startSpan();
        return new RecordSpan(span, span.makeCurrent());
    }

    /**
     * The headers an output to {@code topic} is written with: {@code headers} (what the record
     * inherited) with the trace context replaced by that of the span that produced it.
     *
     * <ul>
     *   <li>Made while an input record is processed, carrying that record's trace or none (a
     *       {@code map}'s result, a join result made by this record, a window result fired by the
     *       watermark this record moved): the current span's context (the record's, or a step's).
     *   <li>Made while an input record is processed but carrying another trace (a record an
     *       as-of join buffered): a PRODUCER span, child of the current one, linked to the carried
     *       context.
     *   <li>Emitted outside any record's processing (aggregations and table updates forwarded at
     *       the commit, results of punctuations and of idle partitions' watermark): a PRODUCER
     *       span, child of the context the result carries, which for an aggregation is the span of
     *       the last input that updated it; a new trace if it carries none (a window result).
     * </ul>
     *
     * <p>A span of a quiet trace ({@link RecordTrace#quiet}), the record's or a PRODUCER span
     * under it or starting a trace, is written nowhere: the output carries no span context. A trace
     * that would start here is subject to {@code tracing.root.ratio} as one starting at a record.
     */
    public Headers produced(Headers headers, String topic) {
        Context current = Context.current();
        RecordTrace record = current.get(RECORD);
        if (record != null
                && current == record.context
                && (record.quiet ? RecordTrace.carriesNone(headers, fields) : record.carriesWritten(headers, fields))) {
            // The common case, an output of the record under its own span: its headers already
            // hold what it should carry (the context continued() wrote, or nothing for a quiet
            // trace), so nothing is parsed or written again.
            return headers;
        }
        Context carried = propagator.extract(Context.root(), headers, HeaderCarriers.WEIR);
        SpanContext carriedSpan = Span.fromContext(carried).getSpanContext();
        SpanContext currentSpan = Span.fromContext(current).getSpanContext();
        if (record != null
                && (!carriedSpan.isValid() || carriedSpan.getTraceId().equals(currentSpan.getTraceId()))) {
            return inject(current, headers, record.quiet);
        }
        if (record == null && notPicked(carried)) {
            return headers; // would start a trace outside any record: quiet, as at a record (tracing.root.ratio)
        }
        Context parent = record != null ? current : carried;
        Span span = tracer.spanBuilder(sendNames.of(topic))
                .setParent(parent)
                .setSpanKind(SpanKind.PRODUCER)
                .startSpan();
        if (span.isRecording()) {
            span.setAttribute(SYSTEM, "kafka")
                    .setAttribute(DESTINATION, topic)
                    .setAttribute(OPERATION_TYPE, "send")
                    .setAttribute(OPERATION_NAME, "send");
            if (record != null) {
                span.addLink(carriedSpan);
            }
        }
        boolean quiet = (record != null ? record.quiet : startsHere(carried))
                && !span.getSpanContext().isSampled();
        try {
            return inject(parent.with(span), headers, quiet);
        } finally {
            span.end();
        }
    }

    /**
     * {@code record} with the current span's context in place of the one it carries, for a dead
     * letter written while the record's span is current; {@code record} itself when tracing is
     * off, no span is current, or the record's trace is quiet ({@link RecordTrace#quiet}).
     */
    public ConsumerRecord<byte[], byte[]> withCurrentContext(ConsumerRecord<byte[], byte[]> record) {
        if (!on()) {
            return record;
        }
        Context current = Context.current();
        RecordTrace trace = current.get(RECORD);
        if (!Span.fromContext(current).getSpanContext().isValid() || (trace != null && trace.quiet)) {
            return record;
        }
        RecordHeaders headers = new RecordHeaders(record.headers().toArray());
        for (String f : fields) {
            headers.remove(f);
        }
        propagator.inject(current, headers, HeaderCarriers.KAFKA_SETTER);
        return new ConsumerRecord<>(
                record.topic(),
                record.partition(),
                record.offset(),
                record.timestamp(),
                record.timestampType(),
                record.serializedKeySize(),
                record.serializedValueSize(),
                record.key(),
                record.value(),
                headers,
                record.leaderEpoch(),
                record.deliveryCount());
    }

    /** {@code onto} with the trace context headers of {@code from} in place of its own. */
    public Headers copyContext(Headers from, Headers onto) {
        Headers out = onto;
        for (String f : fields) {
            byte[] value = from.lastValue(f);
            if (value != null || out.lastValue(f) != null) {
                out = out.without(f);
            }
            if (value != null) {
                out = out.with(f, value);
            }
        }
        return out;
    }

    /** True if {@code carried} continues no trace: the record's span starts one. */
    private static boolean startsHere(Context carried) {
        return !Span.fromContext(carried).getSpanContext().isValid();
    }

    /**
     * {@code headers} with the trace context fields of {@code context} in place of their own; for a
     * quiet trace, the fields of the context without its span (its baggage, say), since the span
     * is written nowhere.
     */
    private Headers inject(Context context, Headers headers, boolean quiet) {
        Headers without = headers;
        for (String f : fields) {
            if (without.lastValue(f) != null) {
                without = without.without(f);
            }
        }
        HeaderCarriers.WeirHeaders carrier = new HeaderCarriers.WeirHeaders(without);
        propagator.inject(quiet ? context.with(Span.getInvalid()) : context, carrier, HeaderCarriers.WEIR_SETTER);
        return carrier.headers;
    }
}
