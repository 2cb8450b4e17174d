package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.config.WeirConfig;
import io.weir.errors.SerdeException;
import io.weir.errors.ServiceUnavailableException;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.testing.TestApps;
import io.weir.testkit.KafkaExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A service the records need is down: a processor, an asynchronous call and a sink's serializer
 * fail with a {@link ServiceUnavailableException} (as the cause of what they throw), and a global
 * table's serde cannot read a row. Each time the instance fails, nothing is dead-lettered and
 * nothing past the record is committed; restarted with the service back, every record's output is
 * committed exactly once, and the global table has the row.
 */
class ServiceUnavailableIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String ADDRESS = "http://registry.test:8081";

    private static ServiceUnavailableException unavailable() {
        return new ServiceUnavailableException("schema registry " + ADDRESS + " did not answer within 2 s");
    }

    /** Where the service is needed; values starting with "x" need it. */
    enum Path {
        PROCESSOR((down, b) -> b.<String, String>process(
                () -> new Processor<String, String, String, String>() {
                    private ProcessorContext<String, String> context;

                    @Override
                    public void init(ProcessorContext<String, String> context) {
                        this.context = context;
                    }

                    @Override
                    public void process(Record<String, String> record) {
                        context.forward(record); // before the failure: must not be committed
                        if (down.get() && record.value().startsWith("x")) {
                            throw new IllegalStateException("the lookup failed", unavailable());
                        }
                    }
                },
                "lookup")),
        ASYNC_CALL((down, b) -> b.mapValuesAsync(v -> down.get() && v.startsWith("x")
                ? CompletableFuture.<String>failedFuture(unavailable())
                : CompletableFuture.completedFuture(v))),
        SINK_SERIALIZER((down, b) -> b);

        final BiFunction<
                        AtomicBoolean,
                        io.weir.dsl.RecordStream<String, String>,
                        io.weir.dsl.RecordStream<String, String>>
                step;

        Path(
                BiFunction<
                                AtomicBoolean,
                                io.weir.dsl.RecordStream<String, String>,
                                io.weir.dsl.RecordStream<String, String>>
                        step) {
            this.step = step;
        }
    }

    /** Strings; while {@code down}, a value starting with "x" can be neither written nor read. */
    private static Serde<String> needsTheService(AtomicBoolean down) {
        return new Serde<>() {
            @Override
            public byte[] serialize(String topic, String value) {
                if (down.get() && value != null && value.startsWith("x")) {
                    throw unavailable();
                }
                return Serdes.strings().serialize(topic, value);
            }

            @Override
            public String deserialize(String topic, byte[] bytes) {
                String s = Serdes.strings().deserialize(topic, bytes);
                if (down.get() && s != null && s.startsWith("x")) {
                    throw new SerdeException("cannot read " + s, unavailable());
                }
                return s;
            }
        };
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void anUnavailableServiceStopsTheInstanceAndARestartProcessesTheRecordOnce(Path path) {
        String input = KAFKA.uniqueTopic("unavailable-in", 1);
        String output = KAFKA.uniqueTopic("unavailable-out", 1);
        AtomicBoolean down = new AtomicBoolean(true);
        TopologyBuilder b = new TopologyBuilder();
        path.step
                .apply(down, b.stream(Serdes.strings(), Serdes.strings(), input))
                .to(output, Serdes.strings(), path == Path.SINK_SERIALIZER ? needsTheService(down) : Serdes.strings());
        Topology topology = b.build();
        // One state directory for both runs: the restart is the same instance.
        WeirConfig config = TestApps.config(KAFKA.bootstrapServers(), "unavailable-" + input)
                .build();
        List<String> values = List.of("g0", "g1", "x2", "g3");
        KAFKA.client()
                .produceStrings(
                        input, values.stream().map(v -> KeyValue.of("k", v)).toList());

        try (WeirApp app = TestApps.start(topology, config)) {
            assertFailedWithoutDeadLetters(app);
            assertThat(committed(output))
                    .as("g0 and g1 may have been committed before the failure; nothing from x2 on was")
                    .isIn(List.of(), List.of("g0"), List.of("g0", "g1"));
        }

        down.set(false);
        try (WeirApp app = TestApps.start(topology, config)) {
            await().atMost(WAIT).until(() -> committed(output).size() >= values.size());
            assertThat(committed(output)).as("every record's output, once").containsExactlyElementsOf(values);
            assertThat(app.state()).isEqualTo(WeirApp.State.RUNNING);
            assertThat(committed(app.config().deadLetterTopic())).isEmpty();
        }
    }

    @Test
    void aGlobalTableRowItCannotReadStopsTheInstanceAndIsReadAfterTheRestart() {
        String reference = KAFKA.uniqueTopic("unavailable-ref", 2);
        String events = KAFKA.uniqueTopic("unavailable-events", 1);
        String output = KAFKA.uniqueTopic("unavailable-joined", 1);
        AtomicBoolean down = new AtomicBoolean(true);
        TopologyBuilder b = new TopologyBuilder();
        var ref = b.globalTable(Serdes.strings(), needsTheService(down), reference, "reference");
        b.stream(Serdes.strings(), Serdes.strings(), events)
                .join(ref, (k, v) -> v, (v, r) -> v + "=" + r)
                .to(output, Serdes.strings(), Serdes.strings());
        Topology topology = b.build();
        WeirConfig config = TestApps.config(KAFKA.bootstrapServers(), "unavailable-" + reference)
                .build();
        KAFKA.client().produceStrings(reference, List.of(KeyValue.of("r0", "v0")));

        try (WeirApp app = TestApps.start(topology, config)) {
            KAFKA.client().produceStrings(events, List.of(KeyValue.of("e0", "r0")));
            await().atMost(WAIT).until(() -> committed(output).equals(List.of("r0=v0")));
            // The table's thread reads the row after its restore: it fails there, not at the start.
            KAFKA.client().produceStrings(reference, List.of(KeyValue.of("r1", "x1")));
            assertFailedWithoutDeadLetters(app);
        }

        down.set(false);
        try (WeirApp app = TestApps.start(topology, config)) {
            KAFKA.client().produceStrings(events, List.of(KeyValue.of("e1", "r1")));
            await().atMost(WAIT).until(() -> committed(output).size() >= 2);
            assertThat(committed(output))
                    .as("the row was not skipped: no checkpoint was written past it")
                    .containsExactly("r0=v0", "r1=x1");
            assertThat(committed(app.config().deadLetterTopic())).isEmpty();
        }
    }

    private static void assertFailedWithoutDeadLetters(WeirApp app) {
        await().atMost(WAIT).until(() -> app.state() == WeirApp.State.FAILED);
        assertThat(app.failure())
                .hasValueSatisfying(f -> assertThat(f)
                        .isInstanceOf(ServiceUnavailableException.class)
                        .hasMessageContaining(ADDRESS));
        assertThat(committed(app.config().deadLetterTopic())).isEmpty();
        assertThat(app.meterRegistry().find("weir.records.dead.lettered").counters().stream()
                        .mapToDouble(io.micrometer.core.instrument.Counter::count)
                        .sum())
                .isZero();
    }

    private static List<String> committed(String topic) {
        List<String> values = new ArrayList<>();
        for (ConsumerRecord<String, String> r : KAFKA.client().readAllCommittedStrings(topic, WAIT)) {
            values.add(r.value());
        }
        return values;
    }
}
