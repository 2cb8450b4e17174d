package io.weir.internal.savepoint;

import io.weir.internal.config.InternalTopic;
import java.nio.charset.StandardCharsets;

/**
 * The two topics of an application's savepoints ({@link InternalTopic#CONTROL} and
 * {@link InternalTopic#SAVEPOINTS}) and the keys of their records.
 * <ul>
 *   <li>{@code <application.id>-control}: requests and progress ({@link ControlMessage}); one
 *       partition, deleted after a week (it matters only while a savepoint is taken).</li>
 *   <li>{@code <application.id>-savepoints}: compacted and never deleted by time or size, so a
 *       savepoint lasts until it is deleted; every record has a key of its own, and a deletion
 *       tombstones the data keys, which compaction then removes (a savepoint id is never reused
 *       while its savepoint is listed). Partition {@value #CATALOG_PARTITION} holds the
 *       manifests (key {@code <id>/manifest}, {@link Manifest}) and deletion marks
 *       ({@code <id>/deleted}), so listing reads only them; partition {@value #DATA_PARTITION}
 *       the data ({@link Chunks}, key {@code <id>/<task>/<store>/<seq>}).</li>
 * </ul>
 */
public final class SavepointTopics {

    public static final int CATALOG_PARTITION = 0;
    public static final int DATA_PARTITION = 1;

    /** Data records are about this big; the topic accepts four times that. */
    public static final int CHUNK_BYTES = InternalTopic.SAVEPOINT_RECORD_BYTES / 4;

    private SavepointTopics() {}

    public static byte[] dataKey(String id, String task, String store, int seq) {
        return (id + "/" + task + "/" + store + "/" + seq).getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] manifestKey(String id) {
        return (id + "/manifest").getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] deletedKey(String id) {
        return (id + "/deleted").getBytes(StandardCharsets.UTF_8);
    }

    /** A key of the savepoints topic, split: {@code [id, "manifest"]}, {@code [id, task, store, seq]}. */
    public static String[] parseKey(byte[] key) {
        return key == null ? new String[0] : new String(key, StandardCharsets.UTF_8).split("/");
    }
}
