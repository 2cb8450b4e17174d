package io.weir.internal.state.global;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.topology.GlobalTableSpec;
import io.weir.serde.Serdes;
import io.weir.state.ReadOnlyKeyValueStore;
import io.weir.state.rocksdb.RocksDbResources;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GlobalTablesOnDiskTest {

    private static final List<GlobalTableSpec> SPECS =
            List.of(new GlobalTableSpec("ref", "ref-topic", Serdes.strings(), Serdes.strings()));

    @TempDir
    Path dir;

    private final RocksDbResources resources = RocksDbResources.create();

    @AfterEach
    void closeResources() {
        resources.close();
    }

    private static ConsumerRecord<byte[], byte[]> record(int partition, long offset, String key, String value) {
        return new ConsumerRecord<>(
                "ref-topic",
                partition,
                offset,
                key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    @SuppressWarnings("unchecked")
    private static ReadOnlyKeyValueStore<String, String> view(GlobalTables tables) {
        return (ReadOnlyKeyValueStore<String, String>) tables.views().get("ref");
    }

    @Test
    void aReopenedTableKeepsItsRowsAndResumesAtItsCheckpoint() {
        try (GlobalTables tables = GlobalTables.onDisk(SPECS, dir, resources)) {
            assertThat(tables.resumeAt("ref-topic", "id"))
                    .as("nothing on disk yet")
                    .isEmpty();
            tables.apply(record(0, 0, "a", "1"));
            tables.apply(record(1, 0, "b", "2"));
            tables.apply(record(0, 1, "a", null));
            tables.checkpoint("ref-topic", "id", Map.of(0, 2L, 1, 1L));
        }
        try (GlobalTables tables = GlobalTables.onDisk(SPECS, dir, resources)) {
            assertThat(tables.resumeAt("ref-topic", "id")).contains(Map.of(0, 2L, 1, 1L));
            assertThat(view(tables).get("a")).isNull();
            assertThat(view(tables).get("b")).isEqualTo("2");
        }
    }

    @Test
    void aTableWhoseCheckpointDoesNotFitIsEmptiedToBeReadInFull() {
        try (GlobalTables tables = GlobalTables.onDisk(SPECS, dir, resources)) {
            tables.resumeAt("ref-topic", "id");
            tables.apply(record(0, 0, "a", "1"));
            tables.checkpoint("ref-topic", "id", Map.of(0, 1L));
        }
        try (GlobalTables tables = GlobalTables.onDisk(SPECS, dir, resources)) {
            assertThat(tables.resumeAt("ref-topic", "another-id")).isEmpty();
            assertThat(view(tables).get("a")).isNull();
            assertThat(tables.rows("ref-topic")).isZero();
        }
    }

    @Test
    void aTableReadWithOtherSerdesIsEmptiedToBeReadInFull() {
        try (GlobalTables tables = GlobalTables.onDisk(SPECS, dir, resources)) {
            tables.resumeAt("ref-topic", "id");
            tables.apply(record(0, 0, "a", "1"));
            tables.checkpoint("ref-topic", "id", Map.of(0, 1L));
        }
        List<GlobalTableSpec> bytes =
                List.of(new GlobalTableSpec("ref", "ref-topic", Serdes.strings(), Serdes.bytes()));
        try (GlobalTables tables = GlobalTables.onDisk(bytes, dir, resources)) {
            assertThat(tables.resumeAt("ref-topic", "id")).isEmpty();
            assertThat(tables.rows("ref-topic")).isZero();
        }
    }

    @Test
    void aTableInMemoryHasNoCheckpoint() {
        try (GlobalTables tables = GlobalTables.inMemory(SPECS)) {
            tables.apply(record(0, 0, "a", "1"));
            tables.checkpoint("ref-topic", "id", Map.of(0, 1L));
            assertThat(tables.resumeAt("ref-topic", "id")).isEmpty();
            assertThat(view(tables).get("a")).isEqualTo("1");
        }
    }
}
