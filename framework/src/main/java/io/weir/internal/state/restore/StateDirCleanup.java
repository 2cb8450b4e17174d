package io.weir.internal.state.restore;

import io.weir.processor.TaskId;
import io.weir.state.rocksdb.RocksDbStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the directories of tasks neither active nor standby here and unused for
 * {@code state.cleanup.delay.ms}, looking every {@link #CHECK} at most. A task was last used when it
 * last wrote its checkpoint (on every flush and close), else when its directory last changed.
 *
 * <p>Threads: the state thread only, so a clean-up cannot race with a stream thread opening the
 * task: {@code InstanceTaskRegistry.activating} marks the task active and then waits for the state
 * thread ({@code StateThread.release}) before the stores open.
 */
public final class StateDirCleanup {

    private static final Logger log = LoggerFactory.getLogger(StateDirCleanup.class);
    static final Duration CHECK = Duration.ofSeconds(30);

    private final Path instanceDir;
    private final Duration delay;
    private final Predicate<TaskId> inUse;
    private final LongSupplier wallClockMs;
    private long lastCheckNanos = System.nanoTime();

    /**
     * @param delay       {@code state.cleanup.delay.ms}
     * @param inUse       whether a task is active or standby here (its directory stays)
     * @param wallClockMs the time files are stamped with
     */
    public StateDirCleanup(Path instanceDir, Duration delay, Predicate<TaskId> inUse, LongSupplier wallClockMs) {
        this.instanceDir = instanceDir;
        this.delay = delay;
        this.inUse = inUse;
        this.wallClockMs = wallClockMs;
    }

    /** Cleans up if the last look was {@link #CHECK} ago or more. */
    public void maybeCleanUp() {
        long now = System.nanoTime();
        if (now - lastCheckNanos < CHECK.toNanos()) {
            return;
        }
        lastCheckNanos = now;
        cleanUp();
    }

    /** Deletes the directories of the tasks not in use and unused for the delay. */
    void cleanUp() {
        long cutoff = wallClockMs.getAsLong() - delay.toMillis();
        try (Stream<Path> dirs = Files.list(instanceDir)) {
            for (Path dir : (Iterable<Path>) dirs::iterator) {
                TaskId id = taskIdOf(dir);
                if (id == null || inUse.test(id) || lastUsedMillis(dir) > cutoff) {
                    continue;
                }
                RocksDbStore.deleteRecursively(dir);
                log.info(
                        "deleted the local state of task {}: not run on this instance for more than {} s"
                                + " (state.cleanup.delay.ms)",
                        id,
                        delay.toSeconds());
            }
        } catch (IOException e) {
            log.debug("cannot list {} for clean-up", instanceDir, e);
        }
    }

    private static TaskId taskIdOf(Path dir) {
        if (!Files.isDirectory(dir)) {
            return null;
        }
        try {
            return TaskId.parse(dir.getFileName().toString());
        } catch (IllegalArgumentException notATask) {
            return null;
        }
    }

    /** When the task last wrote its checkpoint (on every flush and close), else when its directory changed. */
    private static long lastUsedMillis(Path dir) {
        try {
            Path checkpoint = dir.resolve(".checkpoint");
            return Files.getLastModifiedTime(Files.exists(checkpoint) ? checkpoint : dir)
                    .toMillis();
        } catch (IOException e) {
            return Long.MAX_VALUE; // cannot tell: keep it
        }
    }
}
