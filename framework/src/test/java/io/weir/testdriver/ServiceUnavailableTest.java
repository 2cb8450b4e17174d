package io.weir.testdriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.errors.SerdeException;
import io.weir.errors.ServiceUnavailableException;
import io.weir.processor.ErrorHandler;
import io.weir.processor.FailedRecord;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.PunctuationType;
import io.weir.processor.Record;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * A {@link ServiceUnavailableException}, thrown or as a cause, is not the record's fault on any
 * path: the error handler is not asked, nothing is dead-lettered, nothing of the record is
 * committed, and the run stops with the exception, naming the record and the service.
 */
class ServiceUnavailableTest {

    private static final String ADDRESS = "http://registry.test:8081";

    /** As a registry serde's: the registry's address in the message, the cause its own. */
    private static ServiceUnavailableException unavailable() {
        return new ServiceUnavailableException(
                "schema registry " + ADDRESS + " could not be reached", new java.net.ConnectException("refused"));
    }

    /** Strings, but "down" cannot be read ({@code onRead}) or written ({@code !onRead}). */
    private static Serde<String> downOn(boolean onRead) {
        return new Serde<>() {
            @Override
            public byte[] serialize(String topic, String value) {
                if (!onRead && "down".equals(value)) {
                    throw unavailable();
                }
                return Serdes.strings().serialize(topic, value);
            }

            @Override
            public String deserialize(String topic, byte[] bytes) {
                String s = Serdes.strings().deserialize(topic, bytes);
                if (onRead && "down".equals(s)) {
                    // Wrapped, as a serde may: the cause is what counts.
                    throw new SerdeException("cannot read", unavailable());
                }
                return s;
            }
        };
    }

