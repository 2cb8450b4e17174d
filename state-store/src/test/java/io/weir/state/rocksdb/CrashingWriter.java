package io.weir.state.rocksdb;

import io.weir.state.internal.WriteBatch;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * A child process for {@link RocksDbStoreCrashTest}: applies batches to a store with a tiny memory
 * budget (so memtables flush while it writes), prints "ready" once several flushes must have
 * happened, and keeps writing until it is killed. Batch {@code i} writes key {@code k-i} and sets
 * {@code counter} to {@code i}, at changelog offset {@code i + 1}.
 */
final class CrashingWriter {

    static final int READY_AFTER = 30_000;
    private static final int MAX_BATCHES = 1_000_000;

    private CrashingWriter() {}

    static byte[] key(int i) {
        return String.format("k-%08d", i).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] counter() {
        return "counter".getBytes(StandardCharsets.UTF_8);
    }

    public static void main(String[] args) throws InterruptedException {
        RocksDbResources resources = RocksDbResources.create(RocksDbResources.Config.ofTotalBytes(8L << 20));
        RocksDbStore store = RocksDbStore.open(Path.of(args[0]), "crashing", resources);
        byte[] value = new byte[512];
        WriteBatch batch = new WriteBatch();
        for (int i = 0; i < MAX_BATCHES; i++) {
            batch.put(key(i), value);
            batch.put(counter(), Integer.toString(i).getBytes(StandardCharsets.UTF_8));
            store.apply(batch, i + 1L);
            batch.clear();
            if (i == READY_AFTER) {
                System.out.println("ready");
            }
        }
        System.out.println("done");
        new CountDownLatch(1).await(); // wait to be killed, never closing the store
    }
}
