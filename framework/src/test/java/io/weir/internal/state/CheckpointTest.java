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

    @TempDir
    Path dir;

    @Test
    void offsetsWrittenAreReadBackWithTheirSum() {
        Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
        offsets.put(new TopicPartition("app-counts-changelog", 3), 1_200L);
        offsets.put(new TopicPartition("app-sessions-changelog", 3), 34L);
        Checkpoint.write(dir, offsets);

        assertThat(Checkpoint.read(dir)).isEqualTo(offsets);
        assertThat(Checkpoint.offsetSum(dir)).hasValue(1_234L);
    }

    @Test
    void aMissingOrTornCheckpointTellsNothing() throws Exception {
        assertThat(Checkpoint.offsetSum(dir)).isEmpty();
        Files.writeString(dir.resolve(Checkpoint.FILE), "app-counts-changelog 3 12\napp-x-chan");
        assertThat(Checkpoint.offsetSum(dir)).isEmpty();
        Files.writeString(dir.resolve(Checkpoint.FILE), "app-counts-changelog three 12\n");
        assertThat(Checkpoint.offsetSum(dir)).isEmpty();
    }

    @Test
    void aNewCheckpointReplacesTheOldOne() {
        Checkpoint.write(dir, Map.of(new TopicPartition("c", 0), 5L));
        Checkpoint.write(dir, Map.of(new TopicPartition("c", 0), 9L));
        assertThat(Checkpoint.offsetSum(dir)).hasValue(9L);
        assertThat(dir.resolve(Checkpoint.FILE + ".tmp")).doesNotExist();
    }
}
