package io.weir.docs.tables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.JoinWindows;
import io.weir.dsl.RecordStream;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** docs/tables-and-joins.md: payments matched with their authorisation within five minutes. */
class PaymentsTest {

    static Topology topology() {
        TopologyBuilder b = new TopologyBuilder();
        // tag::stream-stream[]
        RecordStream<String, String> authorisations = b.stream(Serdes.strings(), Serdes.strings(), "authorisations");
        RecordStream<String, String> payments = b.stream(Serdes.strings(), Serdes.strings(), "payments");
        authorisations
                .leftJoin(
                        payments,
                        (auth, payment) -> payment == null ? "EXPIRED " + auth : "SETTLED " + auth,
                        JoinWindows.of(Duration.ofMinutes(5))
                                .before(Duration.ZERO) // payment within 5 min after
                                .allowedLateness(Duration.ofSeconds(30)),
                        "auth-payment")
                .to("settlements", Serdes.strings(), Serdes.strings());
        // end::stream-stream[]
        return b.build();
    }

    @Test
    void aPaymentSettlesItsAuthorisationAndAnAuthorisationWithoutOneExpiresOnceNoneCanCome() {
        long t = 1_700_000_000_000L;
        try (TestDriver driver = TestDriver.builder(topology()).build()) {
            driver.pipe("authorisations", "tx1", "a1", t);
            driver.pipe("authorisations", "tx2", "a2", t + 1_000);
            driver.pipe("payments", "tx1", "p1", t + 60_000);
            driver.pipe("authorisations", "tick", "-", t + 331_001);
            driver.pipe("payments", "tick", "-", t + 331_001);

            assertThat(driver.output("settlements", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::key, TestRecord::value, TestRecord::timestamp)
                    .containsExactly(
                            tuple("tx1", "SETTLED a1", t + 60_000),
                            tuple("tx2", "EXPIRED a2", t + 1_000),
                            tuple("tick", "SETTLED -", t + 331_001));
        }
    }
}
