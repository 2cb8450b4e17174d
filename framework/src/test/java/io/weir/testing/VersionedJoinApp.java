package io.weir.testing;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.Joined;
import io.weir.dsl.RecordTable;
import io.weir.dsl.Versioned;
import io.weir.serde.Serdes;
import java.time.Duration;

/**
 * An application process for the as-of join fault test, over topics prefixed {@code args[1]}:
 * {@code -prices} (product to price, a versioned table keeping an hour of history) and
 * {@code -orders} (product to order id, a stream), left-joined with a grace period of 5 s into
 * {@code -priced} as {@code order@price}, the price valid at the order's time.
 * Args: bootstrap topicPrefix stateDir applicationId. Prints READY once started; runs until killed
 * or terminated.
 */
public final class VersionedJoinApp {

    /** How long an order waits for prices out of order; the test's prices are at most 3 s out of order. */
    public static final Duration GRACE = Duration.ofSeconds(5);

    private VersionedJoinApp() {}

    public static Topology topology(String prefix) {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, String> prices = b.table(
                Serdes.strings(),
                Serdes.strings(),
                prefix + "-prices",
                "prices",
                Versioned.history(Duration.ofHours(1)));
        b.stream(Serdes.strings(), Serdes.strings(), prefix + "-orders")
                .leftJoin(prices, (order, price) -> order + "@" + price, Joined.grace(GRACE, "order-prices"))
                .to(prefix + "-priced", Serdes.strings(), Serdes.strings());
        return b.build();
    }

    public static void main(String[] args) throws InterruptedException {
        CrashApps.runOverPrefix(VersionedJoinApp::topology, args);
    }
}
