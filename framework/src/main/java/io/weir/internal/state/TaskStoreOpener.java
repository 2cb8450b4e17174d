package io.weir.internal.state;

import io.weir.common.internal.Poll;
import io.weir.errors.StoreCorruptedException;
import io.weir.errors.StoreLockedException;
import io.weir.internal.topology.StoreSpec;
import io.weir.processor.TaskId;
import io.weir.state.internal.BytesStore;
import io.weir.state.memory.MemoryStore;
import io.weir.state.rocksdb.RocksDbResources;
import io.weir.state.rocksdb.RocksDbStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the stores of a task for {@link TaskStores#open(List, TaskId, Path, TaskStores.Options,
 * java.time.Duration, Map)}: takes those a standby handed over, opens the others (a corrupt local
 * store is wiped, to be rebuilt from its changelog; a store another task of this instance still
 * holds is waited for), and wipes them all if one follows a changelog since recreated.
 */
final class TaskStoreOpener {

    // TaskStores' logger: operators know these messages as the task stores'.
    private static final Logger log = LoggerFactory.getLogger(TaskStores.class);
    private static final java.time.Duration LOCK_RECHECK = java.time.Duration.ofMillis(100);

    private TaskStoreOpener() {}

    /** The task's stores by name, in {@code specs} order; on failure, every store opened or handed over is closed. */
    static Map<String, TaskStore> open(
            List<StoreSpec> specs,
            TaskId task,
            Path taskDir,
            TaskStores.Options options,
            java.time.Duration lockWait,
            Map<String, BytesStore> handedOver) {
        Map<String, BytesStore> given = new java.util.HashMap<>(handedOver);
        Map<String, TaskStore> opened = new LinkedHashMap<>();
        try {
            for (StoreSpec spec : specs) {
                TopicPartition changelog = spec.logged()
                        ? new TopicPartition(spec.changelogTopic(options.applicationId()), task.partition())
                        : null;
                BytesStore open = spec.persistent() ? given.remove(spec.name()) : null;
                opened.put(
                        spec.name(),
                        new TaskStore(
                                spec,
                                open != null ? open : openBytes(spec, taskDir, options.resources(), lockWait),
                                changelog,
                                options.readCacheBytes(),
                                options.clock()));
            }
        } catch (RuntimeException e) {
            opened.values().forEach(TaskStore::close);
            given.values().forEach(BytesStore::close);
            throw e;
        }
        // Not taken (a task whose stores are all in memory, the test driver's option): not left locked.
        given.values().forEach(BytesStore::close);
        try {
            followCurrentChangelogs(task, opened.values(), options.topicIds());
        } catch (RuntimeException e) {
            opened.values().forEach(TaskStore::close);
            throw e;
        }
        return opened;
    }

    /** Wipes the task's stores if one follows a recreated changelog; records the current ids. */
    private static void followCurrentChangelogs(
            TaskId task, java.util.Collection<TaskStore> stores, ChangelogTopicIds ids) {
        List<String> recreated = new ArrayList<>();
        for (TaskStore s : stores) {
            if (s.changelog() != null
                    && ids.recreated(
                            s.changelog().topic(),
                            s.committed().changelogTopicId().orElse(null))) {
                recreated.add(s.changelog().topic() + " (local state follows topic id "
                        + s.committed().changelogTopicId().orElseThrow() + ", the topic now has "
                        + ids.current(s.changelog().topic()).orElseThrow() + ")");
            }
        }
        if (!recreated.isEmpty()) {
            log.warn(
                    "task {}: changelog {} was deleted and recreated since this instance last ran the task (a reset);"
                            + " wiping the task's local stores and restoring them from the beginning",
                    task,
                    String.join(", ", recreated));
            for (TaskStore s : stores) {
                if (s.changelog() != null) {
                    s.committed().clear();
                }
            }
        }
        for (TaskStore s : stores) {
            if (s.changelog() == null) {
                continue;
            }
            String current = ids.current(s.changelog().topic()).orElse(null);
            if (current != null
                    && !current.equals(s.committed().changelogTopicId().orElse(null))) {
                s.committed().recordChangelogTopicId(current);
            }
        }
    }

    private static BytesStore openBytes(
            StoreSpec spec, Path taskDir, RocksDbResources resources, java.time.Duration lockWait) {
        if (!spec.persistent()) {
            return MemoryStore.create(spec.name());
        }
        Path dir = taskDir.resolve(spec.name());
        try {
            return openWhenUnlocked(dir, spec.name(), resources, lockWait);
        } catch (StoreCorruptedException e) {
            log.warn(
                    "store {} in {} cannot be opened ({}); wiping it to rebuild it from its changelog",
                    spec.name(),
                    dir,
                    e.getMessage());
            RocksDbStore.deleteRecursively(dir);
            return RocksDbStore.open(dir, spec.name(), resources);
        }
    }

    /**
     * Opens a RocksDB store, waiting while another open store still holds its directory: a task
     * whose partitions were lost by one thread of this instance can be assigned to another before
     * the first has closed it. Gives up after {@code lockWait}, or when the thread is interrupted.
     */
    private static BytesStore openWhenUnlocked(
            Path dir, String name, RocksDbResources resources, java.time.Duration lockWait) {
        try {
            // Nothing to wait on: the other holder closes the store on its own thread. Re-checks the lock.
            return Poll.retrying(
                    () -> RocksDbStore.open(dir, name, resources),
                    e -> {
                        if (!(e instanceof StoreLockedException)) {
                            return false;
                        }
                        log.info("store {} in {} is still held by another task; waiting for it to close", name, dir);
                        return true;
                    },
                    lockWait,
                    LOCK_RECHECK);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreLockedException(
                    "interrupted while waiting for store " + name + " in " + dir
                            + " to be closed by the task holding it",
                    e);
        }
    }
}
