package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.TopologyModels;
import io.weir.WeirApp;
import io.weir.errors.TopologyException;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.topology.TopologyDescription;
import io.weir.internal.topology.TopologyRecord;
import io.weir.processor.Stores;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.testing.TestApps;
import io.weir.testkit.KafkaExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/** Every start records the topology in {@code <app>-topology} and judges the change against the last record. */
class TopologyRecordIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(TopologyRecord.class);
    private String in;
    private String amounts;
    private String app;

    @BeforeEach
    void setUp() {
        in = KAFKA.uniqueTopic("in", 2);
        amounts = KAFKA.uniqueTopic("amounts", 2);
        app = "topo-" + in;
        KAFKA.client().createTopic(app + "-out", 1);
        logs.start();
        logger.addAppender(logs);
    }

    @AfterEach
    void tearDown() {
        logger.detachAppender(logs);
    }

    /** A stateless path, optionally with a filter, and a processor with store {@code totals} (if values is set). */
    private Topology topology(boolean filter, Serde<?> totalsValues) {
        TopologyBuilder b = new TopologyBuilder();
        var s = b.stream(Serdes.strings(), Serdes.strings(), in);
        if (filter) {
            s = s.filter((k, v) -> v != null);
        }
        s.to(app + "-out");
        if (totalsValues != null) {
            @SuppressWarnings("unchecked")
            Serde<Object> values = (Serde<Object>) totalsValues;
            b.addSource("amounts", Serdes.strings(), Serdes.strings(), amounts)
                    .addProcessor("sum", () -> record -> {}, List.of("amounts"), List.of())
                    .addStateStore(Stores.keyValueStore("totals", Serdes.strings(), values), "sum");
        }
        return b.build();
    }

    /** Starts and stops an instance: the check and the record happen in start(). */
    private void startAndStop(Topology topology) {
        WeirApp instance = TestApps.start(
                topology, TestApps.config(KAFKA.bootstrapServers(), app).build());
        instance.close(Duration.ofSeconds(10));
    }

    private TopologyDescription recorded() {
        return TopologyRecord.read(Map.of("bootstrap.servers", KAFKA.bootstrapServers()), app, Duration.ofSeconds(20))
                .orElseThrow();
    }

    private void assertRecorded(Topology topology) {
        TopologyDescription expected = TopologyDescription.of(TopologyModels.resolved(topology, app), app, "any");
        TopologyDescription actual = recorded();
        assertThat(actual.applicationId()).isEqualTo(app);
        assertThat(actual.weirVersion()).isNotBlank();
        assertThat(actual.stores()).isEqualTo(expected.stores());
        assertThat(actual.subtopologies()).isEqualTo(expected.subtopologies());
    }

    private List<ILoggingEvent> events() {
        return List.copyOf(logs.list);
    }

    @Test
    void recordsEachStartAndJudgesTheChangeSinceTheLastRecord() throws Exception {
        // v1: the first start records silently, in a compacted one-partition topic.
        Topology v1 = topology(false, Serdes.longs());
        startAndStop(v1);
        assertThat(events()).isEmpty();
        assertRecorded(v1);
        String topic = InternalTopic.TOPOLOGY.of(app);
        assertThat(KAFKA.client().describePartitions(topic)).hasSize(1);
        var configs = KAFKA.client()
                .admin()
                .describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, topic)))
                .all()
                .get()
                .values()
                .iterator()
                .next();
        assertThat(configs.get("cleanup.policy").value()).isEqualTo("compact");

        // The same again: nothing to say, and nothing to write (the record is already this version's).
        long recordsBefore = KAFKA.client().countPerPartition(topic).get(0);
        startAndStop(topology(false, Serdes.longs()));
        assertThat(events()).isEmpty();
        assertThat(KAFKA.client().countPerPartition(topic).get(0))
                .as("records in %s after a restart of the same version", topic)
                .isEqualTo(recordsBefore);

        // A stateless filter added: one INFO line.
        Topology v2 = topology(true, Serdes.longs());
        startAndStop(v2);
        assertThat(events()).singleElement().satisfies(e -> {
            assertThat(e.getLevel()).isEqualTo(Level.INFO);
            assertThat(e.getFormattedMessage())
                    .startsWith(app + ": the topology changed since the recorded version;"
                            + " safe for a rolling upgrade: node ");
        });
        assertRecorded(v2);
        logs.list.clear();

        // The store's values now strings: its kept longs would be misread, so the start fails, naming it.
        WeirApp refused = WeirApp.create(
                topology(true, Serdes.strings()),
                TestApps.config(KAFKA.bootstrapServers(), app).build());
        assertThatThrownBy(refused::start)
                .isInstanceOf(TopologyException.class)
                .hasMessageStartingWith(app + " cannot start: the state of store(s) [totals] cannot be read")
                .hasMessageContaining("value format (long -> string)");
        assertThat(refused.state()).isEqualTo(WeirApp.State.FAILED);
        assertRecorded(v2);

        // The store removed: one WARN line, and the start goes on; the record follows.
        Topology v3 = topology(true, null);
        startAndStop(v3);
        assertThat(events()).singleElement().satisfies(e -> {
            assertThat(e.getLevel()).isEqualTo(Level.WARN);
            assertThat(e.getFormattedMessage())
                    .contains("store totals was removed", "--allow-dropped-state", "weir reset", "starting anyway");
        });
        assertRecorded(v3);
    }
}
