package io.weir.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.common.KeyValue;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Tables through the whole runtime (the test driver): their updates, derived tables, re-keyed aggregations. */
class TablesTest {

    private static List<TestRecord<String, String>> strings(TestDriver driver, String topic) {
        return driver.output(topic, Serdes.strings(), Serdes.strings());
    }

    @Test
    void aTableFromATopicKeepsTheLatestValuePerKeyAndForwardsDeletionsAsTombstones() {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, String> users = b.table(Serdes.strings(), Serdes.strings(), "users", "users-store");
        users.toStream().to("user-updates", Serdes.strings(), Serdes.strings());
        try (TestDriver driver = TestDriver.builder(b.build()).build()) {
            driver.pipe("users", "u1", "Ada", 1);
            driver.pipe("users", "u2", "Bob", 2);
            driver.pipe("users", "u1", "Ada L.", 3);
            driver.pipe("users", "u2", null, 4);

            assertThat(strings(driver, "user-updates"))
                    .extracting(TestRecord::key, TestRecord::value, TestRecord::timestamp)
                    .containsExactly(
                            tuple("u1", "Ada", 1L),
                            tuple("u2", "Bob", 2L),
                            tuple("u1", "Ada L.", 3L),
                            tuple("u2", null, 4L));
            assertThat(driver.<String, String>store("users-store").get("u1")).isEqualTo("Ada L.");
            assertThat(driver.<String, String>store("users-store").get("u2")).isNull();
            assertThat(users.storeName()).contains("users-store");
        }
    }

    @Test
    void updatesBetweenTwoCommitsGoDownstreamOncePerKey() {
        TopologyBuilder b = new TopologyBuilder();
        b.table(Serdes.strings(), Serdes.strings(), "users", "users-store")
                .toStream()
                .to("user-updates", Serdes.strings(), Serdes.strings());
        try (TestDriver driver = TestDriver.builder(b.build()).commitEvery(3).build()) {
            driver.pipe("users", "u1", "a", 1);
            driver.pipe("users", "u1", "b", 2);
            driver.pipe("users", "u1", "c", 3);

            assertThat(strings(driver, "user-updates"))
                    .extracting(TestRecord::value)
                    .containsExactly("c");
        }
    }

    @Test
    void aRecordWithoutAKeyCannotBeARowAndGoesToTheDeadLetters() {
        TopologyBuilder b = new TopologyBuilder();
        b.table(Serdes.strings(), Serdes.strings(), "users", "users-store")
                .toStream()
                .to("user-updates", Serdes.strings(), Serdes.strings());
        try (TestDriver driver = TestDriver.builder(b.build()).build()) {
            driver.pipe("users", null, "nobody", 1);
            driver.pipe("users", "u1", "Ada", 2);

            assertThat(driver.deadLetters()).hasSize(1);
            assertThat(strings(driver, "user-updates"))
                    .extracting(TestRecord::key)
                    .containsExactly("u1");
        }
    }

