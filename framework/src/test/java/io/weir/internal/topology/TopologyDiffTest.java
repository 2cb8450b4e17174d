package io.weir.internal.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.TopologyBuilder;
import io.weir.TopologyModels;
import io.weir.dsl.SessionWindows;
import io.weir.dsl.TimeWindows;
import io.weir.internal.topology.TopologyDiff.Verdict;
import io.weir.processor.KeyValueStoreBuilder;
import io.weir.processor.Stores;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.testing.WordCount;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class TopologyDiffTest {

    private static final String APP = "wc";

    /** The description of the topology {@code build} makes, as application {@value #APP}. */
    static TopologyDescription describe(Consumer<TopologyBuilder> build) {
        return describe(build, "1.0");
    }

    static TopologyDescription describe(Consumer<TopologyBuilder> build, String weirVersion) {
        TopologyBuilder b = new TopologyBuilder();
        build.accept(b);
        return TopologyDescription.of(TopologyModels.resolved(b.build(), APP), APP, weirVersion);
    }

    /** A word count (a repartition topic and a logged store) plus a processor-API store {@code totals}. */
    static Consumer<TopologyBuilder> app(
            boolean extraFilter, Serde<?> totalsValues, UnaryOperator<KeyValueStoreBuilder<String, Object>> totals) {
        return b -> {
            var words = b.stream(Serdes.strings(), Serdes.strings(), "lines")
                    .flatMapValues(line -> Arrays.asList(line.split(" ")));
            if (extraFilter) {
                words = words.filter((k, w) -> !w.isEmpty());
            }
            words.groupBy((k, w) -> w, Serdes.strings(), Serdes.strings())
                    .count("word-counts")
                    .toStream()
                    .to("counts", Serdes.strings(), Serdes.longs());
            @SuppressWarnings("unchecked")
            Serde<Object> values = (Serde<Object>) totalsValues;
            b.addSource("amounts", Serdes.strings(), Serdes.strings(), "amounts")
                    .addProcessor("sum", () -> record -> {}, List.of("amounts"), List.of())
                    .addStateStore(totals.apply(Stores.keyValueStore("totals", Serdes.strings(), values)), "sum");
        };
    }

    static Consumer<TopologyBuilder> v1() {
        return app(false, Serdes.longs(), s -> s);
    }

    @Test
    void identicalTopologiesAreSafeAndHaveNoChanges() {
        TopologyDiff diff = TopologyDiff.between(describe(v1()), describe(v1()));
        assertThat(diff.identical()).isTrue();
        assertThat(diff.verdict()).isEqualTo(Verdict.SAFE);
        assertThat(diff.changes()).isEmpty();
        assertThat(diff.reasons()).isEmpty();
        assertThat(diff.report()).contains("no changes", "Verdict: SAFE");
    }

    @Test
    void anAddedStatelessNodeIsSafe() {
        TopologyDiff diff = TopologyDiff.between(describe(v1()), describe(app(true, Serdes.longs(), s -> s)));
        assertThat(diff.identical()).isFalse();
        assertThat(diff.verdict()).isEqualTo(Verdict.SAFE);
        assertThat(diff.storesAdded()).isEmpty();
        assertThat(diff.storesRemoved()).isEmpty();
        assertThat(diff.storesChanged()).isEmpty();
        assertThat(diff.changes()).anyMatch(c -> c.startsWith("node ") && c.endsWith(": added"));
    }

    @Test
    void addedStoresTopicsAndSubtopologiesAreSafe() {
        TopologyDiff diff = TopologyDiff.between(
                describe(v1()),
                describe(v1().andThen(b -> b.stream(Serdes.strings(), Serdes.strings(), "clicks")
                        .groupBy((k, v) -> v, Serdes.strings(), Serdes.strings())
                        .count("clicks-per-page")
                        .toStream()
                        .to("click-counts", Serdes.strings(), Serdes.longs()))));
        assertThat(diff.verdict()).isEqualTo(Verdict.SAFE);
        assertThat(diff.storesAdded()).containsExactly("clicks-per-page");
        assertThat(diff.changelogsAdded()).containsExactly("wc-clicks-per-page-changelog");
        assertThat(diff.repartitionTopicsAdded()).containsExactly("wc-clicks-per-page-repartition");
        assertThat(diff.sourceTopicsAdded()).containsExactly("clicks");
        assertThat(diff.sinkTopicsAdded()).containsExactly("click-counts");
        assertThat(diff.changes()).contains("store clicks-per-page: added (key_value)", "sub-topologies: 3 -> 5");
    }

    @Test
    void aRemovedStoreNeedsASavepointOrReset() {
        TopologyDiff diff = TopologyDiff.between(describe(v1()), describe(b -> WordCount.addTo(b, "counts")));
        assertThat(diff.verdict()).isEqualTo(Verdict.NEEDS_SAVEPOINT_OR_RESET);
        assertThat(diff.storesRemoved()).containsExactly("totals");
        assertThat(diff.changelogsRemoved()).containsExactly("wc-totals-changelog");
        assertThat(diff.sourceTopicsRemoved()).containsExactly("amounts");
        assertThat(diff.incompatibleStores()).isEmpty();
        assertThat(diff.reasons())
                .containsExactly("store totals was removed (or renamed): its state would be abandoned");
        assertThat(diff.report())
                .contains("store totals: removed", "Verdict: NEEDS_SAVEPOINT_OR_RESET", "  - store totals was removed");
    }

    @Test
    void aChangedValueFormatMakesTheStoreIncompatible() {
        TopologyDiff diff = TopologyDiff.between(describe(v1()), describe(app(false, Serdes.strings(), s -> s)));
        assertThat(diff.verdict()).isEqualTo(Verdict.NEEDS_SAVEPOINT_OR_RESET);
        assertThat(diff.storesChanged())
                .containsExactly(new TopologyDiff.StoreChange("totals", "value format", "long", "string", true, true));
        assertThat(diff.incompatibleStores()).containsExactly("totals");
        assertThat(diff.changes()).containsExactly("store totals: value format long -> string");
    }

    @Test
    void aChangedFormatOfAStoreWhoseStateDoesNotSurviveARestartIsNotIncompatible() {
        UnaryOperator<KeyValueStoreBuilder<String, Object>> volatileStore =
                s -> s.inMemory().withLoggingDisabled();
        TopologyDiff diff = TopologyDiff.between(
                describe(app(false, Serdes.longs(), volatileStore)),
                describe(app(false, Serdes.strings(), volatileStore)));
        assertThat(diff.verdict()).isEqualTo(Verdict.NEEDS_SAVEPOINT_OR_RESET);
        assertThat(diff.incompatibleStores()).isEmpty();
    }

    @Test
    void aChangedKindIsIncompatible() {
        TopologyDiff diff = TopologyDiff.between(
                describe(b -> b.stream(Serdes.strings(), Serdes.strings(), "lines")
                        .groupByKey()
                        .count("counts")),
                windowed(Duration.ofMinutes(1)));
        assertThat(diff.storesChanged())
                .extracting(TopologyDiff.StoreChange::property)
                .contains("kind");
        assertThat(diff.incompatibleStores()).containsExactly("counts");
        assertThat(diff.reasons()).anyMatch(r -> r.startsWith("store counts changed its kind (key_value -> window)"));
    }

    /** {@code counts} as a key-value count or a window count of {@code size}. */
    private static TopologyDescription windowed(Duration size) {
        return describe(b -> b.stream(Serdes.strings(), Serdes.strings(), "lines")
                .groupByKey()
                .windowedBy(TimeWindows.of(size))
                .count("counts"));
    }

    @Test
    void aChangedWindowSizeNeedsASavepointButRetentionIsSafe() {
        TopologyDiff size = TopologyDiff.between(windowed(Duration.ofMinutes(1)), windowed(Duration.ofMinutes(5)));
        assertThat(size.verdict()).isEqualTo(Verdict.NEEDS_SAVEPOINT_OR_RESET);
        assertThat(size.storesChanged())
                .extracting(TopologyDiff.StoreChange::property)
                .contains("window size ms");
        assertThat(size.incompatibleStores()).isEmpty();

        TopologyDiff ttl = TopologyDiff.between(
                describe(v1()), describe(app(false, Serdes.longs(), s -> s.withTtl(Duration.ofHours(1)))));
        assertThat(ttl.verdict()).isEqualTo(Verdict.SAFE);
        assertThat(ttl.changes()).containsExactly("store totals: ttl ms null -> 3600000");
    }

    @Test
    void aSessionAggregationRecordedWithoutItsLastClosedStoreUpgradesByARollingUpgrade() {
        TopologyDescription now = describe(b -> b.stream(Serdes.strings(), Serdes.strings(), "clicks")
                .groupByKey()
                .windowedBy(SessionWindows.withInactivityGap(Duration.ofMinutes(5)))
                .count("visits"));
        // What a Weir without <store>-last-closed recorded: the session store only, kept 1 ms longer
        TopologyDescription before = new TopologyDescription(
                now.descriptionVersion(),
                now.weirVersion(),
                now.applicationId(),
                now.subtopologies(),
                now.stores().stream()
                        .filter(st -> !st.name().equals("visits-last-closed"))
                        .map(st -> new TopologyDescription.StoreInfo(
                                st.name(),
                                st.kind(),
                                st.persistent(),
                                st.logged(),
                                st.changelogTopic(),
                                st.subtopology(),
                                st.keyFormat(),
                                st.valueFormat(),
                                st.windowSizeMs(),
                                st.retentionMs() + 1,
                                st.ttlMs()))
                        .toList());

        TopologyDiff diff = TopologyDiff.between(before, now);

        assertThat(diff.verdict()).isEqualTo(Verdict.SAFE);
        assertThat(diff.storesAdded()).containsExactly("visits-last-closed");
        assertThat(diff.changelogsAdded()).containsExactly("wc-visits-last-closed-changelog");
        assertThat(diff.changes())
                .contains("store visits-last-closed: added (key_value)", "store visits: retention ms 300001 -> 300000");
    }

    @Test
    void loggingTurnedOffOrAnUnloggedStoreMovedToMemoryNeedsASavepoint() {
        TopologyDiff unlogged = TopologyDiff.between(
                describe(v1()), describe(app(false, Serdes.longs(), KeyValueStoreBuilder::withLoggingDisabled)));
        assertThat(unlogged.verdict()).isEqualTo(Verdict.NEEDS_SAVEPOINT_OR_RESET);
        assertThat(unlogged.changelogsRemoved()).containsExactly("wc-totals-changelog");

        TopologyDiff loggedToMemory = TopologyDiff.between(
                describe(v1()), describe(app(false, Serdes.longs(), KeyValueStoreBuilder::inMemory)));
        assertThat(loggedToMemory.verdict()).isEqualTo(Verdict.SAFE);
        assertThat(loggedToMemory.changes()).containsExactly("store totals: persistent true -> false");
    }

    @Test
    void aRepartitionTopicReadByAnotherSubtopologyNeedsASavepoint() {
        // A source added first renumbers the sub-topologies after it.
        TopologyDiff diff = TopologyDiff.between(
                describe(v1()),
                describe(((Consumer<TopologyBuilder>) b -> b.stream(Serdes.strings(), Serdes.strings(), "first")
                                .to("first-out"))
                        .andThen(v1())));
        assertThat(diff.verdict()).isEqualTo(Verdict.NEEDS_SAVEPOINT_OR_RESET);
        assertThat(diff.reasons())
                .anyMatch(r -> r.startsWith(
                        "repartition topic wc-word-counts-repartition is read by" + " sub-topology 2 instead of 1"));
        assertThat(diff.reasons()).anyMatch(r -> r.startsWith("store word-counts changed its sub-topology (1 -> 2)"));
    }

    @Test
    void aRemovedRepartitionTopicNeedsASavepoint() {
        TopologyDiff diff = TopologyDiff.between(
                describe(b -> b.stream(Serdes.strings(), Serdes.strings(), "lines")
                        .groupBy((k, w) -> w, Serdes.strings(), Serdes.strings())
                        .count("word-counts")),
                describe(b -> b.stream(Serdes.strings(), Serdes.strings(), "lines")
                        .groupByKey()
                        .count("word-counts")));
        assertThat(diff.repartitionTopicsRemoved()).containsExactly("wc-word-counts-repartition");
        assertThat(diff.reasons()).anyMatch(r -> r.contains("wc-word-counts-repartition was removed"));
    }

    @Test
    void aNewWeirVersionAloneIsASafeChange() {
        TopologyDiff diff = TopologyDiff.between(describe(v1(), "1.0"), describe(v1(), "1.1"));
        assertThat(diff.identical()).isFalse();
        assertThat(diff.verdict()).isEqualTo(Verdict.SAFE);
        assertThat(diff.changes()).containsExactly("weir version: 1.0 -> 1.1");
    }

    @Test
    void descriptionSurvivesAJsonRoundTrip() {
        TopologyDescription d = describe(v1().andThen(b -> b.stream(Serdes.strings(), Serdes.strings(), "readings")
                .groupByKey()
                .windowedBy(TimeWindows.of(Duration.ofSeconds(10)))
                .count("per-10s")));
        String json = d.toJson();
        assertThat(TopologyDescription.parse(json)).isEqualTo(d);
        assertThat(TopologyDiff.between(TopologyDescription.parse(json), d).identical())
                .isTrue();
        assertThat(json)
                .contains(
                        "\"keyFormat\": \"string\"",
                        "\"valueFormat\": \"long\"",
                        "\"windowSizeMs\": 10000",
                        "\"changelogTopic\": \"wc-totals-changelog\"",
                        "\"repartitionTopicsWritten\": [ \"wc-word-counts-repartition\" ]");
        TopologyDescription.StoreInfo window = d.store("per-10s");
        assertThat(window.kind()).isEqualTo("window");
        assertThat(window.keyFormat()).isEqualTo("string");
        assertThat(d.store("totals").windowSizeMs()).isNull();
    }

    @Test
    void globalTablesAreDescribedAndEveryChangeOfThemIsSafe() {
        TopologyDescription before =
                describe(v1().andThen(b -> b.globalTable(Serdes.strings(), Serdes.strings(), "currencies", "rates")));
        assertThat(before.globalTables())
                .containsExactly(new TopologyDescription.GlobalTableInfo("rates", "currencies", "string", "string"));
        assertThat(TopologyDescription.parse(before.toJson())).isEqualTo(before);

        TopologyDescription after = describe(v1().andThen(b -> {
            b.globalTable(Serdes.strings(), Serdes.longs(), "currencies-v2", "rates");
            b.globalTable(Serdes.strings(), Serdes.strings(), "countries", "countries");
        }));
        TopologyDiff diff = TopologyDiff.between(before, after);

        assertThat(diff.verdict()).isEqualTo(Verdict.SAFE);
        assertThat(diff.changes())
                .contains(
                        "global table rates: topic currencies -> currencies-v2 (read again from its topic)",
                        "global table rates: value format string -> long (read again from its topic)",
                        "global table countries: added (topic countries)");
        assertThat(TopologyDiff.between(after, describe(v1())).changes())
                .contains("global table rates: removed", "global table countries: removed");
    }

    @Test
    void aRecordWrittenBeforeGlobalTablesWereDescribedReadsAsHavingNone() {
        String json = describe(v1()).toJson().replaceFirst(",\\s*\"globalTables\"\\s*:\\s*\\[\\s*\\]", "");
        assertThat(json).doesNotContain("globalTables");
        assertThat(TopologyDescription.parse(json).globalTables()).isEmpty();
    }

    @Test
    void parseIgnoresUnknownFieldsAndRejectsWhatIsNotADescription() {
        String json = describe(v1()).toJson().replaceFirst("\\{", "{\"fromTheFuture\": 1,");
        assertThat(TopologyDescription.parse(json)).isEqualTo(describe(v1()));
        assertThatThrownBy(() -> TopologyDescription.parse("{\"hello\": 1}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a topology description");
        assertThatThrownBy(() -> TopologyDescription.parse("not json"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a topology description");
    }

    @Test
    void builtInSerdesDeclareTheirFormats() {
        assertThat(List.of(
                        Serdes.strings(),
                        Serdes.longs(),
                        Serdes.integers(),
                        Serdes.doubles(),
                        Serdes.bytes(),
                        Serdes.uuids(),
                        Serdes.json(Long.class),
                        Serdes.windowed(Serdes.strings())))
                .extracting(Serde::formatId)
                .containsExactly("string", "long", "int", "double", "bytes", "uuid", "json", "windowed(string)");
    }
}
