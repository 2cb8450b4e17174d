package io.weir.ported;

import io.weir.WeirApp;
import io.weir.serde.Serde;
import io.weir.serde.registry.SchemaRegistry;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import io.weir.testkit.SchemaRegistryServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Avro port on a real broker and a real schema registry (testkit's Apicurio), with the inputs
 * and expected outputs of Confluent's {@code WikipediaFeedAvroLambdaExampleTest}: six edits of new
 * pages by three users, written before the application starts.
 */
class WikipediaFeedAvroIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    static SchemaRegistryServer registry;

    @BeforeAll
    static void startRegistry() {
        registry = SchemaRegistryServer.start();
    }

    @AfterAll
    static void stopRegistry() {
        if (registry != null) {
            registry.close();
        }
    }

    private static GenericRecord edit(String user, boolean isNew, String content) {
        GenericRecord r = new GenericData.Record(WikipediaFeedAvro.WIKI_FEED);
        r.put("user", user);
        r.put("is_new", isNew);
        r.put("content", content);
        return r;
    }

    @Test
    void countsNewPagesPerUser() {
        String feed = KAFKA.uniqueTopic(WikipediaFeedAvro.WIKIPEDIA_FEED, 1);
        String stats = KAFKA.uniqueTopic(WikipediaFeedAvro.WIKIPEDIA_STATS, 1);
        // The producer's serde, as the original's KafkaAvroSerializer: registers the schema.
        Serde<GenericRecord> producerSerde = WikipediaFeedAvro.feedSerde(SchemaRegistry.at(registry.url()));
        List<GenericRecord> edits = List.of(
                edit("donna", true, "first post"),
                edit("donna", true, "second post"),
                edit("donna", true, "third post"),
                edit("becca", true, "first post"),
                edit("becca", true, "second post"),
                edit("john", true, "first post"));
        KAFKA.client()
                .send(edits.stream()
                        .map(e -> new ProducerRecord<byte[], byte[]>(feed, producerSerde.serialize(feed, e)))
                        .toList());

        try (WeirApp app = WeirApp.create(
                        WikipediaFeedAvro.topology(SchemaRegistry.at(registry.url()), feed, stats),
                        Apps.config(KAFKA.bootstrapServers(), "wikipedia-" + feed)
                                .build())
                .start()) {
            Map<String, Long> expected = Map.of("donna", 3L, "becca", 2L, "john", 1L);
            // The last count per user, as the original reads them (a table's updates: see WordCountIT).
            KAFKA.client().readUntil(stats, r -> Records.lastLongPerKey(r).equals(expected), Duration.ofSeconds(60));
        }
    }
}
