package io.weir.state.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.testkit.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The point of atomic flush without a WAL: a process killed while writing leaves a store whose
 * data matches its stored changelog offset exactly (an older state, never data ahead of it).
 */
class RocksDbStoreCrashTest {

    @TempDir
    Path dir;

    @Test
    void storeKilledWhileWritingReopensWithDataMatchingItsOffset() {
        Path storeDir = dir.resolve("store");
        try (ChildJvm writer = ChildJvm.builder(CrashingWriter.class)
                .args(storeDir.toString())
                .jvmOptions("-Xmx128m")
                .start()) {
            writer.awaitOutput("ready", Duration.ofSeconds(60));
            writer.kill();
        }

        try (RocksDbResources resources = RocksDbResources.create(RocksDbResources.Config.ofTotalBytes(16L << 20));
                RocksDbStore store = RocksDbStore.open(storeDir, "crashing", resources)) {
            OptionalLong offset = store.changelogOffset();
            assertThat(offset).as("memtables were flushed before the kill").isPresent();
            int batches = (int) offset.getAsLong();
            assertThat(new String(store.get(CrashingWriter.counter()), StandardCharsets.UTF_8))
                    .isEqualTo(Integer.toString(batches - 1));
            assertThat(store.get(CrashingWriter.key(batches - 1))).isNotNull();
            assertThat(store.get(CrashingWriter.key(batches)))
                    .as("no data beyond the stored offset")
                    .isNull();
            long keys = 0;
            try (var it = store.prefix("k-".getBytes(StandardCharsets.UTF_8))) {
                while (it.hasNext()) {
                    it.next();
                    keys++;
                }
            }
            assertThat(keys).isEqualTo(batches);
        }
    }
}
