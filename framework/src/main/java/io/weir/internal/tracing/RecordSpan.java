package io.weir.internal.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;

/**
 * The span of one input record ({@link Tracing#process}) or of one of its processor steps
 * ({@link Tracing#step}), current on the stream thread until {@link #end()}: what is produced
 * meanwhile is its child. Ended on the thread that started it, scopes closed in the order they
 * were opened.
 */
public final class RecordSpan {

    private final Span span;
    private final Scope scope;

    RecordSpan(Span span, Scope scope) {
        this.span = span;
        this.scope = scope;
    }

    /** The record failed (it is dead-lettered, replayed, or stops the instance). */
    public void failed(Throwable error) {
        span.recordException(error);
        span.setStatus(StatusCode.ERROR, String.valueOf(error.getMessage()));
    }

    public void end() {
        scope.close();
        span.end();
    }
}
