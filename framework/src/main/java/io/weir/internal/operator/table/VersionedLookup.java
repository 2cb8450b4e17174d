package io.weir.internal.operator.table;

import io.weir.internal.state.VersionedStore;
import io.weir.processor.ProcessorContext;
import io.weir.serde.Serde;
import io.weir.state.KeyValueStore;
import java.util.List;
import java.util.function.BiFunction;

/**
 * How a join reads a versioned table's value of a key <em>as of a time</em>: from the history store
 * of the table it derives from, through the {@code filter}s and {@code mapValues} between them (as
 * {@link TableLookup} does for current values). The joining processor must be connected to
 * {@link #stores()}.
 */
public interface VersionedLookup<K, V> {

    /** The stores a reader reads. */
    List<String> stores();

    /** The history store's name, for messages. */
    String historyStore();

    /** How far behind its newest timestamp the table answers exactly, in milliseconds. */
    long historyRetentionMs();

    /** A reader for one processor instance, over the stores of its task. */
    AsOf<K, V> open(ProcessorContext<?, ?> context);

    /** Reads a key's value valid at a time; {@code null} if none (or older than the retention). */
    @FunctionalInterface
    interface AsOf<K, V> {
        V get(K key, long asOf);
    }

    /** The name of the history store of the versioned table kept in {@code store}. */
    static String historyStoreOf(String store) {
        return store + "-versions";
    }

    /** The history kept in the bytes store {@code historyStore}. */
    static <K, V> VersionedLookup<K, V> history(
            String historyStore, Serde<K> keySerde, Serde<V> valueSerde, long historyRetentionMs) {
        return new VersionedLookup<>() {
            @Override
            public List<String> stores() {
                return List.of(historyStore);
            }

            @Override
            public String historyStore() {
                return historyStore;
            }

            @Override
            public long historyRetentionMs() {
                return historyRetentionMs;
            }

            @Override
            public AsOf<K, V> open(ProcessorContext<?, ?> context) {
                KeyValueStore<byte[], byte[]> bytes = context.getStateStore(historyStore);
                VersionedStore<K, V> store =
                        new VersionedStore<>(bytes, keySerde, valueSerde, historyStore, historyRetentionMs);
                return store::get;
            }
        };
    }

    /** This table's values through {@code view}, which is not called for an absent value. */
    default <VR> VersionedLookup<K, VR> through(BiFunction<? super K, ? super V, ? extends VR> view) {
        VersionedLookup<K, V> parent = this;
        return new VersionedLookup<>() {
            @Override
            public List<String> stores() {
                return parent.stores();
            }

            @Override
            public String historyStore() {
                return parent.historyStore();
            }

            @Override
            public long historyRetentionMs() {
                return parent.historyRetentionMs();
            }

            @Override
            public AsOf<K, VR> open(ProcessorContext<?, ?> context) {
                AsOf<K, V> reader = parent.open(context);
                return (key, asOf) -> {
                    V value = reader.get(key, asOf);
                    return value == null ? null : view.apply(key, value);
                };
            }
        };
    }
}
