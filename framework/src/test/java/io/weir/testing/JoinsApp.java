package io.weir.testing;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.common.KeyValue;
import io.weir.dsl.JoinWindows;
import io.weir.dsl.RecordStream;
import io.weir.dsl.RecordTable;
import io.weir.serde.Serdes;
import java.time.Duration;

/**
 * An application process for join fault tests, over four input topics prefixed {@code args[1]}:
 * {@code -customers} (customer to region, a table), {@code -limits} (customer to credit limit, a
 * table), {@code -region-names} (region to its name, a table on a topic of another partition
 * count) and {@code -orders} (customer to order id, a stream). It writes:
 * <ul>
 *   <li>{@code -enriched}: each order joined with its customer's region, {@code order@region}
 *       (stream-table inner join);</li>
 *   <li>{@code -customer-limits}: the table of {@code region:limit} per customer (table-table
 *       inner join), as its update stream;</li>
 *   <li>{@code -customer-region-names} and {@code -customer-region-names-left}: the tables of
 *       {@code region=name} per customer (foreign-key inner and left joins of customers with
 *       region names by the customer's region), as their update streams;</li>
 *   <li>{@code -region-counts}: the number of customers per region (re-keyed table count), as its
 *       update stream;</li>
 *   <li>{@code -paid}: each order (re-keyed by order id) left-joined with the payment of the same
 *       order id from {@code -payments} within 2 s (allowed lateness 2 s): {@code paid}, or
 *       {@code unpaid} once no payment can match any more (stream-stream left join).</li>
 * </ul>
 * Args: bootstrap topicPrefix stateDir applicationId. Prints READY once started; runs until killed
 * or terminated.
 */
public final class JoinsApp {

    private JoinsApp() {}

    public static Topology topology(String prefix) {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, String> customers =
                b.table(Serdes.strings(), Serdes.strings(), prefix + "-customers", "customers");
        RecordTable<String, Long> limits = b.table(Serdes.strings(), Serdes.longs(), prefix + "-limits", "limits");
        RecordStream<String, String> orders = b.stream(Serdes.strings(), Serdes.strings(), prefix + "-orders");
        orders.join(customers, (order, region) -> order + "@" + region)
                .to(prefix + "-enriched", Serdes.strings(), Serdes.strings());
        orders.selectKey((customer, order) -> order)
                .withSerdes(Serdes.strings(), Serdes.strings())
                .leftJoin(
                        b.stream(Serdes.strings(), Serdes.strings(), prefix + "-payments"),
                        (order, payment) -> payment == null ? "unpaid" : "paid",
                        JoinWindows.of(Duration.ofSeconds(2)).allowedLateness(Duration.ofSeconds(2)),
                        "order-payments")
                .to(prefix + "-paid", Serdes.strings(), Serdes.strings());
        customers
                .join(limits, (region, limit) -> region + ":" + limit, Serdes.strings(), "customer-limits")
                .toStream()
                .to(prefix + "-customer-limits", Serdes.strings(), Serdes.strings());
        RecordTable<String, String> regionNames =
                b.table(Serdes.strings(), Serdes.strings(), prefix + "-region-names", "region-names");
        customers
                .join(
                        regionNames,
                        region -> region,
                        (region, name) -> region + "=" + name,
                        Serdes.strings(),
                        "customer-region-names")
                .toStream()
                .to(prefix + "-customer-region-names", Serdes.strings(), Serdes.strings());
        customers
                .leftJoin(
                        regionNames,
                        region -> region,
                        (region, name) -> region + "=" + name,
                        Serdes.strings(),
                        "customer-region-names-left")
                .toStream()
                .to(prefix + "-customer-region-names-left", Serdes.strings(), Serdes.strings());
        customers
                .groupBy((customer, region) -> KeyValue.of(region, customer), Serdes.strings(), Serdes.strings())
                .count("customers-per-region")
                .toStream()
                .to(prefix + "-region-counts", Serdes.strings(), Serdes.longs());
        return b.build();
    }

    public static void main(String[] args) throws InterruptedException {
        CrashApps.runOverPrefix(JoinsApp::topology, args);
    }
}
