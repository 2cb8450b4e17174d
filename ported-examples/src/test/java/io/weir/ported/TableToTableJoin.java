package io.weir.ported;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.RecordTable;
import io.weir.serde.Serdes;

/**
 * The application of Confluent's {@code TableToTableJoinIntegrationTest}: each user's region joined
 * with the user's last login (two tables, an inner join kept in the store {@code joined-store}).
 */
final class TableToTableJoin {

    static final String USER_REGIONS = "user-region-topic";
    static final String USER_LAST_LOGINS = "user-last-login-topic";
    static final String OUTPUT = "output-topic";
    static final String STORE = "joined-store";

    private TableToTableJoin() {}

    static Topology topology() {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, String> regions = b.table(Serdes.strings(), Serdes.strings(), USER_REGIONS, "user-regions");
        RecordTable<String, Long> lastLogins =
                b.table(Serdes.strings(), Serdes.longs(), USER_LAST_LOGINS, "user-last-logins");
        regions.join(lastLogins, (region, lastLogin) -> region + "/" + lastLogin, Serdes.strings(), STORE)
                .toStream()
                .to(OUTPUT, Serdes.strings(), Serdes.strings());
        return b.build();
    }
}
