package io.weir.internal.state;

import io.weir.common.KeyValue;
import io.weir.state.KeyValueIterator;
import io.weir.state.internal.BytesIterator;
import java.util.NoSuchElementException;

/**
 * A typed iterator over a bytes iterator whose entries are decoded one step ahead, and skipped
 * when the decoder returns {@code null} (a scan filtered by key or time). Closing it closes the
 * bytes iterator; using it afterwards throws {@link IllegalStateException}.
 */
final class DecodingIterator<K, V> implements KeyValueIterator<K, V> {

    /** Decodes a store entry into a typed one, or returns {@code null} to skip it. */
    @FunctionalInterface
    interface Decoder<K, V> {
        KeyValue<K, V> decode(byte[] key, byte[] value);
    }

    private final BytesIterator source;
    private final Decoder<K, V> decoder;
    private KeyValue<K, V> next;
    private boolean closed;

    DecodingIterator(BytesIterator source, Decoder<K, V> decoder) {
        this.source = source;
        this.decoder = decoder;
    }

    @Override
    public boolean hasNext() {
        if (closed) {
            throw new IllegalStateException("iterator closed");
        }
        while (next == null && source.hasNext()) {
            KeyValue<byte[], byte[]> e = source.next();
            next = decoder.decode(e.key(), e.value());
        }
        return next != null;
    }

    @Override
    public KeyValue<K, V> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        KeyValue<K, V> e = next;
        next = null;
        return e;
    }

    @Override
    public K peekNextKey() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return next.key();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            next = null;
            source.close();
        }
    }
}
