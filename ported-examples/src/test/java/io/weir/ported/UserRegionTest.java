package io.weir.ported;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.common.KeyValue;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The user-region port on the TestDriver. */
class UserRegionTest {

    // The input of Confluent's UserCountsPerRegionLambdaIntegrationTest: both users move.
    private static final List<KeyValue<String, String>> MOVES = List.of(
            KeyValue.of("alice", "asia"),
            KeyValue.of("bob", "europe"),
            KeyValue.of("alice", "europe"),
            KeyValue.of("bob", "asia"));

    private static void pipeMoves(TestDriver driver) {
        long t = 0;
        for (KeyValue<String, String> move : MOVES) {
            driver.pipe(UserRegion.USER_REGIONS, move.key(), move.value(), t++);
        }
    }

    // UserCountsPerRegionLambdaIntegrationTest.shouldCountUsersPerRegion: in the end alice is in
    // europe and bob in asia.
    @Test
    void countsUsersPerRegion() {
        try (TestDriver driver =
                TestDriver.builder(UserRegion.usersPerRegion("output-topic")).build()) {
            pipeMoves(driver);
            assertThat(Outputs.lastPerKey(driver.output("output-topic", Serdes.strings(), Serdes.longs())))
                    .isEqualTo(Map.of("europe", 1L, "asia", 1L));
            // Every step, as each pipe commits: a move subtracts from the old region and adds to
            // the new one (docs/tables-and-joins.md, "Re-keyed aggregations").
            assertThat(driver.<String, Long>store(UserRegion.USERS_PER_REGION).get("asia"))
                    .isEqualTo(1L);
        }
    }

    // The example itself has no test of its own; with the same moves, europe has two users after
    // alice's move and one again after bob's: it is written once, and its drop below the
    // threshold (a tombstone of the filtered table) is filtered out, as in the original.
    @Test
    void writesRegionsWithAtLeastTwoUsers() {
        try (TestDriver driver = TestDriver.builder(UserRegion.largeRegions()).build()) {
            pipeMoves(driver);
            assertThat(Outputs.pairs(driver.output(UserRegion.LARGE_REGIONS, Serdes.strings(), Serdes.longs())))
                    .containsExactly(KeyValue.of("europe", 2L));
        }
    }
}
