package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.dsl.Produced;
import io.weir.dsl.RecordStream;
import io.weir.dsl.RecordTable;
import io.weir.dsl.Repartitioned;
import io.weir.serde.Serdes;
import io.weir.testing.TestApps;
import io.weir.testkit.KafkaExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Partitioners and repartition counts on a real broker: records land in the partitions the
 * partitioner chose (read back per partition), {@code repartition} with a count creates its topic
 * with that count and the aggregation after it is exact, and a fixed count that breaks
 * co-partitioning stops the start.
 */
class PartitioningIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void recordsOfAStreamAndOfATableLandInThePartitionsThePartitionerChose() throws Exception {
        String in = KAFKA.uniqueTopic("partitioned-in", 3);
        String out = KAFKA.uniqueTopic("partitioned-out", 4);
        String tableOut = KAFKA.uniqueTopic("partitioned-table-out", 4);
        TopologyBuilder b = new TopologyBuilder();
        RecordStream<String, String> numbers = b.stream(Serdes.strings(), Serdes.strings(), in);
        numbers.to(
                out, Produced.partitionedBy((topic, key, value, partitions) -> Integer.parseInt(value) % partitions));
        RecordTable<String, Long> counts = numbers.groupByKey().count("per-key");
        counts.toStream()
                .to(
                        tableOut,
                        Produced.with(Serdes.strings(), Serdes.longs())
                                .withPartitioner(
                                        (topic, key, count, partitions) -> Integer.parseInt(key) % partitions));

