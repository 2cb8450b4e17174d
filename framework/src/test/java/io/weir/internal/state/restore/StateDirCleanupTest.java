package io.weir.internal.state.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.processor.TaskId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateDirCleanupTest {

    private static final Duration DELAY = Duration.ofMinutes(10);
    private static final long NOW = 1_700_000_000_000L;

    @TempDir
    Path instanceDir;

    private Path taskDir(String name, long lastUsedMs, boolean checkpoint) throws IOException {
        Path dir = Files.createDirectories(instanceDir.resolve(name));
        Files.writeString(dir.resolve("store"), "data");
        if (checkpoint) {
            Files.setLastModifiedTime(
                    Files.writeString(dir.resolve(".checkpoint"), "0"), FileTime.fromMillis(lastUsedMs));
            Files.setLastModifiedTime(dir, FileTime.fromMillis(NOW)); // the checkpoint decides, not the directory
        } else {
            Files.setLastModifiedTime(dir, FileTime.fromMillis(lastUsedMs));
        }
        return dir;
    }

    private StateDirCleanup cleanup(Set<TaskId> inUse) {
        return new StateDirCleanup(instanceDir, DELAY, inUse::contains, () -> NOW);
    }

    @Test
    void deletesTheStateOfTasksNotRunHereForLongerThanTheDelay() throws IOException {
        Path old = taskDir("0_1", NOW - DELAY.toMillis() - 1, true);
        Path recent = taskDir("0_2", NOW - DELAY.toMillis() + 1_000, true);
        Path oldWithoutCheckpoint = taskDir("1_0", NOW - DELAY.toMillis() - 1, false);

        cleanup(Set.of()).cleanUp();

        assertThat(old).doesNotExist();
        assertThat(oldWithoutCheckpoint).doesNotExist();
        assertThat(recent).exists();
    }

    @Test
    void keepsTheStateOfTasksActiveOrStandbyHere() throws IOException {
        Path active = taskDir("0_1", 0, true);

        cleanup(Set.of(new TaskId(0, 1))).cleanUp();

        assertThat(active).exists();
    }

    @Test
    void leavesWhatIsNotATaskDirectoryAlone() throws IOException {
        Path other = Files.createDirectories(instanceDir.resolve("savepoints"));
        Files.setLastModifiedTime(other, FileTime.fromMillis(0));
        Path file = Files.writeString(instanceDir.resolve("0_3"), "a file named like a task");
        Files.setLastModifiedTime(file, FileTime.fromMillis(0));

        cleanup(Set.of()).cleanUp();

        assertThat(other).exists();
        assertThat(file).exists();
    }

    @Test
    void looksAtMostEveryCheck() throws IOException {
        StateDirCleanup cleanup = cleanup(Set.of());
        Path old = taskDir("0_1", 0, true);

        cleanup.maybeCleanUp(); // created just now: the first look is a check later

        assertThat(old).exists();
    }
}
