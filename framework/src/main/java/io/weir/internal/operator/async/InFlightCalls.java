package io.weir.internal.operator.async;

import io.weir.dsl.Async;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The calls an asynchronous step has taken and not yet released, and the order rule that decides
 * when a call may start and when a finished one may leave:
 * <ul>
 *   <li>{@link Async.Order#KEY}: one call per key at a time, in input order; a key's next call
 *       starts when the one before it is released;</li>
 *   <li>{@link Async.Order#PARTITION}: every call starts at once; results leave in input order;</li>
 *   <li>{@link Async.Order#NONE}: every call starts at once; results leave as they finish.</li>
 * </ul>
 * It also knows the smallest timestamp in flight, which holds the task's watermark.
 *
 * <p>Threading: the task's stream thread only.
 */
final class InFlightCalls<K, V> {

    private final Async.Order order;
    private final LinkedHashMap<Long, Call<K, V>> bySeq = new LinkedHashMap<>();
    /** KEY order: each key's calls, the running (or finished) one first. */
    private final Map<Object, ArrayDeque<Call<K, V>>> byKey = new HashMap<>();
    /** Timestamps in flight, with how many calls have each. */
    private final TreeMap<Long, Integer> timestamps = new TreeMap<>();

    InFlightCalls(Async.Order order) {
        this.order = order;
    }

    /**
     * Takes {@code call} (its seq larger than any taken before).
     *
     * @return true if it may start now; false if it waits for its key's turn
     */
    boolean add(Call<K, V> call) {
        bySeq.put(call.seq, call);
        timestamps.merge(call.record.timestamp(), 1, Integer::sum);
        if (order != Async.Order.KEY) {
            return true;
        }
        ArrayDeque<Call<K, V>> queue = byKey.computeIfAbsent(keyOf(call), k -> new ArrayDeque<>());
        queue.addLast(call);
        return queue.size() == 1;
    }

    /**
     * {@code finished} is done (its state says so): the calls that may leave the step now, in the
     * order they must leave it.
     */
    List<Call<K, V>> releasable(Call<K, V> finished) {
        if (order != Async.Order.PARTITION) {
            return List.of(finished);
        }
        List<Call<K, V>> out = new ArrayList<>();
        for (Call<K, V> c : bySeq.values()) {
            if (c.state != Call.State.DONE) {
                break;
            }
            out.add(c);
        }
        return out;
    }

    /**
     * Removes a released call.
     *
     * @return under KEY order the next call of its key, which may start now; else null
     */
    Call<K, V> remove(Call<K, V> call) {
        bySeq.remove(call.seq);
        timestamps.compute(call.record.timestamp(), (t, n) -> n == 1 ? null : n - 1);
        if (order != Async.Order.KEY) {
            return null;
        }
        Object key = keyOf(call);
        ArrayDeque<Call<K, V>> queue = byKey.get(key);
        queue.removeFirst();
        if (queue.isEmpty()) {
            byKey.remove(key);
            return null;
        }
        return queue.peekFirst();
    }

    /** True if {@code call} is one this step holds now (not abandoned by an abort). */
    boolean holds(Call<?, ?> call) {
        return bySeq.get(call.seq) == call;
    }

    int size() {
        return bySeq.size();
    }

    /** The smallest timestamp in flight; MAX_VALUE if none. */
    long oldestTimestamp() {
        return timestamps.isEmpty() ? Long.MAX_VALUE : timestamps.firstKey();
    }

    /** The calls, in input order. */
    Collection<Call<K, V>> calls() {
        return bySeq.values();
    }

    /** Forgets every call (they are abandoned); returns how many there were. */
    int clear() {
        int n = bySeq.size();
        bySeq.clear();
        byKey.clear();
        timestamps.clear();
        return n;
    }

    /** The key calls are ordered by; byte-array keys by content. */
    private static Object keyOf(Call<?, ?> call) {
        Object key = call.record.key();
        return key instanceof byte[] b ? new BytesKey(b) : key == null ? NullKey.INSTANCE : key;
    }

    private enum NullKey {
        INSTANCE
    }

    private record BytesKey(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof BytesKey other && java.util.Arrays.equals(bytes, other.bytes);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(bytes);
        }
    }

    @Override
    public String toString() {
        Iterator<Call<K, V>> it = bySeq.values().iterator();
        return order + " order, " + bySeq.size() + " in flight" + (it.hasNext() ? ", oldest " + it.next() : "");
    }
}
