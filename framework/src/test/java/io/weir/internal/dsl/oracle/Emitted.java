package io.weir.internal.dsl.oracle;

/**
 * A windowed result as either side emitted it: the key, the window ({@code [start, end)} for time
 * windows, {@code [start, end]} for sessions), the aggregate ({@code null} for a retraction or
 * tombstone) and the record's timestamp.
 */
record Emitted(String key, long start, long end, Long value, long timestamp) {

    /** The window, without value and timestamp: what a final result is keyed by. */
    Window window() {
        return new Window(key, start, end);
    }

    record Window(String key, long start, long end) {
        @Override
        public String toString() {
            return key + "[" + start + "," + end + "]";
        }
    }

    @Override
    public String toString() {
        return window() + "=" + value + "@" + timestamp;
    }
}
