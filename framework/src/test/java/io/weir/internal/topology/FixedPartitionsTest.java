package io.weir.internal.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.TopologyBuilder;
import io.weir.dsl.JoinWindows;
import io.weir.dsl.RecordStream;
import io.weir.dsl.Repartitioned;
import io.weir.internal.topology.TopologyDescription.InternalTopicInfo;
import io.weir.internal.topology.TopologyDiff.Verdict;
import io.weir.serde.Serdes;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A repartition topic whose partition count the topology fixes ({@code Repartitioned.withPartitions}):
 * how {@link TaskCounts} sizes it and the topics around it, how the description shows it and
 * carries it, and what {@link TopologyDiff} says when it changes.
 */
class FixedPartitionsTest {

    private static Consumer<TopologyBuilder> countsBy(Repartitioned<String, String> options) {
        return b -> b.stream(Serdes.strings(), Serdes.strings(), "clicks")
                .selectKey((k, v) -> v)
                .withSerdes(Serdes.strings(), Serdes.strings())
                .repartition(options)
                .groupByKey()
                .count("counts");
    }

    private static TopologyModel model(Consumer<TopologyBuilder> build) {
        TopologyBuilder b = new TopologyBuilder();
        build.accept(b);
        return TopologyAccess.model(b.build(), "app");
    }

    private static TopologyDescription describe(Consumer<TopologyBuilder> build) {
        return TopologyDescription.of(model(build), "app", "1.0");
    }

    @Test
    void aFixedCountSizesTheTopicAndTheTasksReadingIt() {
        TaskCounts counts = TaskCounts.of(
                model(countsBy(Repartitioned.<String, String>named("by-user").withPartitions(6))), Map.of("clicks", 2));
        assertThat(counts.partitions()).containsEntry("app-by-user-repartition", 6);
        assertThat(counts.tasks()).isEqualTo(Map.of(0, 2, 1, 6));
    }

    @Test
    void withoutACountTheTopicTakesItsWritersTaskCount() {
        TaskCounts counts = TaskCounts.of(model(countsBy(Repartitioned.named("by-user"))), Map.of("clicks", 3));
        assertThat(counts.partitions()).containsEntry("app-by-user-repartition", 3);
        assertThat(counts.tasks()).isEqualTo(Map.of(0, 3, 1, 3));
    }

    /** A re-keyed stream joined with a stream of fixed count: its derived topic is co-partitioned with it. */
    @Test
    void aDerivedTopicReadBesideAFixedOneTakesTheFixedCount() {
        TopologyModel model = model(b -> {
            RecordStream<String, String> left = b.stream(Serdes.strings(), Serdes.strings(), "clicks")
                    .selectKey((k, v) -> v)
                    .withSerdes(Serdes.strings(), Serdes.strings())
                    .repartition(Repartitioned.<String, String>named("left").withPartitions(4));
            RecordStream<String, String> right = b.stream(Serdes.strings(), Serdes.strings(), "views")
                    .selectKey((k, v) -> v)
                    .withSerdes(Serdes.strings(), Serdes.strings());
            left.join(right, (l, r) -> l + r, JoinWindows.of(Duration.ofSeconds(1)), "pairs");
        });
        TaskCounts counts = TaskCounts.of(model, Map.of("clicks", 2, "views", 2));
        assertThat(counts.partitions())
                .containsEntry("app-left-repartition", 4)
                .containsEntry("app-pairs-right-repartition", 4);
    }

    @Test
    void theDescriptionShowsAFixedCountOnTheSourceAndTheTopic() {
        Consumer<TopologyBuilder> fixed =
                countsBy(Repartitioned.<String, String>named("by-user").withPartitions(6));
        TopologyDescription d = describe(fixed);
        assertThat(d.internalTopics())
                .filteredOn(t -> t.kind().equals("repartition"))
                .extracting(InternalTopicInfo::name, InternalTopicInfo::partitions)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("app-by-user-repartition", 6));
        assertThat(d.toJson()).contains("\"partitions\": 6");
        assertThat(model(fixed).describe())
                .contains("by-user-repartition-source (topics: app-by-user-repartition, partitions: 6)");

        TopologyDescription derived = describe(countsBy(Repartitioned.named("by-user")));
        assertThat(derived.internalTopics())
                .allSatisfy(t -> assertThat(t.partitions()).isNull());
        assertThat(derived.toJson()).doesNotContain("\"partitions\"");
    }

    /** What plans topics from a description (a savepoint restore, {@code weir topics}) sizes them as the code does. */
    @Test
    void aDescribedModelKeepsTheFixedCount() {
        TopologyDescription d =
                describe(countsBy(Repartitioned.<String, String>named("by-user").withPartitions(6)));
        TopologyModel described = DescribedModel.of(TopologyDescription.parse(d.toJson()), "other");
        assertThat(TaskCounts.of(described, Map.of("clicks", 2)).partitions())
                .containsEntry("other-by-user-repartition", 6);
    }

    @Test
    void aChangedFixedCountNeedsASavepointOrReset() {
        TopologyDiff diff = TopologyDiff.between(
                describe(countsBy(Repartitioned.<String, String>named("by-user").withPartitions(6))),
                describe(countsBy(Repartitioned.<String, String>named("by-user").withPartitions(8))));
        assertThat(diff.verdict()).isEqualTo(Verdict.NEEDS_SAVEPOINT_OR_RESET);
        assertThat(diff.changes()).contains("repartition topic app-by-user-repartition: partitions 6 -> 8");
        assertThat(diff.reasons())
                .containsExactly("repartition topic app-by-user-repartition has 6 partitions and the new version"
                        + " fixes 8: the topic must be created anew (a savepoint restore or a reset does)");
    }

    /** Whether a derived count equals the given one depends on the cluster: the start checks the topic. */
    @Test
    void aCountGivenOrDroppedIsListedAndLeftToTheStartUpCheck() {
        TopologyDescription derived = describe(countsBy(Repartitioned.named("by-user")));
        TopologyDescription fixed =
                describe(countsBy(Repartitioned.<String, String>named("by-user").withPartitions(6)));
        TopologyDiff given = TopologyDiff.between(derived, fixed);
        assertThat(given.verdict()).isEqualTo(Verdict.SAFE);
        assertThat(given.changes())
                .containsExactly("repartition topic app-by-user-repartition: partitions derived -> 6");
        assertThat(TopologyDiff.between(fixed, derived).changes())
                .containsExactly("repartition topic app-by-user-repartition: partitions 6 -> derived");
        assertThat(TopologyDiff.between(fixed, fixed).identical()).isTrue();
    }
}
