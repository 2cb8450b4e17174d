package io.weir;

import io.weir.internal.config.WeirVersion;
import io.weir.internal.topology.TopologyDescription;
import io.weir.internal.topology.TopologyModel;
import io.weir.state.rocksdb.NativeLibrary;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.kafka.common.protocol.ApiKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads, on a daemon thread while the start checks the cluster, what the start needs later and a cold
 * JVM would otherwise load on its critical path (measured on a restart, {@code restart-1m}):
 * <ol>
 *   <li>Kafka's protocol messages: the first request of any client initializes every message class
 *       (a third of a second, which the admin client's first call waited for);</li>
 *   <li>Jackson's serializers of the topology description, by writing it once (the topology record's
 *       check compares descriptions as JSON);</li>
 *   <li>RocksDB's native library (a quarter of a second).</li>
 * </ol>
 * Order is the order the start needs them in. Nothing here contacts anything or keeps anything: the
 * JVM lets one thread initialize a class while others that need it wait, so the start's own threads
 * get the same classes, sooner. A failed step is logged at DEBUG and the start meets the same failure
 * where it always did, except RocksDB's: its loader may not let a second caller retry, so
 * {@link #awaitRocksDb()} hands the start the preload's own error. Gain is bounded by the cores: on
 * one core the work only moves.
 */
final class StartPreload {

    private static final Logger log = LoggerFactory.getLogger(StartPreload.class);

    private final CompletableFuture<Void> rocksDb = new CompletableFuture<>();

    private StartPreload() {
    }

    /** Starts the preload of what {@code model}'s start needs. */
    static StartPreload begin(TopologyModel model, String applicationId) {
        return begin(applicationId, () -> {
            ApiKeys.values();
            TopologyDescription.of(model, applicationId, WeirVersion.current()).toJson();
        }, NativeLibrary::load);
    }

    /** {@code classes} first (a failure only logged), then {@code rocksDb} (a failure kept for {@link #awaitRocksDb}). */
    static StartPreload begin(String applicationId, Runnable classes, Runnable rocksDb) {
        StartPreload preload = new StartPreload();
        Thread t = new Thread(() -> preload.run(applicationId, classes, rocksDb), applicationId + "-start-preload");
        t.setDaemon(true);
        t.start();
        return preload;
    }

    private void run(String applicationId, Runnable classes, Runnable loadRocksDb) {
        try {
            classes.run();
        } catch (RuntimeException | LinkageError e) {
            log.debug("{}: preloading the Kafka and JSON classes stopped early: {}", applicationId, e.toString());
        }
        try {
            loadRocksDb.run();
            rocksDb.complete(null);
        } catch (Throwable e) {
            rocksDb.completeExceptionally(e);
        }
    }

    /**
     * Waits until RocksDB's library is loaded; throws what loading it threw (an unchecked exception or
     * error), as the first store would have.
     */
    void awaitRocksDb() {
        try {
            rocksDb.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }
}
