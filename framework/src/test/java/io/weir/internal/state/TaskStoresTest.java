package io.weir.internal.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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
            Thread opener = new Thread(() -> opened.set(TaskStores.open(
                    List.of(spec),
                    new TaskId(0, 1),
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

    @Test
    void storesOfARecreatedChangelogAreWipedAndOldStoresWithoutIdsAreKept() {
        StoreSpec counts = new StoreSpec("counts", Serdes.strings(), Serdes.longs(), true, true, null);
        StoreSpec other = new StoreSpec("other", Serdes.strings(), Serdes.longs(), true, true, null);
        TaskId task = new TaskId(0, 1);
        Path taskDir = dir.resolve("0_1");
        java.util.function.Function<String, ChangelogTopicIds> ids = id -> id == null
                ? ChangelogTopicIds.UNKNOWN
                : ChangelogTopicIds.of(java.util.Map.of("app-counts-changelog", id, "app-other-changelog", "o"));
        try (RocksDbResources resources = RocksDbResources.create()) {
            java.util.function.Function<String, TaskStores> open = id -> TaskStores.open(
                    List.of(counts, other),
                    task,
                    taskDir,
                    new TaskStores.Options(
                            "app", resources, Duration.ofSeconds(10), 0, System::currentTimeMillis, ids.apply(id)));
            // Written before ids were recorded: no id, state kept and the current id recorded.
            TaskStores stores = open.apply(null);
            stores.all()
                    .forEach(s -> s.committed()
                            .apply(new io.weir.state.internal.WriteBatch(1).put(new byte[] {1}, new byte[] {2}), 7));
            stores.close();
            stores = open.apply("id-1");
            assertThat(stores.all())
                    .allSatisfy(s -> assertThat(s.committed().changelogOffset()).hasValue(7));
            assertThat(stores.all().get(0).committed().changelogTopicId()).hasValue("id-1");
            stores.close();
            assertThat(Checkpoint.read(taskDir)
                            .get(new org.apache.kafka.common.TopicPartition("app-counts-changelog", 1)))
                    .isEqualTo(new Checkpoint.Entry(7, "id-1"));
            // The same topic: kept.
            stores = open.apply("id-1");
            assertThat(stores.all().get(0).committed().get(new byte[] {1})).isEqualTo(new byte[] {2});
            stores.close();
            // Recreated: every store of the task is wiped, and follows the new topic from now on.
            stores = open.apply("id-2");
            assertThat(stores.all()).allSatisfy(s -> {
                assertThat(s.committed().changelogOffset()).isEmpty();
                assertThat(s.committed().get(new byte[] {1})).isNull();
            });
            assertThat(stores.all().get(0).committed().changelogTopicId()).hasValue("id-2");
            assertThat(stores.all().get(1).committed().changelogTopicId()).hasValue("o");
            stores.close();
        }
    }

    private static final StoreSpec COUNTS = new StoreSpec("counts", Serdes.strings(), Serdes.longs(), true, true, null);
    private static final TaskId TASK = new TaskId(0, 1);

    private static TaskStores.Options options(RocksDbResources resources) {
        return new TaskStores.Options("app", resources, Duration.ofSeconds(10), 0, System::currentTimeMillis);
    }

    @Test
    void storesHandedOverOpenAreUsedAsTheyAreAndTheOthersAreOpened() {
        StoreSpec buffer = new StoreSpec("buffer", Serdes.strings(), Serdes.longs(), false, true, null);
        Path taskDir = dir.resolve(TASK.toString());
        try (RocksDbResources resources = RocksDbResources.create()) {
            TaskStores.Options options = options(resources);
            // A standby's copy: the persistent, logged store only, written and not flushed.
            TaskStores standby = TaskStores.open(List.of(COUNTS), TASK, taskDir, options);
            standby.all()
                    .get(0)
                    .committed()
                    .apply(new io.weir.state.internal.WriteBatch(1).put(new byte[] {1}, new byte[] {2}), 7);
            java.util.Map<String, io.weir.state.internal.BytesStore> open = standby.handOver();

            // No wait for the lock the open store holds: it is the same store.
            TaskStores active = TaskStores.open(List.of(COUNTS, buffer), TASK, taskDir, options, Duration.ZERO, open);
            assertThat(active.all()).extracting(TaskStore::name).containsExactly("counts", "buffer");
            assertThat(active.all().get(0).committed()).isSameAs(open.get("counts"));
            assertThat(active.all().get(0).committed().get(new byte[] {1})).isEqualTo(new byte[] {2});
            assertThat(active.all().get(0).committed().changelogOffset()).hasValue(7);
            active.close();

            // Closed with the task that took it: the directory opens again.
            TaskStores again = TaskStores.open(List.of(COUNTS), TASK, taskDir, options, Duration.ZERO);
            assertThat(again.all().get(0).committed().get(new byte[] {1})).isEqualTo(new byte[] {2});
            again.close();
        }
    }

    @Test
    void aStoreHandedOverIsClosedWhenTheTaskCannotOpenItsOtherStores() {
        StoreSpec other = new StoreSpec("other", Serdes.strings(), Serdes.longs(), true, true, null);
        Path taskDir = dir.resolve(TASK.toString());
        try (RocksDbResources resources = RocksDbResources.create()) {
            TaskStores.Options options = options(resources);
            RocksDbStore held = RocksDbStore.open(taskDir.resolve("other"), "other", resources);
            java.util.Map<String, io.weir.state.internal.BytesStore> open =
                    TaskStores.open(List.of(COUNTS), TASK, taskDir, options).handOver();
            assertThatThrownBy(
                            () -> TaskStores.open(List.of(COUNTS, other), TASK, taskDir, options, Duration.ZERO, open))
                    .isInstanceOf(io.weir.errors.StoreLockedException.class);
            held.close();
            // Not left locked: the task opens both once the other store is free.
            TaskStores.open(List.of(COUNTS, other), TASK, taskDir, options, Duration.ZERO)
                    .close();
        }
    }
}
