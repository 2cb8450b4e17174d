package io.weir.internal.state;

import io.weir.common.KeyValue;
import io.weir.errors.StoreClosedException;
import io.weir.state.internal.ByteKeys;
import io.weir.state.internal.BytesIterator;
import io.weir.state.internal.BytesReader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Reads one store across the tasks of this instance: a key lives in exactly one task's
 * partition, so {@code get} takes the first hit, and scans merge the tasks' sorted iterators into
 * one sorted iterator. A task's store that closes while it is read (its task moved away) is
 * skipped.
 */
final class UnionReader implements BytesReader {

    private final Supplier<List<BytesReader>> readers;

    UnionReader(Supplier<List<BytesReader>> readers) {
        this.readers = readers;
    }

    @Override
    public byte[] get(byte[] key) {
        for (BytesReader r : readers.get()) {
            try {
                byte[] v = r.get(key);
                if (v != null) {
                    return v;
                }
            } catch (StoreClosedException moved) {
                // the task left this instance while we looked
            }
        }
        return null;
    }

    @Override
    public BytesIterator range(byte[] from, byte[] to, boolean reverse) {
        return merge(r -> r.range(from, to, reverse), reverse);
    }

    @Override
    public BytesIterator prefix(byte[] prefix) {
        return merge(r -> r.prefix(prefix), false);
    }

    @Override
    public long approximateCount() {
        long sum = 0;
        for (BytesReader r : readers.get()) {
            try {
                sum += r.approximateCount();
            } catch (StoreClosedException moved) {
                // skipped
            }
        }
        return sum;
    }

    private BytesIterator merge(Function<BytesReader, BytesIterator> open, boolean reverse) {
        List<BytesIterator> its = new ArrayList<>();
        for (BytesReader r : readers.get()) {
            try {
                its.add(open.apply(r));
            } catch (StoreClosedException moved) {
                // skipped
            }
        }
        Comparator<byte[]> order = reverse ? ByteKeys.ORDER.reversed() : ByteKeys.ORDER;
        return new Merged(its, order);
    }

    /** A k-way merge of sorted iterators with disjoint keys. */
    private static final class Merged implements BytesIterator {
        private final List<BytesIterator> all;
        private final PriorityQueue<BytesIterator> heads;
        private boolean closed;

        Merged(List<BytesIterator> its, Comparator<byte[]> order) {
            this.all = its;
            this.heads = new PriorityQueue<>(
                    Math.max(1, its.size()), (a, b) -> order.compare(a.peekNextKey(), b.peekNextKey()));
            for (BytesIterator it : its) {
                if (it.hasNext()) {
                    heads.add(it);
                }
            }
        }

        @Override
        public boolean hasNext() {
            checkOpen();
            return !heads.isEmpty();
        }

        @Override
        public KeyValue<byte[], byte[]> next() {
            checkOpen();
            BytesIterator it = heads.poll();
            if (it == null) {
                throw new NoSuchElementException();
            }
            KeyValue<byte[], byte[]> e = it.next();
            if (it.hasNext()) {
                heads.add(it);
            }
            return e;
        }

        @Override
        public byte[] peekNextKey() {
            checkOpen();
            BytesIterator it = heads.peek();
            if (it == null) {
                throw new NoSuchElementException();
            }
            return it.peekNextKey();
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                all.forEach(BytesIterator::close);
            }
        }

        private void checkOpen() {
            if (closed) {
                throw new IllegalStateException("iterator closed");
            }
        }
    }
}
