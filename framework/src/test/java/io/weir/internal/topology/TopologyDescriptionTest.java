package io.weir.internal.topology;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.weir.TopologyBuilder;
import io.weir.serde.Serdes;
import io.weir.testing.WordCount;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The topology document across Weir versions: the record lives in a compacted topic through upgrades. */
class TopologyDescriptionTest {

    /** What the version before the one shape recorded for {@link #wordCount()}, as it wrote it. */
    private static final String PREVIOUS_SHAPE = """
            {
              "descriptionVersion" : 1,
              "weirVersion" : "0.1.0-SNAPSHOT",
              "applicationId" : "wc",
              "subtopologies" : [ {
                "id" : 0,
                "sourceTopics" : [ "lines" ],
                "sourcePatterns" : [ ],
                "repartitionTopicsRead" : [ ],
                "repartitionTopicsWritten" : [ "wc-word-counts-repartition" ],
                "sinkTopics" : [ ],
                "nodes" : [ "source-0", "flat-map-values-1", "group-by-2", "word-counts-repartition-sink" ]
              }, {
                "id" : 1,
                "sourceTopics" : [ ],
                "sourcePatterns" : [ ],
                "repartitionTopicsRead" : [ "wc-word-counts-repartition" ],
                "repartitionTopicsWritten" : [ ],
                "sinkTopics" : [ "counts" ],
                "nodes" : [ "word-counts-repartition-source", "word-counts-aggregate", "sink-3" ]
              } ],
              "stores" : [ {
                "name" : "word-counts",
                "kind" : "key_value",
                "persistent" : true,
                "logged" : true,
                "changelogTopic" : "wc-word-counts-changelog",
                "subtopology" : 1,
                "keyFormat" : "string",
                "valueFormat" : "long"
              } ]
            }
            """;

    private static Consumer<TopologyBuilder> wordCount() {
        return b -> WordCount.addTo(b, "counts");
    }

    @Test
    void aRecordOfThePreviousShapeReadsAndMatchesTheSameTopologyToday() {
        TopologyDescription previous = TopologyDescription.parse(PREVIOUS_SHAPE);
        TopologyDescription current = TopologyDiffTest.describe(wordCount(), "0.1.0-SNAPSHOT");

        assertThat(previous.subtopologies())
                .allSatisfy(st -> assertThat(st.graph()).isEmpty());
        assertThat(previous.stores()).isEqualTo(current.stores());
        assertThat(previous.subtopologies())
                .extracting(TopologyDescription.SubtopologyInfo::nodes)
                .isEqualTo(current.subtopologies().stream()
                        .map(TopologyDescription.SubtopologyInfo::nodes)
                        .toList());
        assertThat(TopologyDiff.between(previous, current).identical()).isTrue();
        assertThat(TopologyRecord.judge("wc", previous, current).level()).isEqualTo(TopologyRecord.Level.SILENT);
        // Derived from what the old record has, so shown as today.
        assertThat(previous.internalTopics()).isEqualTo(current.internalTopics());
    }

    @Test
    void thePreviousVersionReadsTheDocumentWrittenToday() {
        // The previous version's classes and mapper, as they were: every field it knew keeps its type.
        record SubtopologyInfo(
                int id,
                List<String> sourceTopics,
                List<String> sourcePatterns,
                List<String> repartitionTopicsRead,
                List<String> repartitionTopicsWritten,
                List<String> sinkTopics,
                List<String> nodes) {}
        record StoreInfo(
                String name,
                String kind,
                boolean persistent,
                boolean logged,
                String changelogTopic,
                Integer subtopology,
                String keyFormat,
                String valueFormat,
                Long windowSizeMs,
                Long retentionMs,
                Long ttlMs) {}
        record Previous(
                int descriptionVersion,
                String weirVersion,
                String applicationId,
                List<SubtopologyInfo> subtopologies,
                List<StoreInfo> stores) {}
        ObjectMapper previousMapper = new ObjectMapper()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        TopologyDescription current = TopologyDiffTest.describe(wordCount(), "0.1.0-SNAPSHOT");

        Previous readToday;
        Previous readThen;
        try {
            readToday = previousMapper.readValue(current.toJson(), Previous.class);
            readThen = previousMapper.readValue(PREVIOUS_SHAPE, Previous.class);
        } catch (Exception e) {
            throw new AssertionError(e);
        }

        // It reads today's document as it read its own, so its start-up check keeps working.
        assertThat(readToday).isEqualTo(readThen);
        assertThat(readToday.subtopologies().get(1).nodes())
                .containsExactly("word-counts-repartition-source", "word-counts-aggregate", "sink-3");
    }

    @Test
    void aDocumentReadBackIsTheSameDocument() {
        TopologyDescription d = TopologyDiffTest.describe(wordCount(), "0.1.0");
        assertThat(TopologyDescription.parse(d.toJson())).isEqualTo(d);
        assertThat(TopologyDescription.parse(d.toJson()).toJson()).isEqualTo(d.toJson());
    }

    @Test
    void aTableWhoseSourceTopicIsItsChangelogShowsTheTopicMarkedAsASourceAndNotAsAnInternalTopic() {
        TopologyDescription d = TopologyDiffTest.describe(
                b -> b.table(Serdes.strings(), Serdes.strings(), "customers", "customers"), "0.1.0");
        TopologyDescription.StoreInfo store = d.stores().get(0);
        assertThat(store.changelogTopic()).isEqualTo("customers");
        assertThat(store.changelogIsSourceTopic()).isTrue();
        assertThat(d.internalTopics()).noneMatch(t -> t.name().equals("customers"));
        assertThat(d.toJson()).containsPattern("\"changelogIsSourceTopic\" ?: true");
        assertThat(TopologyDescription.parse(d.toJson())).isEqualTo(d);

        TopologyDescription own = TopologyDiffTest.describe(
                b -> b.stream(Serdes.strings(), Serdes.strings(), "customers").toTable("customers"), "0.1.0");
        assertThat(own.stores().get(0).changelogIsSourceTopic()).isNull();
        assertThat(own.toJson()).doesNotContain("changelogIsSourceTopic");
    }
}
