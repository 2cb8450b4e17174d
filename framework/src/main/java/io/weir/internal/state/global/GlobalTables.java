package io.weir.internal.state.global;

import io.weir.errors.StoreCorruptedException;
import io.weir.internal.state.TypedReader;
import io.weir.internal.topology.GlobalTableSpec;
import io.weir.serde.Serde;
import io.weir.state.internal.BytesStore;
import io.weir.state.internal.WriteBatch;
import io.weir.state.memory.MemoryStore;
import io.weir.state.rocksdb.RocksDbResources;
import io.weir.state.rocksdb.RocksDbStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The global tables of an instance: each a store holding every partition of its topic, written by
 * one thread (the global thread, or the test driver's) and read by the tasks of every stream thread
 * through read-only views (a store takes one writer and concurrent readers). A running instance
 * keeps them on disk ({@link #onDisk}: RocksDB under {@code <instance dir>/global/<store>}, with a
 * {@link GlobalCheckpoint} of the positions reached, so a restart reads only what it has not seen);
 * the test driver in memory ({@link #inMemory}).
 *
 * <p>Each record replaces its key's row, a tombstone deletes it. Keys and values are read through
 * the table's serdes before they are stored, so that a malformed record is refused (to the
 * dead-letter topic) rather than stored for every join to fail on, and the key is stored in the
 * serde's own bytes, which the views' look-ups produce.
 */
public final class GlobalTables implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GlobalTables.class);

    /**
     * One table: its declaration, its store, the view tasks read, its checkpoint (none in memory),
     * the sequence its store's last flush kept when it was opened, and the sequence of its last batch.
     */
    private static final class Table {
        final GlobalTableSpec spec;
        final BytesStore store;
        final TypedReader<?, ?> view;
        final GlobalCheckpoint checkpoint;
        long durableAtOpen;
        long sequence;

        Table(GlobalTableSpec spec, BytesStore store, GlobalCheckpoint checkpoint) {
            this.spec = spec;
            this.store = store;
            this.view = view(spec, store);
            this.checkpoint = checkpoint;
            this.durableAtOpen = store.changelogOffset().orElse(0);
            this.sequence = durableAtOpen;
        }
    }

    private final Map<String, Table> byTopic = new LinkedHashMap<>();
    private final Map<String, Object> views = new LinkedHashMap<>();

    private GlobalTables(Collection<GlobalTableSpec> specs, Function<GlobalTableSpec, Table> open) {
        try {
            for (GlobalTableSpec spec : specs) {
                Table table = open.apply(spec);
                byTopic.put(spec.topic(), table);
                views.put(spec.storeName(), table.view);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Tables in memory, read in full at every start (the test driver's). */
    public static GlobalTables inMemory(Collection<GlobalTableSpec> specs) {
        return new GlobalTables(specs, spec -> new Table(spec, MemoryStore.create(spec.storeName()), null));
    }

    /**
     * Tables on disk under {@code dir}: RocksDB stores {@code <dir>/<store>}, and their checkpoints
     * {@code <dir>/<store>.positions}. A store that cannot be opened is wiped and read again in full.
     */
    public static GlobalTables onDisk(Collection<GlobalTableSpec> specs, Path dir, RocksDbResources resources) {
        return new GlobalTables(specs, spec -> {
            Path storeDir = dir.resolve(spec.storeName());
            RocksDbStore store;
            try {
                store = RocksDbStore.open(storeDir, spec.storeName(), resources);
            } catch (StoreCorruptedException e) {
                log.warn(
                        "global table {} in {} cannot be opened ({}); wiping it to read its topic {} again",
                        spec.storeName(),
                        storeDir,
                        e.getMessage(),
                        spec.topic());
                RocksDbStore.deleteRecursively(storeDir);
                store = RocksDbStore.open(storeDir, spec.storeName(), resources);
            }
            return new Table(spec, store, new GlobalCheckpoint(dir.resolve(spec.storeName() + ".positions")));
        });
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static TypedReader<?, ?> view(GlobalTableSpec spec, BytesStore store) {
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
        return table(topic).store.approximateCount();
    }

    /**
     * Where the table of {@code topic} (whose current id is {@code topicId}) resumes: the position
     * of each partition from its newest usable checkpoint, or empty to read the topic from the
     * beginning, in which case the table is emptied first. Call once, before the first record.
     */
    public Optional<Map<Integer, Long>> resumeAt(String topic, String topicId) {
        Table t = table(topic);
        Optional<Map<Integer, Long>> at = t.checkpoint == null || topicId == null
                ? Optional.empty()
                : t.checkpoint.resumeAt(t.durableAtOpen, identity(t.spec, topicId));
        if (at.isEmpty() && t.durableAtOpen > 0) {
            startOver(topic);
        }
        return at;
    }

    /** Empties the table of {@code topic} and forgets its checkpoints: it is read again from the beginning. */
    public void startOver(String topic) {
        Table t = table(topic);
        t.store.clear();
        if (t.checkpoint != null) {
            t.checkpoint.clear();
        }
        t.durableAtOpen = 0;
        t.sequence = 0;
    }

    /**
     * Records that every record of {@code topic} before {@code positions} (partition → next
     * offset) is applied, and starts flushing the store: a restart resumes there once the flush
     * is durable. Nothing for a table in memory.
     */
    public void checkpoint(String topic, String topicId, Map<Integer, Long> positions) {
        Table t = table(topic);
        if (t.checkpoint == null || topicId == null) {
            return;
        }
        t.checkpoint.write(new GlobalCheckpoint.Entry(t.sequence, identity(t.spec, topicId), positions));
        t.store.flushAsync();
    }

    /**
     * What a checkpoint must match to be resumed: the topic's id (a recreated topic has another)
     * and the table's key and value formats (the store holds bytes of the serdes that wrote them;
     * a new version with other serdes reads the topic again rather than misread them).
     */
    private static String identity(GlobalTableSpec spec, String topicId) {
        return topicId + "/" + java.net.URLEncoder.encode(spec.keySerde().formatId(), StandardCharsets.UTF_8) + "/"
                + java.net.URLEncoder.encode(spec.valueSerde().formatId(), StandardCharsets.UTF_8);
    }

    /** The store name of the global table that reads {@code topic}. */
    public String storeName(String topic) {
        return table(topic).spec.storeName();
    }

    private Table table(String topic) {
        Table t = byTopic.get(topic);
        if (t == null) {
            throw new IllegalArgumentException("no global table reads topic " + topic);
        }
        return t;
    }

    /**
     * Applies a record of a global table's topic, or returns why it cannot be a row (a null key, a
     * key or value its serdes cannot read) without applying it.
     *
     * @throws IllegalArgumentException if no global table reads the record's topic
     */
    public Optional<RuntimeException> apply(ConsumerRecord<byte[], byte[]> record) {
        Table table = table(record.topic());
        if (record.key() == null) {
            return Optional.of(new IllegalArgumentException(
                    "a record with a null key cannot be a row of global table '" + table.spec.storeName() + "'"));
        }
        byte[] key;
        byte[] value;
        try {
            key = canonical(table.spec.keySerde(), record.topic(), record.key());
            value = record.value() == null ? null : canonical(table.spec.valueSerde(), record.topic(), record.value());
        } catch (RuntimeException e) {
            return Optional.of(e);
        }
        WriteBatch batch = new WriteBatch(1);
        if (value == null) {
            batch.delete(key);
        } else {
            batch.put(key, value);
        }
        table.store.apply(batch, ++table.sequence);
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
        byTopic.values().forEach(t -> t.store.close());
    }
}
