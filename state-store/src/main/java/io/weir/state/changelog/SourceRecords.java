package io.weir.state.changelog;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * How a store is restored from a topic that is not a changelog of its own but the topic its rows
 * are read from (a table read from a compacted topic): only up to {@link #stopOffset()}, the
 * offset from which its task will process the topic again, and only the records processing
 * accepts, as the bytes processing writes.
 *
 * <p>Threads: {@link #entry} is called on the restoring thread.
 */
public interface SourceRecords {

    /**
     * The entry the store keeps for {@code record}: the canonical key and value bytes (a
     * {@code null} value deletes the key), or {@code null} when processing rejects the record (it
     * went to the dead-letter topic), so the restore skips it.
     */
    Entry entry(ConsumerRecord<byte[], byte[]> record);

    /** A store entry: its key bytes and its value bytes ({@code null}: delete). */
    record Entry(byte[] key, byte[] value) {}

    /**
     * A restore of a store from a source topic's partition that stops at {@code stopOffset}
     * (exclusive), the task's committed input offset, with {@code records} deciding what enters
     * the store.
     */
    record Bound(long stopOffset, SourceRecords records) {}
}
