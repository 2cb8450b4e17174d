package io.weir.processor;

import io.weir.serde.Serde;
import java.time.Duration;

/**
 * Entry point to declare state stores (key-value, window, session) for the processor API:
 * {@code Stores.keyValueStore("counts", Serdes.strings(), Serdes.longs())}, then
 * {@code builder.addStateStore(store, "my-processor")} and, in the processor,
 * {@code context.getStateStore("counts")}.
 */
public final class Stores {

    private Stores() {}

    public static <K, V> KeyValueStoreBuilder<K, V> keyValueStore(String name, Serde<K> keySerde, Serde<V> valueSerde) {
        return KeyValueStoreBuilder.of(name, keySerde, valueSerde);
    }

    /**
     * A window store: values per key and fixed-size window ({@code windowSize}, positive), each
     * window kept for {@code retention} (not negative) of event time after its end.
     *
     * @throws IllegalArgumentException if a duration is out of range; the message names the store
     */
    public static <K, V> WindowStoreBuilder<K, V> windowStore(
            String name, Serde<K> keySerde, Serde<V> valueSerde, Duration windowSize, Duration retention) {
        return WindowStoreBuilder.of(name, keySerde, valueSerde, windowSize, retention);
    }

    /**
     * A session store: values per key and session, each session kept for {@code retention} (not
     * negative) of event time after its last record.
     *
     * @throws IllegalArgumentException if the retention is negative; the message names the store
     */
    public static <K, V> SessionStoreBuilder<K, V> sessionStore(
            String name, Serde<K> keySerde, Serde<V> valueSerde, Duration retention) {
        return SessionStoreBuilder.of(name, keySerde, valueSerde, retention);
    }
}
