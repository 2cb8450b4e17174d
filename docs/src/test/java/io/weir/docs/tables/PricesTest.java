package io.weir.docs.tables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.Joined;
import io.weir.dsl.RecordTable;
import io.weir.dsl.Versioned;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** docs/tables-and-joins.md: each trade priced as of its time, waiting 5 s for late prices. */
class PricesTest {

    static Topology topology() {
        TopologyBuilder b = new TopologyBuilder();
        // tag::versioned[]
        RecordTable<String, Long> prices = b.table(
                Serdes.strings(),
                Serdes.longs(),
                "prices",
                "prices",
                Versioned.history(Duration.ofHours(1))); // an hour of each symbol's prices
        b.stream(Serdes.strings(), Serdes.longs(), "trades") // symbol -> quantity
                .join(
                        prices,
                        (quantity, price) -> quantity * price,
                        Joined.grace(Duration.ofSeconds(5), "trade-prices")) // wait 5 s for late price updates
                .to("trade-values", Serdes.strings(), Serdes.longs());
        // end::versioned[]
        return b.build();
    }

    @Test
    void aTradeIsPricedAtItsTimeEvenByAPriceThatArrivesLater() {
        long t = 1_700_000_000_000L;
        try (TestDriver driver = TestDriver.builder(topology())
                .config("max.out.of.orderness.ms", 0)
                .config("idle.timeout.ms", 0)
                .startWallClock(0)
                .build()) {
            driver.pipe("prices", "ACME", 10L, t);
            driver.pipe("trades", "ACME", 3L, t + 2_000);
            driver.pipe("prices", "ACME", 11L, t + 1_000); // late, but valid before the trade
            driver.pipe("prices", "ACME", 12L, t + 9_000);
            driver.pipe("trades", "ACME", 1L, t + 9_000); // the watermark passes the first trade's grace

            assertThat(driver.output("trade-values", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::key, TestRecord::value, TestRecord::timestamp)
                    .containsExactly(tuple("ACME", 33L, t + 2_000));
            assertThat(driver.<String, Long>store("prices").get("ACME")).isEqualTo(12L);
        }
    }
}
