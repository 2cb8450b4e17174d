package io.weir.docs.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.TopologyBuilder;
import io.weir.config.WeirConfig;
import io.weir.processor.ErrorHandler;
import io.weir.processor.ErrorResponse;
import io.weir.processor.Headers;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import org.junit.jupiter.api.Test;

/** docs/delivery-guarantees.md: an error handler that skips, dead-letters with a header, or fails. */
class ErrorHandlerTest {

    /** A known, harmless failure: the handler skips it. */
    static final class UnknownCurrency extends RuntimeException {
        UnknownCurrency(String currency) {
            super("unknown currency " + currency);
        }
    }

    static WeirConfig config() {
        // tag::handler[]
        ErrorHandler handler = failed -> switch (failed.stage()) {
            case DESERIALIZE -> ErrorResponse.deadLetter(Headers.empty().with("owner", "payments-team"));
            case PROCESS ->
                failed.error() instanceof UnknownCurrency
                        ? ErrorResponse.skip() // known and harmless: counted, not kept
                        : ErrorResponse.deadLetter();
            default -> ErrorResponse.fail();
        };
        WeirConfig config = WeirConfig.builder()
                .applicationId("payments")
                .bootstrapServers("localhost:9092")
                .errorHandler(handler)
                .build();
        // end::handler[]
        return config;
    }

    @Test
    void skipsUnknownCurrenciesAndDeadLettersUnreadablePaymentsWithTheirOwner() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.longs(), "payments")
                .mapValues((currency, cents) -> {
                    if (!currency.equals("EUR")) {
                        throw new UnknownCurrency(currency);
                    }
                    return cents / 100;
                })
                .to("euros", Serdes.strings(), Serdes.longs());
        try (TestDriver driver =
                TestDriver.builder(b.build()).config(config()).inMemoryStores().build()) {
            driver.pipe("payments", "EUR", 1_250L, 1);
            driver.pipe("payments", "XTS", 900L, 2);
            driver.input("payments", Serdes.strings(), Serdes.bytes()).pipe("EUR", new byte[] {1}, 3);
            assertThat(driver.output("euros", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::value)
                    .containsExactly(12L);
            assertThat(driver.deadLetters())
                    .singleElement()
                    .satisfies(r -> assertThat(r.headers().lastString("owner")).isEqualTo("payments-team"));
        }
    }
}
