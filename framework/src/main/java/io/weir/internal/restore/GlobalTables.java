package io.weir.internal.restore;

import io.weir.internal.state.TypedReader;
import io.weir.internal.topology.GlobalTableSpec;
import io.weir.serde.Serde;
import io.weir.state.internal.WriteBatch;
import io.weir.state.memory.MemoryStore;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The global tables of an instance: each an in-memory store holding every partition of its topic,
 * written by one thread (the global thread, or the test driver's) and read by the tasks of every
 * stream thread through read-only views (the store takes one writer and concurrent readers).
 *
 * <p>Each record replaces its key's row, a tombstone deletes it. Keys and values are read through
 * the table's serdes before they are stored, so that a malformed record is refused (to the
 * dead-letter topic) rather than stored for every join to fail on, and the key is stored in the
 * serde's own bytes, which the views' look-ups produce.
 */
public final class GlobalTables implements AutoCloseable {

    /** One table: its declaration, its store and the view tasks read. */
    private record Table(GlobalTableSpec spec, MemoryStore store, TypedReader<?, ?> view) {
    }

    private final Map<String, Table> byTopic = new LinkedHashMap<>();
    private final Map<String, Object> views = new LinkedHashMap<>();

    public GlobalTables(Collection<GlobalTableSpec> specs) {
        for (GlobalTableSpec spec : specs) {
            MemoryStore store = MemoryStore.create(spec.storeName());
            TypedReader<?, ?> view = view(spec, store);
            byTopic.put(spec.topic(), new Table(spec, store, view));
            views.put(spec.storeName(), view);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static TypedReader<?, ?> view(GlobalTableSpec spec, MemoryStore store) {
        return new TypedReader(spec.storeName(), spec.topic(), store, spec.keySerde(), spec.valueSerde());
    }

    /** The read-only view of each table by store name ({@code ReadOnlyKeyValueStore}). */
    public Map<String, Object> views() {
        return java.util.Collections.unmodifiableMap(views);
    }

    public Set<String> topics() {
        return byTopic.keySet();
    }

    public boolean isEmpty() {
        return byTopic.isEmpty();
    }

    /** The number of rows of the table kept from {@code topic}. */
    public long rows(String topic) {
        return byTopic.get(topic).store().approximateCount();
    }

    /**
     * Applies a record of a global table's topic, or returns why it cannot be a row (a null key, a
     * key or value its serdes cannot read) without applying it.
     *
     * @throws IllegalArgumentException if no global table reads the record's topic
     */
    public Optional<RuntimeException> apply(ConsumerRecord<byte[], byte[]> record) {
        Table table = byTopic.get(record.topic());
        if (table == null) {
            throw new IllegalArgumentException("no global table reads topic " + record.topic());
        }
        if (record.key() == null) {
            return Optional.of(new IllegalArgumentException("a record with a null key cannot be a row of global table '"
                    + table.spec().storeName() + "'"));
        }
        byte[] key;
        byte[] value;
        try {
            key = canonical(table.spec().keySerde(), record.topic(), record.key());
            value = record.value() == null ? null : canonical(table.spec().valueSerde(), record.topic(), record.value());
        } catch (RuntimeException e) {
            return Optional.of(e);
        }
        WriteBatch batch = new WriteBatch(1);
        if (value == null) {
            batch.delete(key);
        } else {
            batch.put(key, value);
        }
        table.store().apply(batch, Math.max(0, record.offset() + 1));
        return Optional.empty();
    }

    /** The bytes through the serde and back: refuses what it cannot read, and stores what look-ups produce. */
    @SuppressWarnings("unchecked")
    private static byte[] canonical(Serde<?> serde, String topic, byte[] bytes) {
        Object typed = serde.deserialize(topic, bytes);
        if (typed == null) {
            throw new IllegalArgumentException("the serde read " + bytes.length + " bytes as null");
        }
        return ((Serde<Object>) serde).serialize(topic, typed);
    }

    @Override
    public void close() {
        byTopic.values().forEach(t -> t.store().close());
    }
}
