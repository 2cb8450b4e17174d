package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.errors.SerdeException;
import io.weir.processor.ErrorHandler;
import io.weir.processor.ErrorResponse;
import io.weir.processor.Headers;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.testing.TestApps;
import io.weir.testkit.KafkaExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The error handler against a real broker, at each stage: a record that cannot be read
 * (deserialize), one whose processor throws after forwarding (process), and one whose second output
 * cannot be serialized (produce). Each is skipped, dead-lettered with the handler's headers, or
 * stops the application, as the handler decides; the outputs of every other record are committed
 * exactly once and nothing of a failed record leaks. A global table's unreadable rows go the same
 * three ways.
 */
class ErrorHandlerIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration WAIT = Duration.ofSeconds(60);

    /** Reads strings, except values starting with "undecodable". */
    private static final Serde<String> GUARDED_IN = new Serde<>() {
        @Override
        public byte[] serialize(String topic, String value) {
            return Serdes.strings().serialize(topic, value);
        }

        @Override
        public String deserialize(String topic, byte[] bytes) {
            String s = Serdes.strings().deserialize(topic, bytes);
            if (s != null && s.startsWith("undecodable")) {
                throw new SerdeException("cannot decode " + s, null);
            }
            return s;
        }
    };

    /** Writes strings, except the second output of a value starting with "unsendable". */
    private static final Serde<String> GUARDED_OUT = new Serde<>() {
        @Override
        public byte[] serialize(String topic, String value) {
            if (value != null && value.startsWith("unsendable") && value.endsWith("-2")) {
                throw new IllegalArgumentException("cannot encode " + value);
            }
            return Serdes.strings().serialize(topic, value);
        }

        @Override
        public String deserialize(String topic, byte[] bytes) {
            return Serdes.strings().deserialize(topic, bytes);
        }
    };

    /** Forwards "v-1", then throws for values starting with "explode", else forwards "v-2". */
    private static final class TwoOutputs implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> context;

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
        }

        @Override
        public void process(Record<String, String> record) {
            context.forward(record.withValue(record.value() + "-1"));
            if (record.value().startsWith("explode")) {
                throw new IllegalStateException("exploded on " + record.value());
            }
            context.forward(record.withValue(record.value() + "-2"));
        }
    }

    /** Decides by the value's suffix: ":skip", ":dlq" (with headers saying what it saw) or ":fail". */
    private static final ErrorHandler BY_SUFFIX = failed -> {
        String value = new String(failed.value(), StandardCharsets.UTF_8);
        if (value.endsWith(":skip")) {
            return ErrorResponse.skip();
        }
        if (value.endsWith(":dlq")) {
            return ErrorResponse.deadLetter(Headers.empty()
                    .with("handled.stage", failed.stage().name())
                    .with("handled.processor", failed.processor()));
        }
        return ErrorResponse.fail();
    };

    private static Topology topology(String input, String output) {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), GUARDED_IN, input)
                .<String, String>process(TwoOutputs::new, "two-outputs")
                .to(output, Serdes.strings(), GUARDED_OUT);
        return b.build();
    }

    private static WeirApp start(String input, String output, String id) {
        return TestApps.start(
                topology(input, output),
                TestApps.config(KAFKA.bootstrapServers(), id)
                        .errorHandler(BY_SUFFIX)
                        .build());
    }

    @Test
    void eachStageSkipsOrDeadLettersAsTheHandlerSaysAndOutputsStayExactlyOnce() {
        String input = KAFKA.uniqueTopic("handled-in", 1);
        String output = KAFKA.uniqueTopic("handled-out", 1);
        List<String> values = new ArrayList<>();
        List<String> failing = List.of(
                "undecodable:skip",
                "undecodable:dlq",
                "explode:skip",
                "explode:dlq",
                "unsendable:skip",
                "unsendable:dlq");
        for (int i = 0; i < 12; i++) {
            values.add("g" + i);
            if (i % 2 == 1) {
                values.add(failing.get(i / 2));
            }
        }
        KAFKA.client()
                .produceStrings(
                        input, values.stream().map(v -> KeyValue.of("k", v)).toList());

        try (WeirApp app = start(input, output, "handled-" + input)) {
            // Counted at their commits: once all six are, every record before them was committed too.
            for (String stage : List.of("deserialize", "process", "produce")) {
                for (String action : List.of("continue", "dead_letter")) {
                    await().atMost(WAIT).until(() -> failed(app, stage, action) >= 1.0);
                }
            }
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                expected.add("g" + i + "-1");
                expected.add("g" + i + "-2");
            }
            await().atMost(WAIT)
                    .until(() ->
                            KAFKA.client().readAllCommittedStrings(output, WAIT).size() >= expected.size());
            assertThat(KAFKA.client().readAllCommittedStrings(output, WAIT))
                    .extracting(ConsumerRecord::value)
                    .as("every good record's outputs once, none of a failed one's")
                    .containsExactlyElementsOf(expected);

            List<ConsumerRecord<byte[], byte[]>> dead =
                    KAFKA.client().readAtLeast(app.config().deadLetterTopic(), 3, WAIT);
            assertThat(dead).hasSize(3);
            Map<String, ConsumerRecord<byte[], byte[]>> byStage = dead.stream()
                    .collect(Collectors.toMap(r -> AbortIT.header(r, "weir.error.stage"), Function.identity()));
            assertThat(byStage.keySet()).containsExactlyInAnyOrder("deserialize", "process", "produce");
            assertThat(AbortIT.header(byStage.get("deserialize"), "handled.stage"))
                    .isEqualTo("DESERIALIZE");
            assertThat(AbortIT.header(byStage.get("process"), "handled.stage")).isEqualTo("PROCESS");
            assertThat(AbortIT.header(byStage.get("process"), "handled.processor"))
                    .isEqualTo("two-outputs");
            assertThat(AbortIT.header(byStage.get("produce"), "handled.stage")).isEqualTo("PRODUCE");
            assertThat(AbortIT.header(byStage.get("produce"), "handled.processor"))
                    .isNotEmpty()
                    .isNotEqualTo("two-outputs");
            for (ConsumerRecord<byte[], byte[]> r : dead) {
                assertThat(new String(r.value(), StandardCharsets.UTF_8)).endsWith(":dlq");
                assertThat(AbortIT.header(r, "weir.source.topic")).isEqualTo(input);
            }
            for (String stage : List.of("deserialize", "process", "produce")) {
                assertThat(failed(app, stage, "continue")).as(stage).isEqualTo(1.0);
                assertThat(failed(app, stage, "dead_letter")).as(stage).isEqualTo(1.0);
            }
            assertThat(app.meterRegistry()
                            .get("weir.records.dead.lettered")
                            .counter()
                            .count())
                    .isEqualTo(3.0);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"undecodable", "explode", "unsendable"})
    void aFailDecisionStopsTheApplicationAndNothingOfTheRecordIsCommitted(String kind) {
        String input = KAFKA.uniqueTopic("failing-in", 1);
        String output = KAFKA.uniqueTopic("failing-out", 1);
        KAFKA.client()
                .produceStrings(
                        input,
                        List.of(KeyValue.of("k", "g0"), KeyValue.of("k", kind + ":fail"), KeyValue.of("k", "g1")));
        try (WeirApp app = start(input, output, "failing-" + input)) {
            await().atMost(WAIT).until(() -> app.state() == WeirApp.State.FAILED);
            assertThat(app.failure())
                    .get()
                    .extracting(Throwable::toString)
                    .asString()
                    .contains("decided FAIL")
                    .contains(input + "-0@1");
            // g0 may have been committed before the failure, or aborted with it; nothing else was.
            List<String> out = KAFKA.client().readAllCommittedStrings(output, WAIT).stream()
                    .map(ConsumerRecord::value)
                    .toList();
            assertThat(out).isIn(List.of(), List.of("g0-1", "g0-2"));
            assertThat(KAFKA.client().readAllCommittedStrings(app.config().deadLetterTopic(), WAIT))
                    .isEmpty();
        }
    }

    @Test
    void aGlobalTablesUnreadableRowIsSkippedDeadLetteredOrStopsTheInstanceAsTheHandlerSays() {
        String rates = KAFKA.uniqueTopic("handled-rates", 1);
        String orders = KAFKA.uniqueTopic("handled-orders", 1);
        String output = KAFKA.uniqueTopic("handled-rated", 1);
        KAFKA.client()
                .produceStrings(
                        rates,
                        List.of(
                                KeyValue.of("r1", "undecodable:dlq"),
                                KeyValue.of("r2", "undecodable:skip"),
                                KeyValue.of("r3", "three")));
        KAFKA.client().produceStrings(orders, List.of(KeyValue.of("o1", "r1"), KeyValue.of("o3", "r3")));
        TopologyBuilder b = new TopologyBuilder();
        var table = b.globalTable(Serdes.strings(), GUARDED_IN, rates, "rates");
        b.stream(Serdes.strings(), Serdes.strings(), orders)
                .join(table, (order, rate) -> rate, (rate, value) -> rate + "=" + value)
                .to(output, Serdes.strings(), Serdes.strings());

        try (WeirApp app = TestApps.start(
                b.build(),
                TestApps.config(KAFKA.bootstrapServers(), "handled-" + rates)
                        .errorHandler(BY_SUFFIX)
                        .build())) {
            assertThat(KAFKA.client().readStringsAtLeast(output, 1, WAIT))
                    .extracting(ConsumerRecord::value)
                    .as("the readable row joined; the unreadable ones are no rows")
                    .containsExactly("r3=three");
            List<ConsumerRecord<byte[], byte[]>> dead =
                    KAFKA.client().readAtLeast(app.config().deadLetterTopic(), 1, WAIT);
            assertThat(dead).singleElement().satisfies(r -> {
                assertThat(new String(r.value(), StandardCharsets.UTF_8)).isEqualTo("undecodable:dlq");
                assertThat(AbortIT.header(r, "handled.stage")).isEqualTo("DESERIALIZE");
                assertThat(AbortIT.header(r, "handled.processor")).isEqualTo("rates");
                assertThat(AbortIT.header(r, "weir.source.topic")).isEqualTo(rates);
            });
            for (String action : List.of("continue", "dead_letter")) {
                assertThat(app.meterRegistry()
                                .get("weir.records.failed")
                                .tags("thread", "weir-global", "stage", "deserialize", "action", action)
                                .counter()
                                .count())
                        .as(action)
                        .isEqualTo(1.0);
            }

            KAFKA.client().produceStrings(rates, List.of(KeyValue.of("r4", "undecodable:fail")));
            await().atMost(WAIT).until(() -> app.state() == WeirApp.State.FAILED);
            assertThat(app.failure())
                    .hasValueSatisfying(e -> assertThat(e.toString())
                            .contains(rates + "-0@3", "failed to deserialize", "the error handler"));
        }
    }

    private static double failed(WeirApp app, String stage, String action) {
        Counter c = app.meterRegistry()
                .find("weir.records.failed")
                .tags("stage", stage, "action", action)
                .counter();
        return c == null ? 0 : c.count();
    }
}
