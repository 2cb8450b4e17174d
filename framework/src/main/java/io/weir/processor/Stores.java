package io.weir.processor;

import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serde;

/**
 * Entry point to declare state stores for the processor API:
 * {@code Stores.keyValueStore("counts", Serdes.strings(), Serdes.longs())}, then
 * {@code builder.addStateStore(store, "my-processor")} and, in the processor,
 * {@code context.getStateStore("counts")}.
 */
public final class Stores {

    private Stores() {
    }

    public static <K, V> KeyValueStoreBuilder<K, V> keyValueStore(String name, Serde<K> keySerde, Serde<V> valueSerde) {
        return KeyValueStoreBuilder.of(name, keySerde, valueSerde);
    }

    /** Internal, for {@code TopologyBuilder} (another package): the store's description. */
    public static StoreSpec specOf(KeyValueStoreBuilder<?, ?> builder) {
        return builder.spec();
    }
}
