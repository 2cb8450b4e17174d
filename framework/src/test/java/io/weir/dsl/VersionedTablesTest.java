package io.weir.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.errors.TopologyException;
import io.weir.processor.Headers;
import io.weir.processor.TaskId;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.time.Duration;
import java.util.List;
import java.util.function.BiFunction;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** Versioned tables and stream-table joins as of each record's time, with and without a grace period. */
class VersionedTablesTest {

    private static final Duration HISTORY = Duration.ofMillis(100);

    private static Topology topology(
            BiFunction<RecordStream<String, String>, RecordTable<String, String>, RecordStream<String, String>> join) {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, String> prices =
                b.table(Serdes.strings(), Serdes.strings(), "prices", "prices", Versioned.history(HISTORY));
        RecordStream<String, String> orders = b.stream(Serdes.strings(), Serdes.strings(), "orders");
        join.apply(orders, prices).to("priced", Serdes.strings(), Serdes.strings());
        prices.toStream().to("price-updates", Serdes.strings(), Serdes.strings());
        return b.build();
    }

    private static TestDriver driver(Topology topology) {
        // the watermark is the largest time seen over both inputs (as in the oracle tests)
        return TestDriver.builder(topology)
                .config("max.out.of.orderness.ms", 0)
                .config("idle.timeout.ms", 0)
                .startWallClock(0)
                .build();
    }

    private static List<Tuple> priced(TestDriver driver) {
        return driver.output("priced", Serdes.strings(), Serdes.strings()).stream()
                .map(r -> tuple(r.value(), r.timestamp()))
                .toList();
    }

