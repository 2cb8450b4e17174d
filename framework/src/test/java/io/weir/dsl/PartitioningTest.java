package io.weir.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.common.KeyValue;
import io.weir.errors.TopologyException;
import io.weir.processor.Headers;
import io.weir.processor.TaskId;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * Partitioners on sinks and {@code repartition} with a partition count, through the whole runtime
 * (the test driver, which runs the sinks and sizes the topics as an application on a cluster does).
 */
class PartitioningTest {

    private static TestDriver.Builder driver(Topology topology) {
        return TestDriver.builder(topology).config("application.id", "app");
    }

    private static int defaultPartition(String key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    @Test
    void toWithAPartitionerWritesEachRecordToThePartitionItChose() {
        TopologyBuilder b = new TopologyBuilder();
        List<String> seen = new ArrayList<>();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .to("out", Produced.partitionedBy((String topic, String key, String value, int partitions) -> {
                    seen.add(topic + "/" + partitions);
                    return Integer.parseInt(value) % partitions;
                }));
        try (TestDriver driver = driver(b.build()).partitions("out", 4).build()) {
            for (int i = 0; i < 20; i++) {
                driver.pipe("in", "k" + (i % 3), Integer.toString(i), i);
            }
            List<TestRecord<String, String>> out = driver.output("out", Serdes.strings(), Serdes.strings());
            assertThat(out).hasSize(20);
            assertThat(out).allSatisfy(r -> assertThat(r.partition()).isEqualTo(Integer.parseInt(r.value()) % 4));
            assertThat(Set.copyOf(seen)).containsExactly("out/4");
        }
    }

    @Test
    void aPartitionerReturningNullLeavesTheRecordToTheDefaultPartitioner() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .to("out", Produced.partitionedBy((topic, key, value, partitions) -> key.equals("pinned") ? 0 : null));
        try (TestDriver driver = driver(b.build()).partitions("out", 8).build()) {
            List<String> keys = IntStream.range(0, 30).mapToObj(i -> "key-" + i).toList();
            keys.forEach(k -> driver.pipe("in", k, "0", 1));
            driver.pipe("in", "pinned", "0", 2);
            Map<String, Integer> partitionOf = driver.output("out", Serdes.strings(), Serdes.strings()).stream()
                    .collect(Collectors.toMap(TestRecord::key, TestRecord::partition));
            keys.forEach(k -> assertThat(partitionOf.get(k)).as(k).isEqualTo(defaultPartition(k, 8)));
            assertThat(partitionOf.get("pinned")).isZero();
        }
    }