    /** Forwards the record, then throws for "down": the forward must not be committed. */
    private static final class ForwardThenCall implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> context;

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
        }

        @Override
        public void process(Record<String, String> record) {
            context.forward(record);
            if (record.value().equals("down")) {
                throw new IllegalStateException("the lookup failed", unavailable());
            }
        }
    }

    private final List<FailedRecord> asked = new ArrayList<>();
    private final ErrorHandler recording = f -> {
        asked.add(f);
        return io.weir.processor.ErrorResponse.deadLetter();
    };

    private TestDriver driver(Consumer<TopologyBuilder> topology) {
        TopologyBuilder b = new TopologyBuilder();
        topology.accept(b);
        Topology t = b.build();
        return TestDriver.builder(t).inMemoryStores().errorHandler(recording).build();
    }

    private void assertStops(TestDriver driver, ThrowingCallable piping, String record) {
        assertThatThrownBy(piping)
                .isInstanceOf(ServiceUnavailableException.class)
                .hasMessageContaining(record)
                .hasMessageContaining(ADDRESS)
                .hasRootCauseInstanceOf(java.net.ConnectException.class);
        assertThat(asked).as("the error handler is not asked").isEmpty();
        assertThat(driver.deadLetters()).as("nothing is dead-lettered").isEmpty();
        assertThat(driver.allOutput("out", Serdes.strings(), Serdes.strings()))
                .extracting(TestRecord::value)
                .as("nothing of the record is committed")
                .containsExactly("up");
    }

    @Test
    void aProcessorsFailureStops() {
        try (TestDriver driver = driver(b -> b.stream(Serdes.strings(), Serdes.strings(), "in")
                .<String, String>process(ForwardThenCall::new, "call")
                .to("out", Serdes.strings(), Serdes.strings()))) {
            driver.pipe("in", "k", "up", 1);
            assertStops(driver, () -> driver.pipe("in", "k", "down", 2), "record in-0@1 could not process");
        }
    }

    @Test
    void aSourceDeserializersFailureStops() {
        try (TestDriver driver = driver(
                b -> b.stream(Serdes.strings(), downOn(true), "in").to("out", Serdes.strings(), Serdes.strings()))) {
            driver.pipe("in", "k", "up", 1);
            assertStops(
                    driver,
                    () -> driver.input("in", Serdes.strings(), Serdes.strings()).pipe("k", "down", 2),
                    "record in-0@1 could not deserialize");
        }
    }

    @Test
    void aSinkSerializersFailureStops() {
        try (TestDriver driver = driver(
                b -> b.stream(Serdes.strings(), Serdes.strings(), "in").to("out", Serdes.strings(), downOn(false)))) {
            driver.pipe("in", "k", "up", 1);
            assertStops(driver, () -> driver.pipe("in", "k", "down", 2), "record in-0@1 could not produce");
        }
    }

    @Test
    void anAsynchronousCallsFailureStopsWhateverTheStepsOnFailure() {
        try (TestDriver driver = driver(b -> b.stream(Serdes.strings(), Serdes.strings(), "in")
                .mapValuesAsync(v -> v.equals("down")
                        ? CompletableFuture.failedFuture(unavailable())
                        : CompletableFuture.completedFuture(v))
                .to("out", Serdes.strings(), Serdes.strings()))) {
            driver.pipe("in", "k", "up", 1);
            assertStops(driver, () -> driver.pipe("in", "k", "down", 2), "record in-0@1 could not call");
            assertThat(driver.meterRegistry()
                            .find("weir.async.failed")
                            .tags("action", "dead_letter")
                            .counter())
                    .satisfiesAnyOf(
                            c -> assertThat(c).isNull(),
                            c -> assertThat(c.count()).isZero());
        }
    }

    @Test
    void whatACompletedCallForwardsStops() {
        try (TestDriver driver = driver(b -> b.stream(Serdes.strings(), Serdes.strings(), "in")
                .mapValuesAsync(CompletableFuture::completedFuture)
                .to("out", Serdes.strings(), downOn(false)))) {
            driver.pipe("in", "k", "up", 1);
            assertStops(driver, () -> driver.pipe("in", "k", "down", 2), "record in-0@1 could not produce");
        }
    }

    @Test
    void aTimersFailureStopsAsItself() {
        try (TestDriver driver = driver(b -> b.stream(Serdes.strings(), Serdes.strings(), "in")
                .<String, String>process(
                        () -> new Processor<String, String, String, String>() {
                            private ProcessorContext<String, String> context;

                            @Override
                            public void init(ProcessorContext<String, String> context) {
                                this.context = context;
                                context.schedule(Duration.ofSeconds(1), PunctuationType.WALL_CLOCK, now -> {
                                    context.forward(new Record<>("k", "down", now));
                                });
                            }

                            @Override
                            public void process(Record<String, String> record) {
                                context.forward(record);
                            }
                        },
                        "timer")
                .to("out", Serdes.strings(), downOn(false)))) {
            driver.pipe("in", "k", "up", 1);
            assertThatThrownBy(() -> driver.advanceWallClock(Duration.ofSeconds(2)))
                    .isInstanceOf(ServiceUnavailableException.class)
                    .hasMessageContaining(ADDRESS);
            assertThat(asked).isEmpty();
            assertThat(driver.deadLetters()).isEmpty();
        }
    }

    @Test
    void aGlobalTablesUpdateStopsRatherThanDeadLetter() {
        try (TestDriver driver = driver(b -> {
            var ref = b.globalTable(Serdes.strings(), downOn(true), "ref", "ref");
            b.stream(Serdes.strings(), Serdes.strings(), "in")
                    .join(ref, (k, v) -> v, (v, r) -> r)
                    .to("out", Serdes.strings(), Serdes.strings());
        })) {
            driver.pipe("ref", "r", "up", 1);
            driver.pipe("in", "k", "r", 2);
            assertStops(
                    driver,
                    () -> driver.input("ref", Serdes.strings(), Serdes.strings())
                            .pipe("r2", "down", 3),
                    "record ref-0@1 could not deserialize");
        }
    }
}
