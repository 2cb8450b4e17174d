package io.weir.docs.migrating;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.config.WeirConfig;
import io.weir.serde.Serdes;
import io.weir.sink.DeliveryGuarantee;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * docs/migrating-from-kafka-streams.md: Kafka Streams' word count written for Weir, the Kafka
 * Streams calls named in comments (the docs module does not depend on Kafka Streams).
 */
class WordCountMigrationTest {

    static Topology topology() {
        // tag::word-count[]
        TopologyBuilder builder = new TopologyBuilder(); // new StreamsBuilder()
        builder.stream(Serdes.strings(), Serdes.strings(), "lines") // stream("lines", Consumed.with(...))
                .flatMapValues(line -> Arrays.asList(line.toLowerCase().split("\\W+"))) // flatMapValues
                .groupBy((key, word) -> word, Serdes.strings(), Serdes.strings()) // groupBy(..., Grouped.with(...))
                .count("word-counts") // count(Materialized.as("word-counts"))
                .toStream() // toStream()
                .to("word-counts", Serdes.strings(), Serdes.longs()); // to("word-counts", Produced.with(...))
        Topology topology = builder.build(); // builder.build()
        // end::word-count[]
        return topology;
    }

    static WeirConfig config(String... args) {
        // tag::config[]
        WeirConfig config = WeirConfig.builder()
                .applicationId("word-count") // application.id
                .bootstrapServers("localhost:9092") // bootstrap.servers
                .guarantee(DeliveryGuarantee.EXACTLY_ONCE) // processing.guarantee=exactly_once_v2 (the default here)
                .numStreamThreads(2) // num.stream.threads
                .commitInterval(Duration.ofMillis(100)) // commit.interval.ms
                .stateDir(Path.of("/var/lib/word-count")) // state.dir
                .set("num.standby.replicas", 1) // same name
                .set("producer.compression.type", "lz4") // producer.compression.type: client settings pass through
                .args(args) // --config FILE adds a properties file; WEIR_* variables override
                .build();
        // end::config[]
        return config;
    }

    static void main(String[] args) throws InterruptedException {
        // tag::run[]
        WeirApp app = WeirApp.create(topology(), config(args)); // new KafkaStreams(topology, props)
        app.runUntilShutdown(); // start(), a shutdown hook stopping on SIGTERM, and waiting
        // end::run[]
    }

    @Test
    void countsWordsAsKafkaStreamsWordCountDoes() {
        try (TestDriver driver =
                TestDriver.builder(topology()).partitions("lines", 2).build()) {
            driver.pipe("lines", "l1", "Hello Kafka Streams", 1_000);
            driver.pipe("lines", "l2", "hello Weir", 2_000);
            driver.commit();

            assertThat(driver.output("word-counts", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::key, TestRecord::value)
                    .contains(
                            org.assertj.core.groups.Tuple.tuple("hello", 2L),
                            org.assertj.core.groups.Tuple.tuple("weir", 1L));
            assertThat(driver.<String, Long>store("word-counts").get("kafka")).isEqualTo(1L);
        }
    }

    @Test
    void theConfigurationIsValid() {
        WeirConfig config = config();
        assertThat(config.applicationId()).isEqualTo("word-count");
    }
}
