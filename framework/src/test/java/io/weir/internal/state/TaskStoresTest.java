package io.weir.internal.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.internal.topology.StoreSpec;
import io.weir.processor.TaskId;
import io.weir.serde.Serdes;
import io.weir.state.rocksdb.RocksDbResources;
import io.weir.state.rocksdb.RocksDbStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskStoresTest {

    @TempDir
    Path dir;

    @Test
    void aStoreStillHeldByAnotherTaskIsOpenedOnceItIsReleased() throws Exception {
        StoreSpec spec = new StoreSpec("counts", Serdes.strings(), Serdes.longs(), true, true, null);
        try (RocksDbResources resources = RocksDbResources.create()) {
            RocksDbStore held = RocksDbStore.open(dir.resolve("0_1").resolve("counts"), "counts", resources);
            AtomicReference<TaskStores> opened = new AtomicReference<>();
            Thread opener = new Thread(() -> opened.set(TaskStores.open(List.of(spec), new TaskId(0, 1),
                    dir.resolve("0_1"),
                    new TaskStores.Options("app", resources, Duration.ofSeconds(10), 0, System::currentTimeMillis))));
            opener.start();
            // The opener waits for the lock (parked between checks) instead of failing or wiping.
            await().atMost(Duration.ofSeconds(30)).until(() -> opener.getState() == Thread.State.TIMED_WAITING);
            held.close();
            opener.join(Duration.ofSeconds(30).toMillis());
            assertThat(opened.get()).isNotNull();
            assertThat(opened.get().all()).extracting(TaskStore::name).containsExactly("counts");
            opened.get().close();
        }
    }
}
