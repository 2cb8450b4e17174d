package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.cli.WeirTest.Outcome;
import io.weir.common.KeyValue;
import io.weir.serde.Serdes;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code weir reset} of an application whose table's compacted source topic is its store's
 * changelog: the topic is the user's and survives every reset, with the topology or without (even
 * named like a changelog), while the changelogs Weir created are deleted; the next run rebuilds the
 * table from the topic up to the reset offsets (its local store, now ahead of them, is rebuilt) and
 * recomputes the same counts.
 */
class ResetSourceTableIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration WAIT = Duration.ofSeconds(60);
    static final String CUSTOMERS = "reset.source.customers";
    static final String OUTPUT = "reset.source.output";

    /** Customers (a table of the compacted topic) counted per region. */
    public static final class Regions implements Supplier<Topology> {
        @Override
        public Topology get() {
            TopologyBuilder b = new TopologyBuilder();
            b.table(Serdes.strings(), Serdes.strings(), System.getProperty(CUSTOMERS), "cust")
                    .groupBy((c, region) -> KeyValue.of(region, c), Serdes.strings(), Serdes.strings())
                    .count("per-region")
                    .toStream()
                    .to(System.getProperty(OUTPUT), Serdes.strings(), Serdes.longs());
            return b.build();
        }
    }

    private static Outcome weir(String... args) {
        return WeirTest.run(args);
    }

    @Test
    void aResetNeverDeletesTheSourceTopicATableUsesAsItsChangelog() throws Exception {
        String app = "reset-src-" + Long.toHexString(System.nanoTime());
        // Named like a changelog of the application on purpose: a reset without the topology
        // recognizes internal topics by name, and must still keep it.
        String customers = app + "-cust-changelog";
        String output = app + "-out";
        KAFKA.client().createTopic(customers, 2, Map.of("cleanup.policy", "compact"));
        KAFKA.client().createTopic(output, 2);
        System.setProperty(CUSTOMERS, customers);
        System.setProperty(OUTPUT, output);
        List<KeyValue<String, String>> rows = new ArrayList<>();
        Map<String, Long> expected = new TreeMap<>();
        for (int i = 0; i < 60; i++) {
            String region = "r" + i % 4;
            rows.add(KeyValue.of("c" + i, region));
            expected.merge(region, 1L, Long::sum);
        }
        KAFKA.client().produceStrings(customers, rows);
        String bootstrap = KAFKA.bootstrapServers();
        Path state = Files.createTempDirectory("weir-reset-src-");
        String perRegion = app + "-per-region-changelog";

        int before;
        try (WeirApp running = Instances.start(new Regions().get(), bootstrap, app, state, "one")) {
            before = KAFKA.client()
                    .readUntil(output, r -> Records.lastLongPerKey(r).equals(expected), WAIT)
                    .size();
            running.close(Duration.ofSeconds(30), true);
        }
        GroupMembers.awaitNone(KAFKA, app);
        assertThat(KAFKA.admin().listTopics().names().get()).contains(customers, perRegion);

        // Without the topology, its name alone would make it a changelog to delete (and no input).
        Outcome byName = weir("reset", "-b", bootstrap, "--app", app, "--to", "earliest", "--topics", customers);
        assertThat(byName.code()).as(byName.err()).isEqualTo(Weir.OK);
        assertThat(KAFKA.admin().listTopics().names().get()).contains(customers).doesNotContain(perRegion);
        assertThat(KAFKA.client().countPerPartition(customers).values().stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .as("the source topic's records")
                .isEqualTo(60);

        Outcome byTopology =
                weir("reset", "-b", bootstrap, "--app", app, "--to", "earliest", "--topology", Regions.class.getName());
        assertThat(byTopology.code()).as(byTopology.err()).isEqualTo(Weir.OK);
        assertThat(byTopology.out()).doesNotContain(customers + "\n");
        assertThat(KAFKA.admin().listTopics().names().get()).contains(customers);

        // The same state directory: the local table is ahead of the reset offsets, so it is
        // rebuilt from the topic, and the recreated counts start from zero again.
        // Records, not offsets: under exactly-once every transaction adds a marker offset to each partition.
        try (WeirApp again = Instances.start(new Regions().get(), bootstrap, app, state, "one")) {
            // Each region's count lives in one partition: its last value is its recomputed count
            // (a table not rebuilt would reprocess every row as unchanged and end every count at 0).
            KAFKA.client()
                    .readUntil(
                            output,
                            r -> r.size() > before && Records.lastLongPerKey(r).equals(expected),
                            WAIT);
            again.close(Duration.ofSeconds(30), true);
        }
    }
}