    @Test
    void aStreamRecordJoinsTheTableValueValidAtItsTimestampNotTheCurrentOne() {
        try (TestDriver driver = driver(topology((o, p) -> o.join(p, (order, price) -> order + "@" + price)))) {
            driver.pipe("prices", "p", "1", 10);
            driver.pipe("prices", "p", "2", 20);
            driver.pipe("orders", "p", "a", 15); // between the two versions: 1
            driver.pipe("orders", "p", "b", 25); // 2
            driver.pipe("orders", "p", "c", 5); // before any version: nothing (inner)
            driver.pipe("prices", "p", "1.5", 12); // out of order: into the history only
            driver.pipe("orders", "p", "d", 13); // 1.5
            driver.pipe("orders", "p", "e", 30); // still 2

            assertThat(priced(driver))
                    .containsExactly(tuple("a@1", 15L), tuple("b@2", 25L), tuple("d@1.5", 13L), tuple("e@2", 30L));
            // the current value is the newest version; the out-of-order update changed nothing downstream
            assertThat(driver.<String, String>store("prices").get("p")).isEqualTo("2");
            assertThat(driver.output("price-updates", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("1", "2");
        }
    }

    @Test
    void aTombstoneEndsValidityAndRecordsOlderThanTheHistoryGetNothingInnerAndNullLeft() {
        try (TestDriver driver = driver(topology((o, p) -> o.leftJoin(p, (order, price) -> order + "@" + price)))) {
            driver.pipe("prices", "p", "1", 10);
            driver.pipe("prices", "p", null, 20);
            driver.pipe("orders", "p", "a", 15);
            driver.pipe("orders", "p", "b", 21);
            driver.pipe("prices", "q", "9", 200); // the table has seen 200: it answers from 100 on
            driver.pipe("orders", "p", "c", 15); // older than the history: null, as Kafka Streams

            assertThat(priced(driver)).containsExactly(tuple("a@1", 15L), tuple("b@null", 21L), tuple("c@null", 15L));
            assertThat(driver.<String, String>store("prices").get("p")).isNull();
        }
    }

    @Test
    void aDerivedTableOfAVersionedTableIsReadAsOfTheRecordsTimeThroughItsFilter() {
        Topology topology = topology((o, p) -> o.join(
                p.filter((k, v) -> !v.equals("2")).mapValues(v -> "$" + v), (order, price) -> order + "@" + price));
        try (TestDriver driver = driver(topology)) {
            driver.pipe("prices", "p", "1", 10);
            driver.pipe("prices", "p", "2", 20);
            driver.pipe("orders", "p", "a", 15);
            driver.pipe("orders", "p", "b", 25); // 2 is filtered out: nothing

            assertThat(priced(driver)).containsExactly(tuple("a@$1", 15L));
        }
    }

    @Test
    void withAGracePeriodARecordWaitsForTheWatermarkAndSeesALateButEarlierTableUpdateInTimestampOrder() {
        Topology topology = topology((o, p) ->
                o.join(p, (order, price) -> order + "@" + price, Joined.grace(Duration.ofMillis(10), "order-prices")));
        try (TestDriver driver = driver(topology)) {
            driver.pipe("prices", "p", "1", 10);
            driver.pipe("orders", "p", "a", 25);
            driver.pipe("orders", "p", "b", 22);
            driver.pipe("prices", "p", "2", 20); // arrives after the orders, valid before them
            assertThat(priced(driver)).isEmpty(); // watermark 25: 22 + 10 is not reached

            driver.pipe("orders", "p", "c", 32); // watermark 32: b is due
            assertThat(priced(driver)).containsExactly(tuple("b@2", 22L));
            driver.pipe("orders", "x", "-", 42); // watermark 42: a and c, in time order
            assertThat(priced(driver)).containsExactly(tuple("a@2", 25L), tuple("c@2", 32L));
            driver.pipe("orders", "p", "late", 12); // its grace is over: joined at once
            assertThat(priced(driver)).containsExactly(tuple("late@1", 12L));
        }
    }

    @Test
    void bufferedRecordsKeepTheirHeadersAndComeBackFromTheChangelogOnceAfterARestart() {
        Topology topology = topology((o, p) -> o.leftJoin(
                p, (order, price) -> order + "@" + price, Joined.grace(Duration.ofMillis(10), "order-prices")));
        try (TestDriver driver = driver(topology)) {
            driver.pipe("prices", "p", "1", 10);
            driver.pipe("orders", 0, "p", "a", 20, Headers.empty().with("trace", "t-1"));
            driver.pipe("orders", "p", "b", 21);
            TaskId task = driver.tasks().iterator().next();
            driver.revoke(task);
            driver.reassign(task); // restores prices, its history and the buffer
            driver.pipe("orders", "x", "-", 40);

            List<TestRecord<String, String>> out = driver.output("priced", Serdes.strings(), Serdes.strings());
            assertThat(out)
                    .extracting(TestRecord::value, TestRecord::timestamp)
                    .containsExactly(tuple("a@1", 20L), tuple("b@1", 21L));
            assertThat(out.get(0).headers().lastString("trace")).isEqualTo("t-1");
        }
    }

    @Test
    void aGracePeriodNeedsAVersionedTableKeepingAtLeastTheGraceOfHistory() {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, String> plain = b.table(Serdes.strings(), Serdes.strings(), "prices", "prices");
        RecordStream<String, String> orders = b.stream(Serdes.strings(), Serdes.strings(), "orders");
        assertThatThrownBy(() -> orders.join(plain, (o, p) -> o + p, Joined.grace(Duration.ofSeconds(1), "j")))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("store 'prices' is not")
                .hasMessageContaining("Versioned.history");

        RecordTable<String, String> shortHistory = b.table(
                Serdes.strings(), Serdes.strings(), "rates", "rates", Versioned.history(Duration.ofMillis(500)));
        assertThatThrownBy(() -> orders.join(shortHistory, (o, p) -> o + p, Joined.grace(Duration.ofSeconds(1), "j")))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("versioned table 'rates'")
                .hasMessageContaining("longer than the history retention");
    }

    /**
     * Kafka Streams releases a buffered record when the stream side's own time passes its grace;
     * Weir when the watermark does, which a table behind the stream holds back (here with the
     * default idle timeout and the driver's wall clock standing still): the record waits for the
     * table, and sees an update Kafka Streams would have missed.
     */
    @Test
    void withAGracePeriodAStreamAheadOfItsTableWaitsForTheTableNotForItsOwnTime() {
        Topology topology = topology((o, p) ->
                o.join(p, (order, price) -> order + "@" + price, Joined.grace(Duration.ofMillis(10), "order-prices")));
        try (TestDriver driver = TestDriver.builder(topology)
                .config("max.out.of.orderness.ms", 0)
                .build()) {
            driver.pipe("prices", "p", "1", 0);
            driver.pipe("orders", "p", "a", 20);
            driver.pipe("orders", "q", "b", 100); // Kafka Streams would join a now (its stream time is 100)
            assertThat(driver.watermark("orders", 0)).isZero();
            assertThat(priced(driver)).isEmpty();

            driver.pipe("prices", "p", "2", 15); // the table catches up: still before a
            driver.pipe("prices", "q", "9", 40); // watermark 40: a is due
            assertThat(priced(driver)).containsExactly(tuple("a@2", 20L));
        }
    }

    /** Records without a key or value do not wait out the grace (Kafka Streams' grace buffer fails on a null key). */
    @Test
    void withAGracePeriodARecordWithoutAKeyOrValueIsJoinedAtOnce() {
        Topology topology = topology((o, p) -> o.leftJoin(
                p, (order, price) -> order + "@" + price, Joined.grace(Duration.ofMillis(10), "order-prices")));
        try (TestDriver driver = driver(topology)) {
            driver.pipe("prices", "p", "1", 0);
            driver.pipe("orders", null, "a", 20);
            driver.pipe("orders", "p", null, 21);

            assertThat(priced(driver)).containsExactly(tuple("a@null", 20L), tuple("null@1", 21L));
        }
    }
}
