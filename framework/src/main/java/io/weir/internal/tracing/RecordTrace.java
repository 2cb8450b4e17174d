package io.weir.internal.tracing;

import io.opentelemetry.context.Context;
import io.weir.processor.Headers;

/**
 * What the runtime knows of the trace of the input record being processed, kept in the context
 * made current with the record's span ({@link Tracing#process}), so that its outputs take their
 * context without parsing their headers again.
 *
 * <p>Owned by the thread that processes the record, for as long as its span is current.
 */
final class RecordTrace {

    /**
     * A trace that starts at this record and that the sampler dropped: its context is written
     * nowhere, since no span of it is recorded and nothing downstream could join one. 99% of the
     * records that carry no context at 1% sampling.
     */
    final boolean quiet;

    /** The context made current for the record: its span and this. */
    Context context;

    /**
     * The values of the propagator's fields that {@link Tracing#continued} wrote into the record's
     * headers (null for a field it did not write); null until it did. An output whose headers still
     * hold these very arrays carries the record's context already.
     */
    private byte[][] written;

    RecordTrace(boolean quiet) {
        this.quiet = quiet;
    }

    void written(Headers headers, String[] fields) {
        written = valuesOf(headers, fields);
    }

    /**
     * True if {@code headers} carry what was written into the record's headers, the same arrays,
     * not equal copies: compared by reference, without reading the text.
     */
    boolean carriesWritten(Headers headers, String[] fields) {
        if (written == null) {
            return false;
        }
        for (int i = 0; i < fields.length; i++) {
            if (headers.lastValue(fields[i]) != written[i]) {
                return false;
            }
        }
        return true;
    }

    /** True if {@code headers} have none of the propagator's fields. */
    static boolean carriesNone(Headers headers, String[] fields) {
        for (String f : fields) {
            if (headers.lastValue(f) != null) {
                return false;
            }
        }
        return true;
    }

    private static byte[][] valuesOf(Headers headers, String[] fields) {
        byte[][] values = new byte[fields.length][];
        for (int i = 0; i < fields.length; i++) {
            values[i] = headers.lastValue(fields[i]);
        }
        return values;
    }
}
