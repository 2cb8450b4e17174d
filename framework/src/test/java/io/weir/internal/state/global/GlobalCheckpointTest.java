package io.weir.internal.state.global;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GlobalCheckpointTest {

    @TempDir
    Path dir;

    @Test
    void resumesAtTheNewestCheckpointTheStoresLastFlushCovers() {
        Path file = dir.resolve("t.positions");
        GlobalCheckpoint written = new GlobalCheckpoint(file);
        written.write(new GlobalCheckpoint.Entry(10, "id", Map.of(0, 100L, 1, 50L)));
        written.write(new GlobalCheckpoint.Entry(20, "id", Map.of(0, 200L, 1, 70L)));

        GlobalCheckpoint read = new GlobalCheckpoint(file);
        assertThat(read.resumeAt(25, "id")).contains(Map.of(0, 200L, 1, 70L));
        assertThat(read.resumeAt(20, "id")).contains(Map.of(0, 200L, 1, 70L));
        assertThat(read.resumeAt(19, "id")).contains(Map.of(0, 100L, 1, 50L));
        assertThat(read.resumeAt(9, "id"))
                .as("the store holds less than any checkpoint says")
                .isEmpty();
    }

    @Test
    void aCheckpointOfAnotherTopicIdIsNotResumed() {
        Path file = dir.resolve("t.positions");
        new GlobalCheckpoint(file).write(new GlobalCheckpoint.Entry(10, "old-id", Map.of(0, 100L)));

        assertThat(new GlobalCheckpoint(file).resumeAt(10, "new-id")).isEmpty();
    }

    @Test
    void keepsTheLastFewCheckpointsAndForgetsThemWhenCleared() {
        Path file = dir.resolve("t.positions");
        GlobalCheckpoint c = new GlobalCheckpoint(file);
        for (int i = 1; i <= GlobalCheckpoint.KEPT + 3; i++) {
            c.write(new GlobalCheckpoint.Entry(i, "id", Map.of(0, i * 10L)));
        }
        GlobalCheckpoint read = new GlobalCheckpoint(file);
        assertThat(read.resumeAt(3, "id")).as("older than the kept ones").isEmpty();
        assertThat(read.resumeAt(4, "id")).contains(Map.of(0, 40L));

        read.clear();
        assertThat(file).doesNotExist();
        assertThat(new GlobalCheckpoint(file).resumeAt(100, "id")).isEmpty();
    }

    @Test
    void anUnreadableFileMeansReadingTheTopicInFull() throws Exception {
        Path file = dir.resolve("t.positions");
        Files.writeString(file, "12 id 0=notanumber\n");

        assertThat(new GlobalCheckpoint(file).resumeAt(100, "id")).isEmpty();
    }
}
