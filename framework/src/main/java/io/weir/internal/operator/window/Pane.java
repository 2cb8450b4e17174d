package io.weir.internal.operator.window;

import io.weir.processor.Headers;

/**
 * What a windowed result is, in its {@code weir.pane} header: which firing of the trigger (see
 * {@link io.weir.dsl.Emit}) produced it. {@link #RETRACT} marks the {@code null} value that
 * withdraws a session result already emitted, when a record merged that session into another.
 */
enum Pane {
    EARLY("early"),
    FINAL("final"),
    LATE("late"),
    UPDATE("update"),
    RETRACT("retract");

    static final String HEADER = "weir.pane";

    private final String label;
    /** Shared: headers are immutable. */
    private final Headers headers;

    Pane(String label) {
        this.label = label;
        this.headers = Headers.empty().with(HEADER, label);
    }

    String label() {
        return label;
    }

    Headers headers() {
        return headers;
    }
}
