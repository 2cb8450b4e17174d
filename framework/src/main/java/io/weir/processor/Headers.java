package io.weir.processor;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Immutable record headers. Changing headers gives a new instance; the one a record carries is
 * never modified, so records can be forwarded to several children safely.
 *
 * <p>Header values are shared, not copied: do not modify the byte arrays returned.
 */
public final class Headers {

    private static final Header[] NONE = new Header[0];
    private static final Headers EMPTY = new Headers(NONE);

    private final Header[] headers;

    private Headers(Header[] headers) {
        this.headers = headers;
    }

    public static Headers empty() {
        return EMPTY;
    }

    /** Takes a snapshot of Kafka's (mutable) headers. */
    public static Headers of(org.apache.kafka.common.header.Headers kafkaHeaders) {
        Header[] array = kafkaHeaders.toArray();
        return array.length == 0 ? EMPTY : new Headers(array);
    }

    /** The value of the last header with this key, or {@code null}. */
    public byte[] lastValue(String key) {
        for (int i = headers.length - 1; i >= 0; i--) {
            if (headers[i].key().equals(key)) {
                return headers[i].value();
            }
        }
        return null;
    }

    /** The value of the last header with this key as UTF-8 text, or {@code null}. */
    public String lastString(String key) {
        byte[] v = lastValue(key);
        return v == null ? null : new String(v, StandardCharsets.UTF_8);
    }

    /** These headers plus one more (headers may repeat a key; the last one wins in lookups). */
    public Headers with(String key, byte[] value) {
        Objects.requireNonNull(key, "key");
        Header[] copy = Arrays.copyOf(headers, headers.length + 1);
        copy[headers.length] = new RecordHeader(key, value);
        return new Headers(copy);
    }

    /** These headers plus one more with a UTF-8 text value. */
    public Headers with(String key, String value) {
        return with(key, value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    /** These headers without any header named {@code key}. */
    public Headers without(String key) {
        return new Headers(
                Arrays.stream(headers).filter(h -> !h.key().equals(key)).toArray(Header[]::new));
    }

    public int size() {
        return headers.length;
    }

    public boolean isEmpty() {
        return headers.length == 0;
    }

    /** The headers in order, as Kafka's type, for producers; the array is a copy. */
    public Header[] toArray() {
        return headers.length == 0 ? NONE : headers.clone();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Headers[");
        for (int i = 0; i < headers.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(headers[i].key())
                    .append('=')
                    .append(headers[i].value() == null ? "null" : headers[i].value().length + "B");
        }
        return sb.append(']').toString();
    }
}
