package io.weir.ported;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.common.KeyValue;
import io.weir.serde.Serdes;
import io.weir.state.KeyValueIterator;
import io.weir.testdriver.TestDriver;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The table-table join port on the TestDriver, with the inputs and expected outputs of Confluent's
 * {@code TableToTableJoinIntegrationTest}: every region first, then the logins; only keys in both
 * tables join.
 */
class TableToTableJoinTest {

    @Test
    void joinsTwoTables() {
        try (TestDriver driver = TestDriver.builder(TableToTableJoin.topology()).build()) {
            List<KeyValue<String, String>> regions = List.of(
                    KeyValue.of("alice", "asia"),
                    KeyValue.of("bob", "europe"),
                    KeyValue.of("alice", "europe"),
                    KeyValue.of("charlie", "europe"),
                    KeyValue.of("bob", "asia"));
            List<KeyValue<String, Long>> logins = List.of(
                    KeyValue.of("alice", 1485500000L),
                    KeyValue.of("bob", 1485520000L),
                    KeyValue.of("alice", 1485530000L),
                    KeyValue.of("bob", 1485560000L));
            regions.forEach(r -> driver.pipe(TableToTableJoin.USER_REGIONS, r.key(), r.value(), 0L));
            logins.forEach(l -> driver.pipe(TableToTableJoin.USER_LAST_LOGINS, l.key(), l.value(), 0L));

            assertThat(Outputs.pairs(driver.output(TableToTableJoin.OUTPUT, Serdes.strings(), Serdes.strings())))
                    .containsExactly(
                            KeyValue.of("alice", "europe/1485500000"),
                            KeyValue.of("bob", "asia/1485520000"),
                            KeyValue.of("alice", "europe/1485530000"),
                            KeyValue.of("bob", "asia/1485560000"));
            List<KeyValue<String, String>> joined = new ArrayList<>();
            try (KeyValueIterator<String, String> it =
                    driver.<String, String>store(TableToTableJoin.STORE).all()) {
                it.forEachRemaining(joined::add);
            }
            assertThat(joined)
                    .containsExactly(KeyValue.of("alice", "europe/1485530000"), KeyValue.of("bob", "asia/1485560000"));
        }
    }
}
