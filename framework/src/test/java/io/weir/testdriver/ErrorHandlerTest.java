package io.weir.testdriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Counter;
import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.config.WeirConfig;
import io.weir.errors.ProcessingException;
import io.weir.processor.ErrorHandler;
import io.weir.processor.ErrorResponse;
import io.weir.processor.ErrorStage;
import io.weir.processor.FailedRecord;
import io.weir.processor.Headers;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import io.weir.serde.Serdes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The error handler decides per failed record, in the test driver as in production: skip
 * (CONTINUE), dead-letter with its own headers, or fail; a handler that throws fails, naming itself.
 */
class ErrorHandlerTest {

    /** Forwards its input, then fails on "boom": the forward must never become visible. */
    private static final class ForwardThenFail implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> context;

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
        }

        @Override
        public void process(Record<String, String> record) {
            context.forward(record.withValue(record.value() + "-out"));
            if (record.value().equals("boom")) {
                throw new IllegalStateException("cannot handle boom");
            }
        }
    }

    private static Topology forwardThenFail() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .<String, String>process(ForwardThenFail::new, "forward-then-fail")
                .to("out", Serdes.strings(), Serdes.strings());
        return b.build();
    }

    /** Remembers what it was asked and answers {@code response}. */
    private static final class Recording implements ErrorHandler {
        final List<FailedRecord> asked = new ArrayList<>();
        final ErrorResponse response;

        Recording(ErrorResponse response) {
            this.response = response;
        }

        @Override
        public ErrorResponse handle(FailedRecord failed) {
            asked.add(failed);
            return response;
        }
    }

    private static double failed(TestDriver driver, String stage, String action) {
        Counter c = driver.meterRegistry()
                .find("weir.records.failed")
                .tags("stage", stage, "action", action)
                .counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void aSkippedRecordLeavesNoOutputEvenWhenItForwardedBeforeFailing() {
        Recording handler = new Recording(ErrorResponse.skip());
        try (TestDriver driver = TestDriver.builder(forwardThenFail())
                .commitEvery(3)
                .inMemoryStores()
                .errorHandler(handler)
                .build()) {
            driver.pipe("in", 0, "k", "a", 10);
            driver.pipe("in", 0, "k", "boom", 20, Headers.empty().with("trace", "t-9"));
            driver.pipe("in", 0, "k", "b", 30);

            assertThat(driver.allOutput("out", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("a-out", "b-out");
            assertThat(driver.deadLetters()).isEmpty();
            // Asked once: the replay after the abort carries out the decision without asking again.
            assertThat(handler.asked).singleElement().satisfies(f -> {
                assertThat(f.stage()).isEqualTo(ErrorStage.PROCESS);
                assertThat(f.processor()).isEqualTo("forward-then-fail");
                assertThat(f.topic()).isEqualTo("in");
                assertThat(f.partition()).isZero();
                assertThat(f.offset()).isEqualTo(1);
                assertThat(f.timestamp()).isEqualTo(20);
                assertThat(new String(f.value(), StandardCharsets.UTF_8)).isEqualTo("boom");
                assertThat(f.headers().lastString("trace")).isEqualTo("t-9");
                assertThat(f.processed())
                        .hasValueSatisfying(r -> assertThat(r.value()).isEqualTo("boom"));
                assertThat(f.error()).isInstanceOf(IllegalStateException.class).hasMessage("cannot handle boom");
            });
            assertThat(failed(driver, "process", "continue")).isEqualTo(1.0);
            assertThat(failed(driver, "process", "dead_letter")).isZero();
        }
    }

    @Test
    void aDeadLetterCarriesTheHandlersHeadersBeforeWeirsOwn() {
        ErrorHandler handler = f -> ErrorResponse.deadLetter(
                Headers.empty().with("team", "payments").with("weir.error.stage", "forged"));
        try (TestDriver driver = TestDriver.builder(forwardThenFail())
                .inMemoryStores()
                .errorHandler(handler)
                .build()) {
            driver.pipe("in", "k", "boom", 20);
            driver.pipe("in", "k", "b", 30);
            assertThat(driver.allOutput("out", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("b-out");
            assertThat(driver.deadLetters()).singleElement().satisfies(letter -> {
                assertThat(letter.headers().lastString("team")).isEqualTo("payments");
                // Weir's headers come last: a reader of the last value gets the real stage.
                assertThat(letter.headers().lastString("weir.error.stage")).isEqualTo("process");
                assertThat(letter.headers().lastString("weir.source.offset")).isEqualTo("0");
            });
            assertThat(failed(driver, "process", "dead_letter")).isEqualTo(1.0);
            assertThat(driver.meterRegistry()
                            .get("weir.records.dead.lettered")
                            .counter()
                            .count())
                    .isEqualTo(1.0);
        }
    }

    @Test
    void eachStageTellsTheHandlerWhereTheRecordFailed() {
        Recording handler = new Recording(ErrorResponse.skip());
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.longs(), "numbers")
                .mapValues(n -> n * 2)
                .to(r -> r.value() < 0 ? "missing" : "doubled", Serdes.strings(), Serdes.longs());
        try (TestDriver driver = TestDriver.builder(b.build())
                .partitions("doubled", 1)
                .inMemoryStores()
                .errorHandler(handler)
                .build()) {
            driver.input("numbers", Serdes.strings(), Serdes.bytes()).pipe("k", new byte[] {1, 2}, 5);
            driver.pipe("numbers", "k", -1L, 6);
            driver.pipe("numbers", "k", 21L, 7);
            assertThat(driver.output("doubled", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::value)
                    .containsExactly(42L);
            assertThat(handler.asked).hasSize(2);
            FailedRecord unreadable = handler.asked.get(0);
            assertThat(unreadable.stage()).isEqualTo(ErrorStage.DESERIALIZE);
            assertThat(unreadable.processor()).isNotEmpty();
            assertThat(unreadable.processed()).isEmpty();
            FailedRecord unsendable = handler.asked.get(1);
            assertThat(unsendable.stage()).isEqualTo(ErrorStage.PRODUCE);
            assertThat(unsendable.processor()).isNotEqualTo(unreadable.processor());
            assertThat(unsendable.processed())
                    .hasValueSatisfying(r -> assertThat(r.value()).isEqualTo(-2L));
            assertThat(unsendable.offset()).isEqualTo(1);
            assertThat(failed(driver, "deserialize", "continue")).isEqualTo(1.0);
            assertThat(failed(driver, "produce", "continue")).isEqualTo(1.0);
        }
    }

    @Test
    void aHandlerThatFailsStopsTheDriverNamingTheHandler() {
        ErrorHandler handler = f -> ErrorResponse.fail();
        try (TestDriver driver = TestDriver.builder(forwardThenFail())
                .inMemoryStores()
                .errorHandler(handler)
                .build()) {
            driver.pipe("in", "k", "a", 1);
            assertThatThrownBy(() -> driver.pipe("in", "k", "boom", 2))
                    .isInstanceOf(ProcessingException.class)
                    .hasMessageContaining(
                            "the error handler " + handler.getClass().getName() + " decided FAIL")
                    .hasRootCauseMessage("cannot handle boom");
            assertThat(driver.allOutput("out", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("a-out");
        }
    }

    @Test
    void aHandlerThatThrowsCountsAsFailAndLosesNothing() {
        ErrorHandler handler = f -> {
            throw new IllegalArgumentException("handler bug");
        };
        try (TestDriver driver = TestDriver.builder(forwardThenFail())
                .inMemoryStores()
                .errorHandler(handler)
                .build()) {
            assertThatThrownBy(() -> driver.pipe("in", "k", "boom", 2))
                    .isInstanceOf(ProcessingException.class)
                    .hasMessageContaining(
                            "the error handler " + handler.getClass().getName() + " threw")
                    .hasMessageContaining("handler bug")
                    .hasRootCauseMessage("cannot handle boom");
            assertThat(driver.allOutput("out", Serdes.strings(), Serdes.strings()))
                    .isEmpty();
            assertThat(driver.deadLetters()).isEmpty();
        }
    }

    @Test
    void theHandlerOfAWeirConfigReachesTheDriverAndReplacesErrorMode() {
        Recording handler = new Recording(ErrorResponse.skip());
        WeirConfig config = WeirConfig.builder()
                .applicationId("handled")
                .bootstrapServers("unused:9092")
                .set("error.mode", "fail")
                .errorHandler(handler)
                .build();
        assertThat(config.errorHandler()).isSameAs(handler);
        try (TestDriver driver = TestDriver.builder(forwardThenFail())
                .config(config)
                .inMemoryStores()
                .build()) {
            driver.pipe("in", "k", "boom", 2);
            driver.pipe("in", "k", "b", 3);
            assertThat(driver.allOutput("out", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("b-out");
            assertThat(handler.asked).hasSize(1);
        }
    }

    @Test
    void errorModeIsTheDefaultHandler() {
        WeirConfig.Builder b = WeirConfig.builder().applicationId("a").bootstrapServers("unused:9092");
        assertThat(b.build().errorHandler()).isSameAs(ErrorHandler.deadLetter());
        assertThat(b.set("error.mode", "fail").build().errorHandler()).isSameAs(ErrorHandler.fail());
    }

    @Test
    void onlyADeadLetterCarriesHeaders() {
        assertThatThrownBy(() -> new ErrorResponse(
                        ErrorResponse.Action.CONTINUE, Headers.empty().with("a", "b")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("only a dead letter carries headers");
    }

    /** Orders priced from the global table "prices" (a long per product). */
    private static Topology pricedOrders() {
        TopologyBuilder b = new TopologyBuilder();
        var prices = b.globalTable(Serdes.strings(), Serdes.longs(), "prices", "prices");
        b.stream(Serdes.strings(), Serdes.strings(), "orders")
                .join(prices, (k, product) -> product, (product, price) -> product + "=" + price)
                .to("priced", Serdes.strings(), Serdes.strings());
        return b.build();
    }

    /** A price the long serde cannot read: one byte, not eight. */
    private static void pipeBadPrice(TestDriver driver) {
        driver.input("prices", Serdes.strings(), Serdes.strings()).pipe("p-1", "x", 5);
    }

    @Test
    void aGlobalTablesUnreadableRecordIsTheHandlersToDecide() {
        Recording skip = new Recording(ErrorResponse.skip());
        try (TestDriver driver =
                TestDriver.builder(pricedOrders()).errorHandler(skip).build()) {
            pipeBadPrice(driver);
            driver.pipe("prices", "p-2", 7L, 6);
            driver.pipe("orders", "o-1", "p-2", 10);
            assertThat(driver.allOutput("priced", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("p-2=7");
            assertThat(driver.deadLetters()).isEmpty();
            assertThat(skip.asked).singleElement().satisfies(f -> {
                assertThat(f.stage()).isEqualTo(ErrorStage.DESERIALIZE);
                assertThat(f.processor()).isEqualTo("prices");
                assertThat(f.task()).as("no task reads a global table").isNull();
                assertThat(f.topic()).isEqualTo("prices");
                assertThat(new String(f.value(), StandardCharsets.UTF_8)).isEqualTo("x");
            });
            assertThat(driver.meterRegistry()
                            .get("weir.records.failed")
                            .tags("thread", "weir-global", "stage", "deserialize", "action", "continue")
                            .counter()
                            .count())
                    .isEqualTo(1.0);
        }

        ErrorHandler deadLetter = f -> ErrorResponse.deadLetter(Headers.empty().with("team", "pricing"));
        try (TestDriver driver =
                TestDriver.builder(pricedOrders()).errorHandler(deadLetter).build()) {
            pipeBadPrice(driver);
            assertThat(driver.deadLetters()).singleElement().satisfies(letter -> {
                assertThat(letter.headers().lastString("team")).isEqualTo("pricing");
                assertThat(letter.headers().lastString("weir.error.stage")).isEqualTo("deserialize");
            });
        }

        try (TestDriver driver = TestDriver.builder(pricedOrders())
                .errorHandler(f -> ErrorResponse.fail())
                .build()) {
            assertThatThrownBy(() -> pipeBadPrice(driver))
                    .isInstanceOf(ProcessingException.class)
                    .hasMessageContaining("record prices-0@0 failed to deserialize");
            assertThat(driver.deadLetters()).isEmpty();
        }
    }
}