    @Test
    void producedSerdesReplaceTheStreamsAndKeepThePartitioner() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .mapValues((String v) -> Integer.parseInt(v))
                .to("out", Produced.with(Serdes.strings(), Serdes.integers()).withPartitioner((t, k, v, n) -> v % n));
        try (TestDriver driver = driver(b.build()).partitions("out", 3).build()) {
            driver.pipe("in", "a", "4", 1);
            driver.pipe("in", "b", "5", 2);
            assertThat(driver.output("out", Serdes.strings(), Serdes.integers()))
                    .extracting(TestRecord::value, TestRecord::partition)
                    .containsExactly(tuple(4, 1), tuple(5, 2));
        }
    }

    @Test
    void aPartitionTheTopicLacksDeadLettersTheRecordWithTheReasonAndTheOthersGoOn() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .to("out", Produced.partitionedBy((topic, key, value, partitions) -> Integer.parseInt(value)));
        try (TestDriver driver = driver(b.build()).partitions("out", 4).build()) {
            driver.pipe("in", "good", "1", 1);
            driver.pipe("in", "bad", "7", 2);
            driver.pipe("in", "good", "2", 3);

            assertThat(driver.output("out", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("1", "2");
            List<TestRecord<byte[], byte[]>> dead = driver.deadLetters();
            assertThat(dead).hasSize(1);
            Headers h = dead.get(0).headers();
            assertThat(new String(dead.get(0).key(), StandardCharsets.UTF_8)).isEqualTo("bad");
            assertThat(h.lastString("weir.error.stage")).isEqualTo("produce");
            assertThat(h.lastString("weir.error.message"))
                    .contains("partitioner chose partition 7 of topic 'out'")
                    .contains("4 partitions");
        }
    }

    @Test
    void aTopicExtractorsPartitionerSeesTheChosenTopicAndItsCount() {
        TopologyBuilder b = new TopologyBuilder();
        Map<String, Integer> countsSeen = new HashMap<>();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .to(
                        record -> "out-" + record.key(),
                        Produced.partitionedBy((String topic, String key, String value, int partitions) -> {
                            countsSeen.put(topic, partitions);
                            return partitions - 1;
                        }));
        try (TestDriver driver =
                driver(b.build()).partitions("out-a", 2).partitions("out-b", 5).build()) {
            driver.pipe("in", "a", "x", 1);
            driver.pipe("in", "b", "y", 2);
            assertThat(driver.output("out-a", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::partition)
                    .containsExactly(1);
            assertThat(driver.output("out-b", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::partition)
                    .containsExactly(4);
            assertThat(countsSeen).isEqualTo(Map.of("out-a", 2, "out-b", 5));
        }
    }

    private static Topology countsThroughRepartition(Repartitioned<String, String> options) {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "clicks")
                .selectKey((k, v) -> v) // by user
                .withSerdes(Serdes.strings(), Serdes.strings())
                .repartition(options)
                .groupByKey()
                .count("clicks-per-user")
                .toStream()
                .to("counts", Serdes.strings(), Serdes.longs());
        return b.build();
    }

    @Test
    void repartitionWithACountRunsThatManyTasksAndAggregatesExactly() {
        Topology topology = countsThroughRepartition(
                Repartitioned.<String, String>named("by-user").withPartitions(5));
        try (TestDriver driver = driver(topology).partitions("clicks", 2).build()) {
            Map<String, Long> expected = new HashMap<>();
            for (int i = 0; i < 200; i++) {
                String user = "user-" + (i * 7 % 23);
                driver.pipe("clicks", i % 2, "page-" + i, user, i);
                expected.merge(user, 1L, Long::sum);
            }
            driver.commit();

            assertThat(driver.tasks())
                    .filteredOn(t -> t.subtopology() == 1)
                    .extracting(TaskId::partition)
                    .containsExactlyInAnyOrder(0, 1, 2, 3, 4);
            List<TestRecord<String, String>> repartitioned =
                    driver.allOutput("app-by-user-repartition", Serdes.strings(), Serdes.strings());
            assertThat(repartitioned).hasSize(200);
            assertThat(repartitioned)
                    .allSatisfy(r -> assertThat(r.partition()).isEqualTo(defaultPartition(r.key(), 5)));
            Map<String, Long> last = new HashMap<>();
            driver.allOutput("counts", Serdes.strings(), Serdes.longs()).forEach(r -> last.put(r.key(), r.value()));
            assertThat(last).isEqualTo(expected);
        }
    }

    @Test
    void repartitionWithAPartitionerPutsEachRecordInThePartitionItChose() {
        Topology topology = countsThroughRepartition(Repartitioned.<String, String>named("by-user")
                .withPartitions(3)
                .withPartitioner((topic, key, value, partitions) -> key.length() % partitions));
        try (TestDriver driver = driver(topology).build()) {
            List<String> users = List.of("a", "bb", "ccc", "dddd", "eeeee");
            for (int i = 0; i < 50; i++) {
                driver.pipe("clicks", "page", users.get(i % users.size()), i);
            }
            driver.commit();
            List<TestRecord<String, String>> repartitioned =
                    driver.allOutput("app-by-user-repartition", Serdes.strings(), Serdes.strings());
            assertThat(repartitioned).hasSize(50);
            assertThat(repartitioned)
                    .allSatisfy(r -> assertThat(r.partition()).isEqualTo(r.key().length() % 3));
            Map<String, Long> last = new HashMap<>();
            driver.allOutput("counts", Serdes.strings(), Serdes.longs()).forEach(r -> last.put(r.key(), r.value()));
            assertThat(last).isEqualTo(users.stream().collect(Collectors.toMap(u -> u, u -> 10L)));
        }
    }

    @Test
    void repartitionWithoutACountTakesTheUpstreamTaskCount() {
        try (TestDriver driver = driver(countsThroughRepartition(Repartitioned.defaults()))
                .partitions("clicks", 3)
                .build()) {
            assertThat(driver.tasks()).filteredOn(t -> t.subtopology() == 1).hasSize(3);
            driver.pipe("clicks", "page", "u", 1);
            driver.commit();
            assertThat(driver.output("counts", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactly(tuple("u", 1L));
        }
    }

    private static Topology joinAfterRepartition(Repartitioned<String, String> options) {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, String> users = b.table(Serdes.strings(), Serdes.strings(), "users", "users-store");
        b.stream(Serdes.strings(), Serdes.strings(), "clicks")
                .selectKey((k, v) -> v)
                .repartition(options.withSerdes(Serdes.strings(), Serdes.strings()))
                .join(users, (click, user) -> click + "@" + user)
                .to("enriched", Serdes.strings(), Serdes.strings());
        return b.build();
    }

    @Test
    void aFixedCountJoinedWithATopicOfAnotherCountIsRefusedNamingBoth() {
        Topology topology = joinAfterRepartition(
                Repartitioned.<String, String>named("by-user").withPartitions(4));
        assertThatThrownBy(() -> driver(topology)
                        .partitions("clicks", 4)
                        .partitions("users", 6)
                        .build()
                        .close())
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining(
                        "app-by-user-repartition has 4 partitions (fixed by Repartitioned.withPartitions)")
                .hasMessageContaining("users has 6 partitions");
    }

    @Test
    void aRepartitionWithoutACountJoinedWithATableTakesTheTablesCount() {
        try (TestDriver driver = driver(joinAfterRepartition(Repartitioned.named("by-user")))
                .partitions("clicks", 2)
                .partitions("users", 6)
                .build()) {
            assertThat(driver.tasks()).filteredOn(t -> t.subtopology() == 0).hasSize(6); // the join's
            driver.pipe("users", "u1", "Ann", 1);
            driver.pipe("clicks", "page", "u1", 2);
            assertThat(driver.output("enriched", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("u1@Ann");
        }
    }

    @Test
    void aRepartitionOfAStreamWithoutSerdesFailsAtBuildNamingIt() {
        TopologyBuilder b = new TopologyBuilder();
        RecordStream<String, Integer> lengths =
                b.stream(Serdes.strings(), Serdes.strings(), "in").mapValues(String::length);
        assertThatThrownBy(() -> lengths.repartition(Repartitioned.named("lengths")))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("repartition 'lengths'")
                .hasMessageContaining("serdes");
        lengths.repartition(
                        Repartitioned.<String, Integer>named("lengths").withSerdes(Serdes.strings(), Serdes.integers()))
                .to("out");
    }

    @Test
    void twoRepartitionsOfOneNameFailAtBuild() {
        TopologyBuilder b = new TopologyBuilder();
        RecordStream<String, String> in = b.stream(Serdes.strings(), Serdes.strings(), "in");
        in.repartition(Repartitioned.named("same"));
        assertThatThrownBy(() -> in.repartition(Repartitioned.named("same")))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("same-repartition-sink");
    }

    @Test
    void aDerivedRepartitionIsNamedByItsPlaceAndKeepsRecordsWhole() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .repartition()
                .map((String k, String v) -> KeyValue.of(k, v + "!"))
                .to("out", Serdes.strings(), Serdes.strings());
        try (TestDriver driver = driver(b.build()).build()) {
            driver.pipe("in", 0, "k", "v", 42, Headers.empty().with("h", "x"));
            TestRecord<String, String> r =
                    driver.output("out", Serdes.strings(), Serdes.strings()).get(0);
            assertThat(r.key()).isEqualTo("k");
            assertThat(r.value()).isEqualTo("v!");
            assertThat(r.timestamp()).isEqualTo(42);
            assertThat(r.headers().lastString("h")).isEqualTo("x");
            assertThat(driver.allOutput("app-repartition-1-repartition", Serdes.strings(), Serdes.strings()))
                    .hasSize(1);
        }
    }
}
