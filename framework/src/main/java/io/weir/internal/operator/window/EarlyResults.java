package io.weir.internal.operator.window;

import io.weir.state.Windowed;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bookkeeping of early results ({@link io.weir.dsl.Emit#early} and
 * {@link io.weir.dsl.Emit#earlyEvery}) for the windows that have not fired yet: per window, the
 * records since its last early result and whether it had one; for the interval trigger, the
 * windows changed since the last interval.
 *
 * <p>In memory only, so best effort, as documented: a restart or an aborted transaction starts the
 * counts again ({@link #clear()}), and an early result that was emitted before it is forgotten is
 * not retracted if its session later merges. An entry goes when its window fires or merges away.
 * Owned by the task's thread.
 */
final class EarlyResults<K> {

    /** One window's state. */
    static final class State<K> {
        final Windowed<K> window;
        long records;
        boolean emitted;

        State(Windowed<K> window) {
            this.window = window;
        }
    }

    /** Records between early results; 0 for the interval trigger. */
    private final long everyRecords;

    private final Map<Object, State<K>> open = new HashMap<>();
    /** Windows changed since the last interval, in the order they first changed (interval trigger only). */
    private final Map<Object, State<K>> changed = new LinkedHashMap<>();

    EarlyResults(long everyRecords) {
        this.everyRecords = everyRecords;
    }

    /**
     * A record (or, for {@code records > 1}, merged sessions holding that many records since their
     * last early result) changed {@code window}. True if its early result is due now (count
     * trigger); the caller emits it.
     */
    boolean changed(Windowed<K> window, long records) {
        Object id = id(window);
        State<K> s = open.computeIfAbsent(id, k -> new State<>(window));
        if (everyRecords == 0) {
            changed.putIfAbsent(id, s);
            return false;
        }
        s.records += records;
        if (s.records < everyRecords) {
            return false;
        }
        s.records = 0;
        s.emitted = true;
        return true;
    }

    /** The windows changed since the last call (interval trigger), now counted as emitted. */
    List<Windowed<K>> drainChanged() {
        List<Windowed<K>> due = new ArrayList<>(changed.size());
        for (State<K> s : changed.values()) {
            s.emitted = true;
            due.add(s.window);
        }
        changed.clear();
        return due;
    }

    /** Forgets {@code window} (it fired or merged away); its state, or null if it had none. */
    State<K> remove(Windowed<K> window) {
        Object id = id(window);
        changed.remove(id);
        return open.remove(id);
    }

    void clear() {
        open.clear();
        changed.clear();
    }

    int size() {
        return open.size();
    }

    /** A window compared by content, also for byte[] keys (whose equals is identity). */
    private static Object id(Windowed<?> w) {
        return w.key() instanceof byte[] bytes ? new BytesWindow(ByteBuffer.wrap(bytes), w.start(), w.end()) : w;
    }

    private record BytesWindow(ByteBuffer key, long start, long end) {}
}
