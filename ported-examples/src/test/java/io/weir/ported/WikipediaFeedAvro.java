package io.weir.ported;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.common.KeyValue;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.serde.registry.RegistrySerdeOptions;
import io.weir.serde.registry.RegistrySerdes;
import io.weir.serde.registry.SchemaRegistry;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Confluent's {@code WikipediaFeedAvroLambdaExample}: Wikipedia edits as Avro records in the
 * schema registry's wire format; the edits of new pages counted per user.
 *
 * <p>The original reads specific records of a generated class ({@code WikiFeed}); here they are
 * generic records of the same schema, read with Weir's registry serdes ({@code weir-serde-registry}).
 */
final class WikipediaFeedAvro {

    static final String WIKIPEDIA_FEED = "WikipediaFeed";
    static final String WIKIPEDIA_STATS = "WikipediaStats";

    /** The edits' schema: who edited, whether the page is new, and the text. */
    static final Schema WIKI_FEED = new Schema.Parser()
            .parse("{\"type\":\"record\",\"name\":\"WikiFeed\",\"namespace\":\"io.weir.ported\",\"fields\":["
                    + "{\"name\":\"user\",\"type\":\"string\"},"
                    + "{\"name\":\"is_new\",\"type\":\"boolean\"},"
                    + "{\"name\":\"content\",\"type\":\"string\"}]}");

    private WikipediaFeedAvro() {}

    static Serde<GenericRecord> feedSerde(SchemaRegistry registry) {
        return RegistrySerdes.avro(registry, RegistrySerdeOptions.values());
    }

    static Topology topology(SchemaRegistry registry, String feed, String stats) {
        Serde<GenericRecord> edits = feedSerde(registry);
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), edits, feed)
                .filter((ignored, edit) -> (Boolean) edit.get("is_new"))
                .map((ignored, edit) -> KeyValue.of(edit.get("user").toString(), edit))
                .withSerdes(Serdes.strings(), edits)
                .groupByKey()
                .count("new-pages-per-user")
                .toStream()
                .to(stats, Serdes.strings(), Serdes.longs());
        return b.build();
    }
}
