package io.weir.internal.operator.window;

import io.weir.internal.task.InternalContext;
import io.weir.processor.Headers;
import io.weir.state.Windowed;
import java.util.HashMap;
import java.util.Map;

/**
 * While records are traced: the headers of the last record that updated each window not fired yet,
 * so that the window's results carry that record's trace context (see
 * {@link InternalContext#withTraceContext}). Kept in memory only, for the windows open on this
 * task: a window updated before a restart, a rebalance or an aborted transaction fires without it.
 *
 * <p>Owned by the task's thread.
 */
final class LastInputs<K> {

    private final InternalContext context;
    private final Map<Windowed<K>, Headers> byWindow = new HashMap<>();
    /** The headers of the record being aggregated; null between records. */
    private Headers current;

    LastInputs(InternalContext context) {
        this.context = context;
    }

    /** The record whose updates follow, or null once it is aggregated. */
    void processing(Headers headers) {
        current = headers;
    }

    /** The record being processed updated {@code window}, which has not fired. */
    void updated(Windowed<K> window) {
        if (current != null) {
            byWindow.put(window, current);
        }
    }

    /** {@code window} is gone (a session merged into another). */
    void forget(Windowed<K> window) {
        byWindow.remove(window);
    }

    /**
     * {@code pane} with the trace context of the last record that updated {@code window};
     * {@code last}: the window's final result, after which it is forgotten.
     */
    Headers onto(Windowed<K> window, Headers pane, boolean last) {
        Headers from = last ? byWindow.remove(window) : byWindow.get(window);
        return from == null ? pane : context.withTraceContext(pane, from);
    }
}
