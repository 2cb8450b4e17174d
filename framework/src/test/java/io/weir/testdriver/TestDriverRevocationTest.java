package io.weir.testdriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.common.KeyValue;
import io.weir.dsl.Emit;
import io.weir.dsl.TimeWindows;
import io.weir.processor.TaskId;
import io.weir.serde.Serdes;
import io.weir.testing.WordCount;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Revocations and restores in the {@link TestDriver}: they run through the stream thread's own
 * task lifecycle and loop, restoring stores from the driver's changelog topics.
 */
class TestDriverRevocationTest {

    private static final long T0 = 1_000_000;
    private static final TaskId TASK_0 = new TaskId(0, 0);
    private static final TaskId TASK_1 = new TaskId(0, 1);

    /** Clicks per user, from a topic of two partitions: one store per task, changelogged. */
    private static Topology clicksPerUser() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "clicks")
                .groupByKey()
                .count("clicks-per-user")
                .toStream()
                .to("click-counts", Serdes.strings(), Serdes.longs());
        return b.build();
    }

    /** A driver whose input {@code topic} has two partitions. */
    private static TestDriver driver(Topology topology, String topic, boolean inMemory, int commitEvery) {
        TestDriver.Builder b = TestDriver.builder(topology)
                .partitions(topic, 2)
                .startWallClock(T0)
                .commitEvery(commitEvery);
        return (inMemory ? b.inMemoryStores() : b).build();
    }

    private static Map<String, Long> latestPerKey(List<TestRecord<String, Long>> records) {
        Map<String, Long> latest = new HashMap<>();
        records.forEach(r -> latest.put(r.key(), r.value()));
        return latest;
    }

    private static double restoredRecords(TestDriver driver) {
        return driver.meterRegistry().get("weir.restore.records").counter().count();
    }

    @ParameterizedTest(name = "in-memory stores: {0}")
    @ValueSource(booleans = {true, false})
    void aReassignedTaskRestoresItsStoreFromTheChangelogAndCountsOn(boolean inMemory) {
        try (TestDriver driver = driver(clicksPerUser(), "clicks", inMemory, 1)) {
            driver.pipe("clicks", 0, "alice", "c", 10);
            driver.pipe("clicks", 0, "alice", "c", 20);
            driver.pipe("clicks", 1, "bob", "c", 30);
            driver.pipe("clicks", 0, "carol", "c", 40);
            driver.output("click-counts", Serdes.strings(), Serdes.longs());

            driver.revoke(TASK_0);
            assertThat(driver.tasks()).containsExactly(TASK_1);
            assertThat(driver.<String, Long>store("clicks-per-user").get("alice"))
                    .as("revoked: not here")
                    .isNull();
            assertThat(driver.<String, Long>store("clicks-per-user").get("bob")).isEqualTo(1L);

            driver.reassign(TASK_0);
            assertThat(driver.tasks()).containsExactly(TASK_0, TASK_1);
            // Three commits wrote partition 0 of the changelog (alice=1, alice=2, carol=1). In memory
            // the store came back empty and replayed them all; RocksDB reopened at its stored offset,
            // the changelog's end, and had no tail to replay.
            assertThat(restoredRecords(driver)).isEqualTo(inMemory ? 3 : 0);
            assertThat(driver.<String, Long>store("clicks-per-user").get("alice"))
                    .isEqualTo(2L);
            assertThat(driver.<String, Long>store("clicks-per-user").get("carol"))
                    .isEqualTo(1L);

            driver.pipe("clicks", 0, "alice", "c", 50);
            driver.pipe("clicks", 0, "carol", "c", 60);
            driver.pipe("clicks", 1, "bob", "c", 70);
            assertThat(driver.output("click-counts", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactly(tuple("alice", 3L), tuple("carol", 2L), tuple("bob", 2L));
            assertThat(driver.<String, Long>store("clicks-per-user").get("alice"))
                    .isEqualTo(3L);
        }
    }

    @ParameterizedTest(name = "in-memory stores: {0}")
    @ValueSource(booleans = {true, false})
    void aRevocationCommitsTheWorkOfEveryTaskFirst(boolean inMemory) {
        try (TestDriver driver = driver(clicksPerUser(), "clicks", inMemory, 100)) {
            driver.pipe("clicks", 0, "alice", "c", 10);
            driver.pipe("clicks", 1, "bob", "c", 20);
            assertThat(driver.output("click-counts", Serdes.strings(), Serdes.longs()))
                    .as("not committed yet")
                    .isEmpty();
            assertThat(driver.<String, Long>store("clicks-per-user").get("bob")).isNull();

            driver.revoke(TASK_0);
            assertThat(driver.output("click-counts", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactlyInAnyOrder(tuple("alice", 1L), tuple("bob", 1L));
            assertThat(driver.<String, Long>store("clicks-per-user").get("bob")).isEqualTo(1L);

            driver.reassign(TASK_0);
            assertThat(driver.<String, Long>store("clicks-per-user").get("alice"))
                    .isEqualTo(1L);
        }
    }

    @ParameterizedTest(name = "in-memory stores: {0}")
    @ValueSource(booleans = {true, false})
    void recordsPipedWhileATaskIsRevokedWaitAndItResumesFromItsCommittedOffsetsAndWatermark(boolean inMemory) {
        try (TestDriver driver = driver(clicksPerUser(), "clicks", inMemory, 1)) {
            driver.pipe("clicks", 0, "alice", "c", 10);
            driver.pipe("clicks", 0, "alice", "c", 40);
            long watermark = driver.watermark(TASK_0);
            driver.output("click-counts", Serdes.strings(), Serdes.longs());

            driver.revoke(TASK_0);
            driver.pipe("clicks", 0, "alice", "c", 50);
            driver.pipe("clicks", 1, "bob", "c", 60);
            assertThat(driver.output("click-counts", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::key)
                    .containsExactly("bob");
            assertThatThrownBy(() -> driver.watermark(TASK_0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("revoked");

            driver.reassign(TASK_0);
            assertThat(driver.output("click-counts", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactly(tuple("alice", 3L));
            assertThat(watermark).isEqualTo(40);
            assertThat(driver.watermark(TASK_0)).isEqualTo(50);
        }
    }

    /** Counts words after a repartition: the counting tasks read the repartition topic. */
    private static Topology wordCount() {
        return WordCount.topology();
    }

    @Test
    void recordsRoutedToARevokedTaskThroughARepartitionTopicWaitForIt() {
        try (TestDriver driver = driver(wordCount(), "lines", false, 1)) {
            TaskId counter = new TaskId(1, Utils.toPositive(Utils.murmur2("a".getBytes(StandardCharsets.UTF_8))) % 2);
            driver.pipe("lines", 0, "l", "a a", 10);
            driver.revoke(counter);
            driver.pipe("lines", 1, "l", "a", 20);
            assertThat(latestPerKey(driver.output("counts", Serdes.strings(), Serdes.longs())))
                    .containsEntry("a", 2L);

            driver.reassign(counter);
            assertThat(driver.output("counts", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactly(tuple("a", 3L));
            assertThat(driver.<String, Long>store("word-counts").get("a")).isEqualTo(3L);
        }
    }

    @Test
    void windowStoresRestoreAndTheirWindowsCloseLater() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .groupByKey()
                .windowedBy(TimeWindows.of(Duration.ofSeconds(1)))
                .emit(Emit.onWindowClose())
                .count("window-counts")
                .map((w, c) -> KeyValue.of(w.key() + "@" + w.start(), c))
                .to("out", Serdes.strings(), Serdes.longs());
        try (TestDriver driver = TestDriver.builder(b.build())
                .startWallClock(T0)
                .inMemoryStores()
                .build()) {
            driver.pipe("in", "k", "a", 100);
            driver.pipe("in", "k", "b", 500);

            driver.revoke(TASK_0);
            driver.reassign(TASK_0);
            assertThat(driver.<String, Long>windowStore("window-counts").fetch("k", 0))
                    .isEqualTo(2L);

            driver.pipe("in", "k", "c", 1_200); // the watermark passes the end of [0, 1000)
            assertThat(driver.output("out", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactly(tuple("k@0", 2L));
        }
    }

    @Test
    void revokingAndReassigningTheWrongTasksFailsClearly() {
        try (TestDriver driver = driver(clicksPerUser(), "clicks", true, 1)) {
            assertThatThrownBy(() -> driver.revoke(new TaskId(7, 0)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no task 7_0");
            assertThatThrownBy(() -> driver.reassign(TASK_0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("was not revoked")
                    .hasMessageContaining("running");
            driver.revoke(TASK_0);
            assertThatThrownBy(() -> driver.revoke(TASK_0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("revoked");
            driver.reassign(TASK_0);
            assertThat(driver.tasks()).containsExactly(TASK_0, TASK_1);
        }
    }
}
