package io.weir.internal.state;

import io.weir.processor.TaskId;
import io.weir.state.internal.BytesStore;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Open stores that standby copies on this instance gave up to the active tasks taking their place,
 * by task and store name. A warm-up that caught up hands its RocksDB stores over open, so the task
 * starts from them without closing and reopening them (a quarter of a second or more per store
 * when they hold millions of keys), and restores only the changelog tail the standby had not read.
 *
 * <p>Each store is {@link #take taken} once, by the task that opens it; whatever is not taken
 * (the task failed to open) must be {@link #closeRest closed}, or its directory stays locked.
 *
 * <p>Threads: filled by the state thread, then used by one stream thread.
 */
public final class StoreHandOver {

    private static final Logger log = LoggerFactory.getLogger(StoreHandOver.class);

    /** Nothing handed over. */
    public static final StoreHandOver NONE = new StoreHandOver(Map.of());

    private final Map<TaskId, Map<String, BytesStore>> stores;

    public StoreHandOver(Map<TaskId, Map<String, BytesStore>> stores) {
        this.stores = stores.isEmpty() ? Map.of() : new HashMap<>(stores);
    }

    /** The open stores of {@code task} by name (empty if none were handed over); the caller owns them now. */
    public Map<String, BytesStore> take(TaskId task) {
        if (stores.isEmpty()) {
            return Map.of();
        }
        Map<String, BytesStore> mine = stores.remove(task);
        return mine == null ? Map.of() : mine;
    }

    /** Closes the stores no task took. */
    public void closeRest() {
        if (stores.isEmpty()) {
            return;
        }
        for (Map.Entry<TaskId, Map<String, BytesStore>> e : stores.entrySet()) {
            for (BytesStore s : e.getValue().values()) {
                try {
                    s.close();
                } catch (RuntimeException failure) {
                    log.warn(
                            "closing store {} of task {}, handed over by its standby and not opened, failed: {}",
                            s.name(),
                            e.getKey(),
                            failure.toString());
                }
            }
        }
        stores.clear();
    }
}
