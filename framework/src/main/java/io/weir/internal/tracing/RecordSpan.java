package io.weir.internal.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;

/**
 * The span of one input record, current on the stream thread from {@link Tracing#process} until
 * {@link #end()}: what the record's processing produces is its child. Ended on the thread that
 * started it, scopes closed in the order they were opened.
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
