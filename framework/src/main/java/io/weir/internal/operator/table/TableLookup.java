package io.weir.internal.operator.table;

import io.weir.processor.ProcessorContext;
import io.weir.state.ReadOnlyKeyValueStore;
import java.util.List;
import java.util.function.BiFunction;

/**
 * How a join reads a table's current value of a key: from the store that holds the table it
 * derives from, through the {@code filter}s and {@code mapValues} between them (a derived table
 * has no store of its own; it is computed on read, as Kafka Streams' value getters do). The
 * joining processor must be connected to {@link #stores()}, which puts it in the task of the
 * table's store.
 */
public interface TableLookup<K, V> {

    /** The stores a reader reads. */
    List<String> stores();

    /** A reader for one processor instance, over the stores of its task. */
    Reader<K, V> open(ProcessorContext<?, ?> context);

    /** Reads a key's current value; {@code null} if the table has none. */
    @FunctionalInterface
    interface Reader<K, V> {
        V get(K key);
    }

    /** The values of the key-value store {@code store}. */
    static <K, V> TableLookup<K, V> store(String store) {
        return new TableLookup<>() {
            @Override
            public List<String> stores() {
                return List.of(store);
            }

            @Override
            public Reader<K, V> open(ProcessorContext<?, ?> context) {
                ReadOnlyKeyValueStore<K, V> kv = context.getStateStore(store);
                return kv::get;
            }
        };
    }

    /**
     * This table's values through {@code view} (a filter returns {@code null} for a value it
     * drops; a mapper maps), which is not called for an absent value.
     */
    default <VR> TableLookup<K, VR> through(BiFunction<? super K, ? super V, ? extends VR> view) {
        TableLookup<K, V> parent = this;
        return new TableLookup<>() {
            @Override
            public List<String> stores() {
                return parent.stores();
            }

            @Override
            public Reader<K, VR> open(ProcessorContext<?, ?> context) {
                Reader<K, V> reader = parent.open(context);
                return key -> {
                    V value = reader.get(key);
                    return value == null ? null : view.apply(key, value);
                };
            }
        };
    }
}
