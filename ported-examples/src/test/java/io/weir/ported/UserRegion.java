package io.weir.ported;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.common.KeyValue;
import io.weir.dsl.RecordTable;
import io.weir.serde.Serdes;

/**
 * Confluent's {@code UserRegionLambdaExample}: a table of each user's current region, regrouped by
 * region and counted (a user who moves is subtracted from the old region and added to the new
 * one), and the regions with at least two users written out. {@link #usersPerRegion} is the same
 * count without the threshold, as its {@code UserCountsPerRegionLambdaIntegrationTest} builds it.
 */
final class UserRegion {

    static final String USER_REGIONS = "UserRegions";
    static final String LARGE_REGIONS = "LargeRegions";
    static final String USERS_PER_REGION = "users-per-region";

    private UserRegion() {}

    private static RecordTable<String, Long> countPerRegion(TopologyBuilder b) {
        return b.table(Serdes.strings(), Serdes.strings(), USER_REGIONS, "user-regions")
                .groupBy((user, region) -> KeyValue.of(region, region), Serdes.strings(), Serdes.strings())
                .count(USERS_PER_REGION);
    }

    /** The example: regions with two users or more. */
    static Topology largeRegions() {
        TopologyBuilder b = new TopologyBuilder();
        countPerRegion(b)
                .filter((region, users) -> users >= 2)
                .toStream()
                // a region that falls below two users is deleted from the filtered table: a tombstone
                .filter((region, users) -> users != null)
                .to(LARGE_REGIONS, Serdes.strings(), Serdes.longs());
        return b.build();
    }

    /** The integration test's variant: every region's count, written to {@code output}. */
    static Topology usersPerRegion(String output) {
        TopologyBuilder b = new TopologyBuilder();
        countPerRegion(b).toStream().to(output, Serdes.strings(), Serdes.longs());
        return b.build();
    }
}
