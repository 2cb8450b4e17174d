package io.weir.internal.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointTest {

    private static final ChangelogTopicIds NONE = ChangelogTopicIds.UNKNOWN;

    @TempDir
    Path dir;

    @Test
    void offsetsAndTopicIdsWrittenAreReadBackWithTheirSum() {
        Map<TopicPartition, Checkpoint.Entry> entries = new LinkedHashMap<>();
        entries.put(
                new TopicPartition("app-counts-changelog", 3), new Checkpoint.Entry(1_200L, "AAAAAAAAAAAAAAAAAAAAAQ"));
        entries.put(new TopicPartition("app-sessions-changelog", 3), new Checkpoint.Entry(34L, null));
        Checkpoint.write(dir, entries);

        assertThat(Checkpoint.read(dir)).isEqualTo(entries);
        assertThat(Checkpoint.offsetSum(dir, NONE)).hasValue(1_234L);
        assertThat(Checkpoint.offsetSum(
                        dir, ChangelogTopicIds.of(Map.of("app-counts-changelog", "AAAAAAAAAAAAAAAAAAAAAQ"))))
                .hasValue(1_234L);
    }

    @Test
    void aCheckpointOfARecreatedChangelogCountsAsNoState() {
        Checkpoint.write(
                dir, Map.of(new TopicPartition("app-counts-changelog", 0), new Checkpoint.Entry(500L, "old-id")));
        assertThat(Checkpoint.offsetSum(dir, ChangelogTopicIds.of(Map.of("app-counts-changelog", "new-id"))))
                .isEmpty();
        assertThat(Checkpoint.offsetSum(dir, ChangelogTopicIds.of(Map.of("app-other-changelog", "new-id"))))
                .hasValue(500L);
    }

    @Test
    void anOldCheckpointWithoutTopicIdsIsReadAsUnknownIds() throws Exception {
        Files.writeString(dir.resolve(Checkpoint.FILE), "app-counts-changelog 3 12\napp-x-changelog 3 30\n");
        assertThat(Checkpoint.read(dir))
                .containsEntry(new TopicPartition("app-counts-changelog", 3), new Checkpoint.Entry(12, null));
        // An unknown id never condemns the state: offsets decide, as before ids were recorded.
        assertThat(Checkpoint.offsetSum(dir, ChangelogTopicIds.of(Map.of("app-counts-changelog", "new-id"))))
                .hasValue(42L);
    }

    @Test
    void aMissingOrTornCheckpointTellsNothing() throws Exception {
        assertThat(Checkpoint.offsetSum(dir, NONE)).isEmpty();
        Files.writeString(dir.resolve(Checkpoint.FILE), "app-counts-changelog 3 12\napp-x-chan");
        assertThat(Checkpoint.offsetSum(dir, NONE)).isEmpty();
        Files.writeString(dir.resolve(Checkpoint.FILE), "app-counts-changelog three 12\n");
        assertThat(Checkpoint.offsetSum(dir, NONE)).isEmpty();
        Files.writeString(dir.resolve(Checkpoint.FILE), "app-counts-changelog 3 12 id extra\n");
        assertThat(Checkpoint.offsetSum(dir, NONE)).isEmpty();
    }

    @Test
    void aNewCheckpointReplacesTheOldOne() {
        Checkpoint.write(dir, Map.of(new TopicPartition("c", 0), new Checkpoint.Entry(5L, "a")));
        Checkpoint.write(dir, Map.of(new TopicPartition("c", 0), new Checkpoint.Entry(9L, "a")));
        assertThat(Checkpoint.offsetSum(dir, NONE)).hasValue(9L);
        assertThat(dir.resolve(Checkpoint.FILE + ".tmp")).doesNotExist();
    }
}
