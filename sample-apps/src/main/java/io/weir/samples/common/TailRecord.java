package io.weir.samples.common;

import io.weir.processor.Headers;

/**
 * A record read by a {@link CommittedTail}: where it is and what it holds, deserialized.
 *
 * @param partition the partition of the topic
 * @param offset    its offset in the partition
 * @param key       the deserialized key ({@code null} if the record had none)
 * @param value     the deserialized value ({@code null} for a tombstone, or a retracted window)
 * @param timestamp the record's Kafka timestamp
 * @param headers   its headers ({@code weir.pane} on windowed results)
 */
public record TailRecord<K, V>(int partition, long offset, K key, V value, long timestamp, Headers headers) {

    /** The header Weir puts on every windowed result: {@code early}, {@code final}, {@code late} or {@code update}. */
    public static final String PANE = "weir.pane";

    /** The last header {@code name} as UTF-8 text, or null if the record has none. */
    public String header(String name) {
        return headers.lastString(name);
    }

    /** Which firing of its window's trigger emitted this record ({@link #PANE}), or null. */
    public String pane() {
        return header(PANE);
    }
}