        List<KeyValue<String, String>> records = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            records.add(KeyValue.of(Integer.toString(i % 10), Integer.toString(i)));
        }
        KAFKA.client().produceStrings(in, records);

        try (WeirApp app = TestApps.start(
                b.build(),
                TestApps.config(KAFKA.bootstrapServers(), "partitioned-" + in).build())) {
            List<ConsumerRecord<String, String>> written = KAFKA.client().readStringsAtLeast(out, 400, TIMEOUT);
            assertThat(written).hasSize(400);
            assertThat(written)
                    .allSatisfy(
                            r -> assertThat(r.partition()).as(r.value()).isEqualTo(Integer.parseInt(r.value()) % 4));
            assertThat(written.stream().map(ConsumerRecord::partition).collect(Collectors.toSet()))
                    .isEqualTo(Set.of(0, 1, 2, 3));

            List<ConsumerRecord<String, Long>> updates = KAFKA.client()
                    .readUntil(
                            tableOut,
                            new StringDeserializer(),
                            new LongDeserializer(),
                            IsolationLevel.READ_COMMITTED,
                            rs -> lastValues(rs).equals(expectedCounts()),
                            TIMEOUT);
            assertThat(updates)
                    .allSatisfy(r -> assertThat(r.partition()).as(r.key()).isEqualTo(Integer.parseInt(r.key()) % 4));
        }
    }

    private static Map<String, Long> expectedCounts() {
        Map<String, Long> expected = new HashMap<>();
        for (int k = 0; k < 10; k++) {
            expected.put(Integer.toString(k), 40L);
        }
        return expected;
    }

    private static <K, V> Map<K, V> lastValues(List<ConsumerRecord<K, V>> records) {
        Map<K, V> last = new HashMap<>();
        records.forEach(r -> last.put(r.key(), r.value()));
        return last;
    }

    @Test
    void aRepartitionWithACountCreatesItsTopicWithThatCountAndTheCountsAfterItAreExact() throws Exception {
        String clicks = KAFKA.uniqueTopic("clicks", 2);
        String out = KAFKA.uniqueTopic("clicks-per-user", 3);
        String appId = "repartitioned-" + clicks;
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), clicks)
                .selectKey((page, user) -> user)
                .repartition(Repartitioned.with(Serdes.strings(), Serdes.strings())
                        .withName("by-user")
                        .withPartitions(5))
                .groupByKey()
                .count("clicks-per-user")
                .toStream()
                .to(out, Serdes.strings(), Serdes.longs());

        List<KeyValue<String, String>> records = new ArrayList<>();
        Map<String, Long> expected = new HashMap<>();
        for (int i = 0; i < 3_000; i++) {
            String user = "user-" + (i * 7919 % 37);
            records.add(KeyValue.of("page-" + i, user));
            expected.merge(user, 1L, Long::sum);
        }
        KAFKA.client().produceStrings(clicks, records);

        try (WeirApp app = TestApps.start(
                b.build(), TestApps.config(KAFKA.bootstrapServers(), appId).build())) {
            KAFKA.client()
                    .readUntil(
                            out,
                            new StringDeserializer(),
                            new LongDeserializer(),
                            IsolationLevel.READ_COMMITTED,
                            rs -> lastValues(rs).equals(expected),
                            TIMEOUT);
            assertThat(KAFKA.client().describePartitions(appId + "-by-user-repartition"))
                    .hasSize(5);
            assertThat(KAFKA.client().describePartitions(appId + "-clicks-per-user-changelog"))
                    .as("the aggregation runs a task per partition of the repartition topic")
                    .hasSize(5);
        }
        // every click went through the repartition topic once, to the partition of its user (the
        // records without a key are the writers' watermark markers)
        List<ConsumerRecord<String, String>> repartitioned =
                KAFKA.client().readAllCommittedStrings(appId + "-by-user-repartition", TIMEOUT).stream()
                        .filter(r -> r.key() != null)
                        .toList();
        assertThat(repartitioned).hasSize(3_000);
        Map<String, Set<Integer>> partitionsOfUser = repartitioned.stream()
                .collect(Collectors.groupingBy(
                        ConsumerRecord::key, Collectors.mapping(ConsumerRecord::partition, Collectors.toSet())));
        assertThat(partitionsOfUser).allSatisfy((user, ps) -> assertThat(ps).hasSize(1));
    }

    private static io.weir.Topology countsBy(String clicks, String out, int partitions) {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), clicks)
                .selectKey((page, user) -> user)
                .repartition(Repartitioned.with(Serdes.strings(), Serdes.strings())
                        .withName("by-user")
                        .withPartitions(partitions))
                .groupByKey()
                .count("clicks-per-user")
                .toStream()
                .to(out, Serdes.strings(), Serdes.longs());
        return b.build();
    }

    @Test
    void aNewVersionFixingAnotherCountIsRefusedAgainstTheExistingTopic() throws Exception {
        String clicks = KAFKA.uniqueTopic("recount-clicks", 2);
        String out = KAFKA.uniqueTopic("recount-out", 1);
        String appId = "recount-" + clicks;
        KAFKA.client().produceStrings(clicks, List.of(KeyValue.of("page", "ann")));
        try (WeirApp app = TestApps.start(
                countsBy(clicks, out, 3),
                TestApps.config(KAFKA.bootstrapServers(), appId).build())) {
            KAFKA.client().readStringsAtLeast(out, 1, TIMEOUT);
        }
        assertThatThrownBy(() -> TestApps.start(
                                countsBy(clicks, out, 4),
                                TestApps.config(KAFKA.bootstrapServers(), appId).build())
                        .close())
                .hasStackTraceContaining("the repartition topic '" + appId + "-by-user-repartition' has 3 partitions"
                        + " but the topology fixes 4 (Repartitioned.withPartitions)");
    }

    @Test
    void aFixedCountJoinedWithATopicOfAnotherCountIsRefusedAtStartUpNamingBoth() {
        String clicks = KAFKA.uniqueTopic("fixed-clicks", 2);
        String users = KAFKA.uniqueTopic("fixed-users", 3);
        String out = KAFKA.uniqueTopic("fixed-enriched", 1);
        String appId = "fixed-join-" + clicks;
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, String> names = b.table(Serdes.strings(), Serdes.strings(), users, "user-names");
        b.stream(Serdes.strings(), Serdes.strings(), clicks)
                .selectKey((page, user) -> user)
                .repartition(Repartitioned.with(Serdes.strings(), Serdes.strings())
                        .withName("by-user")
                        .withPartitions(2))
                .join(names, (user, name) -> name)
                .to(out, Serdes.strings(), Serdes.strings());

        assertThatThrownBy(() -> TestApps.start(
                                b.build(),
                                TestApps.config(KAFKA.bootstrapServers(), appId).build())
                        .close())
                .hasStackTraceContaining(
                        appId + "-by-user-repartition has 2 partitions (fixed by" + " Repartitioned.withPartitions)")
                .hasStackTraceContaining(users + " has 3 partitions");
    }
}
