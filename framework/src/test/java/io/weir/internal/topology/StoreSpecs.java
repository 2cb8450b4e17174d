package io.weir.internal.topology;

import io.weir.serde.Serdes;
import java.time.Duration;

/**
 * The store specs tests declare: persistent and logged, string keys and long values, so that a
 * test states only what it is about (the kind, the window size, the retention).
 */
public final class StoreSpecs {

    private StoreSpecs() {}

    /** A store of {@code kind} with these options, valid or not (the constructor judges). */
    public static StoreSpec of(String name, Duration ttl, StoreSpec.Kind kind, long windowSizeMs, Duration retention) {
        return new StoreSpec(name, Serdes.strings(), Serdes.longs(), true, true, ttl, kind, windowSizeMs, retention);
    }

    /** A window store of windows {@code sizeMs} long, kept for {@code retention} after their end. */
    public static StoreSpec window(String name, long sizeMs, Duration retention) {
        return of(name, null, StoreSpec.Kind.WINDOW, sizeMs, retention);
    }

    /** A session store whose sessions are kept for {@code retention} after their end. */
    public static StoreSpec session(String name, Duration retention) {
        return of(name, null, StoreSpec.Kind.SESSION, 0, retention);
    }
}
