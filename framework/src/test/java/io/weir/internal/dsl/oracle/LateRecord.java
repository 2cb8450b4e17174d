package io.weir.internal.dsl.oracle;

/**
 * A record Weir wrote to the late-records topic, with what its {@code weir.late.*} and
 * {@code weir.source.*} headers say.
 *
 * @param operator    {@code weir.late.operator}: the store of the windowed aggregation
 * @param offset      {@code weir.source.offset}: the index of the input record
 * @param key         the record's key, unchanged
 * @param timestamp   the record's timestamp, unchanged
 * @param windowStart {@code weir.late.window.start}
 * @param windowEnd   {@code weir.late.window.end}
 * @param watermark   {@code weir.late.watermark}
 */
record LateRecord(
        String operator, int offset, String key, long timestamp, long windowStart, long windowEnd, long watermark) {

    @Override
    public String toString() {
        return operator + "#" + offset + " " + key + "@" + timestamp + " for [" + windowStart + "," + windowEnd
                + "] at watermark " + watermark;
    }
}