    @Test
    void aStreamWithChangedKeysBecomesATableThroughARepartition() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "logins")
                .selectKey((k, v) -> v.split("@")[0])
                .withSerdes(Serdes.strings(), Serdes.strings())
                .toTable("last-login")
                .toStream()
                .to("last-logins", Serdes.strings(), Serdes.strings());
        Topology topology = b.build();
        assertThat(topology.describe()).contains("last-login-repartition");
        try (TestDriver driver =
                TestDriver.builder(topology).partitions("logins", 3).build()) {
            driver.pipe("logins", 0, "x", "ada@home", 1);
            driver.pipe("logins", 2, "y", "ada@work", 2);

            assertThat(strings(driver, "last-logins"))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactly(tuple("ada", "ada@home"), tuple("ada", "ada@work"));
            assertThat(driver.<String, String>store("last-login").get("ada")).isEqualTo("ada@work");
        }
    }

    @Test
    void aFilteredTableDeletesTheRowsThatStopPassingAndForwardsNothingForRowsItNeverHad() {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, Long> balances = b.table(Serdes.strings(), Serdes.longs(), "balances", "balances-store");
        RecordTable<String, String> overdrawn = balances.filter((k, v) -> v < 0).mapValues(v -> "owes " + -v);
        overdrawn.toStream().to("overdrawn", Serdes.strings(), Serdes.strings());
        assertThat(overdrawn.storeName()).isEmpty();
        try (TestDriver driver = TestDriver.builder(b.build()).build()) {
            driver.pipe("balances", "a", 10L, 1);
            driver.pipe("balances", "a", -5L, 2);
            driver.pipe("balances", "a", -7L, 3);
            driver.pipe("balances", "a", 3L, 4);
            driver.pipe("balances", "a", 4L, 5);

            assertThat(strings(driver, "overdrawn"))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactly(tuple("a", "owes 5"), tuple("a", "owes 7"), tuple("a", null));
        }
    }

    /** Users by city: a user moving city leaves the old city's count and joins the new one's. */
    @Test
    void aReKeyedCountSubtractsARowFromItsOldGroupAndAddsItToItsNewOne() {
        TopologyBuilder b = new TopologyBuilder();
        b.table(Serdes.strings(), Serdes.strings(), "user-cities", "user-cities-store")
                .groupBy((user, city) -> KeyValue.of(city, user), Serdes.strings(), Serdes.strings())
                .count("users-per-city")
                .toStream()
                .to("city-counts", Serdes.strings(), Serdes.longs());
        try (TestDriver driver =
                TestDriver.builder(b.build()).partitions("user-cities", 2).build()) {
            driver.pipe("user-cities", 0, "u1", "Paris", 1);
            driver.pipe("user-cities", 1, "u2", "Paris", 2);
            driver.pipe("user-cities", 0, "u1", "Oslo", 3);
            driver.pipe("user-cities", 1, "u2", null, 4);
            driver.pipe("user-cities", 1, "u2", "Oslo", 5);
            driver.pipe("user-cities", 1, "u2", "Oslo", 6); // the same row again: -1 and +1 in one record

            var counts = driver.<String, Long>store("users-per-city");
            assertThat(counts.get("Paris")).isZero();
            assertThat(counts.get("Oslo")).isEqualTo(2);
            assertThat(driver.output("city-counts", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactly(
                            tuple("Paris", 1L),
                            tuple("Paris", 2L),
                            tuple("Paris", 1L),
                            tuple("Oslo", 1L),
                            tuple("Paris", 0L),
                            tuple("Oslo", 2L),
                            tuple("Oslo", 2L));
        }
    }

    @Test
    void aReKeyedAggregateAndReduceFollowTheRowsOfEachGroup() {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, Long> salaries = b.table(Serdes.strings(), Serdes.longs(), "salaries", "salaries-store");
        GroupedTable<String, Long> byTeam = salaries.groupBy(
                (person, salary) -> KeyValue.of(person.substring(0, person.indexOf('/')), salary),
                Serdes.strings(),
                Serdes.longs());
        byTeam.aggregate(
                        () -> "",
                        (team, s, acc) -> acc + "+" + s,
                        (team, s, acc) -> acc + "-" + s,
                        Serdes.strings(),
                        "team-trail")
                .toStream()
                .to("trails", Serdes.strings(), Serdes.strings());
        byTeam.reduce(Long::sum, (acc, s) -> acc - s, "team-total");
        try (TestDriver driver = TestDriver.builder(b.build()).build()) {
            driver.pipe("salaries", "eng/ada", 100L, 1);
            driver.pipe("salaries", "eng/bob", 50L, 2);
            driver.pipe("salaries", "eng/ada", 120L, 3);
            driver.pipe("salaries", "ops/cy", 70L, 4);
            driver.pipe("salaries", "eng/bob", null, 5);

            assertThat(driver.<String, Long>store("team-total").get("eng")).isEqualTo(120);
            assertThat(driver.<String, Long>store("team-total").get("ops")).isEqualTo(70);
            assertThat(driver.<String, String>store("team-trail").get("eng")).isEqualTo("+100+50-100+120-50");
        }
    }

    @Test
    void aStreamJoinsTheTablesCurrentValueInnerOrLeft() {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, String> customers = b.table(Serdes.strings(), Serdes.strings(), "customers", "customers");
        RecordStream<String, String> orders = b.stream(Serdes.strings(), Serdes.strings(), "orders");
        orders.join(customers, (order, name) -> order + " for " + name)
                .to("enriched", Serdes.strings(), Serdes.strings());
        orders.leftJoin(customers.filter((id, name) -> !name.startsWith("x")), (order, name) -> order + " for " + name)
                .to("enriched-left", Serdes.strings(), Serdes.strings());
        try (TestDriver driver = TestDriver.builder(b.build())
                .partitions("customers", 2)
                .partitions("orders", 2)
                .build()) {
            driver.pipe("orders", 0, "c1", "o1", 1); // no customer yet
            driver.pipe("customers", 0, "c1", "Ada", 2);
            driver.pipe("orders", 0, "c1", "o2", 3);
            driver.pipe("customers", 0, "c1", "xAda", 4); // filtered out of the left join's table
            driver.pipe("orders", 0, "c1", "o3", 5);
            driver.pipe("customers", 0, "c1", null, 6);
            driver.pipe("orders", 0, "c1", "o4", 7);
            driver.pipe("orders", 1, null, "o5", 8); // no key: no match

            assertThat(strings(driver, "enriched"))
                    .extracting(TestRecord::key, TestRecord::value, TestRecord::timestamp)
                    .containsExactly(tuple("c1", "o2 for Ada", 3L), tuple("c1", "o3 for xAda", 5L));
            assertThat(strings(driver, "enriched-left"))
                    .extracting(TestRecord::value)
                    .containsExactly("o1 for null", "o2 for Ada", "o3 for null", "o4 for null", "o5 for null");
        }
    }

    @Test
    void aReKeyedStreamIsRepartitionedToTheTablesPartitionCountBeforeTheJoin() {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, String> customers = b.table(Serdes.strings(), Serdes.strings(), "customers", "customers");
        b.stream(Serdes.strings(), Serdes.strings(), "orders")
                .selectKey((orderId, customer) -> customer)
                .withSerdes(Serdes.strings(), Serdes.strings())
                .join(customers, (customer, name) -> name)
                .to("names", Serdes.strings(), Serdes.strings());
        try (TestDriver driver = TestDriver.builder(b.build())
                .partitions("customers", 3)
                .partitions("orders", 5)
                .build()) {
            for (int i = 0; i < 6; i++) {
                driver.pipe("customers", "c" + i, "name" + i, i);
            }
            for (int i = 0; i < 6; i++) {
                driver.pipe("orders", i % 5, "o" + i, "c" + i, 10 + i);
            }

            assertThat(strings(driver, "names"))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactlyInAnyOrder(
                            tuple("c0", "name0"),
                            tuple("c1", "name1"),
                            tuple("c2", "name2"),
                            tuple("c3", "name3"),
                            tuple("c4", "name4"),
                            tuple("c5", "name5"));
        }
    }

    @Test
    void twoTablesJoinInnerLeftAndOuterAndEveryChangeOfEitherSideUpdatesTheResult() {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, String> names = b.table(Serdes.strings(), Serdes.strings(), "names", "names");
        RecordTable<String, String> emails = b.table(Serdes.strings(), Serdes.strings(), "emails", "emails");
        ValueJoiner<String, String, String> both = (name, email) -> name + " <" + email + ">";
        names.join(emails, both, Serdes.strings(), "inner")
                .toStream()
                .to("inner-out", Serdes.strings(), Serdes.strings());
        names.leftJoin(emails, both, Serdes.strings(), "left")
                .toStream()
                .to("left-out", Serdes.strings(), Serdes.strings());
        names.outerJoin(emails, both, Serdes.strings(), "outer")
                .toStream()
                .to("outer-out", Serdes.strings(), Serdes.strings());
        try (TestDriver driver = TestDriver.builder(b.build())
                .partitions("names", 2)
                .partitions("emails", 2)
                .build()) {
            driver.pipe("emails", 0, "u1", "ada@x", 1);
            driver.pipe("names", 0, "u1", "Ada", 2);
            driver.pipe("emails", 0, "u1", "ada@y", 3);
            driver.pipe("names", 0, "u1", null, 4);
            driver.pipe("emails", 0, "u1", null, 5);

            assertThat(strings(driver, "inner-out"))
                    .extracting(TestRecord::value)
                    .containsExactly("Ada <ada@x>", "Ada <ada@y>", null);
            assertThat(strings(driver, "left-out"))
                    .extracting(TestRecord::value)
                    .containsExactly("Ada <ada@x>", "Ada <ada@y>", null);
            assertThat(strings(driver, "outer-out"))
                    .extracting(TestRecord::value)
                    .containsExactly("null <ada@x>", "Ada <ada@x>", "Ada <ada@y>", "null <ada@y>", null);
            assertThat(driver.<String, String>store("outer").get("u1")).isNull();
        }
    }

    /**
     * Both sides of a key change between two commits, then a re-keyed count of the join: the count
     * must subtract the joined value it was given before, not one recomputed from a side's old value.
     */
    @Test
    void aCountOverAJoinStaysRightWhenBothSidesChangeInOneCommitInterval() {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, String> cities = b.table(Serdes.strings(), Serdes.strings(), "cities", "cities");
        RecordTable<String, String> teams = b.table(Serdes.strings(), Serdes.strings(), "teams", "teams");
        cities.join(teams, (city, team) -> city + "/" + team, Serdes.strings(), "city-team")
                .groupBy((user, cityTeam) -> KeyValue.of(cityTeam, user), Serdes.strings(), Serdes.strings())
                .count("per-city-team");
        try (TestDriver driver = TestDriver.builder(b.build()).commitEvery(2).build()) {
            driver.pipe("cities", "u1", "Oslo", 1);
            driver.pipe("teams", "u1", "eng", 2);
            driver.pipe("cities", "u1", "Rome", 3);
            driver.pipe("teams", "u1", "ops", 4);

            var counts = driver.<String, Long>store("per-city-team");
            assertThat(counts.get("Rome/ops")).isEqualTo(1);
            assertThat(counts.get("Oslo/eng")).isZero();
            assertThat(counts.get("Rome/eng")).isIn(null, 0L);
            assertThat(counts.get("Oslo/ops")).isIn(null, 0L);
        }
    }
}
