package io.weir.internal.operator.table;

import io.weir.internal.state.VersionedStore;
import io.weir.internal.task.CommitAwareProcessor;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.ProcessorSupplier;
import io.weir.processor.Record;
import io.weir.serde.Serde;
import io.weir.state.KeyValueStore;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Keeps a versioned table: every record goes into the key's history ({@link VersionedStore}, in
 * the store {@code <store>-versions}) at its timestamp; a record at or after the key's newest
 * version is also the table's current value (the store {@code <store>}, which queries and joins
 * without a time read) and a change of it, forwarded once per key per commit interval as
 * {@code AggregateProcessor} does. An out-of-order record older than the key's newest version
 * changes the history only: no current value, no change forwarded (Kafka Streams' KIP-914). A record
 * older than the history retention behind the newest timestamp seen changes nothing. At each commit
 * a bounded sweep prunes versions of keys no longer written.
 */
public final class VersionedTableProcessor<K, V> implements Processor<K, V, K, Change<V>>, CommitAwareProcessor {

    /** How many history entries a commit's sweep looks at. */
    static final int SWEEP_ENTRIES = 1_000;

    private final String storeName;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;
    private final long historyRetentionMs;
    private final TableChildren children;
    private final Map<Object, Pending<K, V>> changed = new LinkedHashMap<>();
    private ProcessorContext<K, Change<V>> context;
    private KeyValueStore<K, V> current;
    private VersionedStore<K, V> history;

    private VersionedTableProcessor(
            String storeName, Serde<K> keySerde, Serde<V> valueSerde, long historyRetentionMs, TableChildren children) {
        this.storeName = storeName;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.historyRetentionMs = historyRetentionMs;
        this.children = children;
    }

    public static <K, V> ProcessorSupplier<K, V, K, Change<V>> supplier(
            String storeName, Serde<K> keySerde, Serde<V> valueSerde, long historyRetentionMs, TableChildren children) {
        return () -> new VersionedTableProcessor<>(storeName, keySerde, valueSerde, historyRetentionMs, children);
    }

    @Override
    public void init(ProcessorContext<K, Change<V>> context) {
        this.context = context;
        current = context.getStateStore(storeName);
        String historyStore = VersionedLookup.historyStoreOf(storeName);
        KeyValueStore<byte[], byte[]> bytes = context.getStateStore(historyStore);
        history = new VersionedStore<>(bytes, keySerde, valueSerde, historyStore, historyRetentionMs);
    }

    @Override
    public void process(Record<K, V> record) {
        K key = record.key();
        if (key == null) {
            throw new IllegalArgumentException(
                    "a record with a null key has no row in versioned table '" + storeName + "'");
        }
        if (history.put(key, record.value(), record.timestamp()) != VersionedStore.PutResult.LATEST) {
            return;
        }
        V old = current.get(key);
        current.put(key, record.value());
        Object id = key instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : key;
        Pending<K, V> pending = changed.get(id);
        changed.put(id, new Pending<>(pending == null ? old : pending.oldValue, record));
    }

    private record Pending<K, V>(V oldValue, Record<K, V> latest) {}

    @Override
    public void beforeCommit() {
        for (Pending<K, V> p : changed.values()) {
            if (p.oldValue != null || p.latest.value() != null) {
                children.forward(context, p.latest.withValue(new Change<>(p.oldValue, p.latest.value())));
            }
        }
        changed.clear();
        history.sweep(SWEEP_ENTRIES);
    }

    @Override
    public void afterAbort() {
        changed.clear();
        history.reload();
    }
}
