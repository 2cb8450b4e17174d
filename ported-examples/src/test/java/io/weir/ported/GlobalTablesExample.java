package io.weir.ported;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.GlobalTable;
import io.weir.serde.Serdes;

/**
 * Confluent's {@code GlobalKTablesExample}: orders (keyed by order id) enriched with their customer
 * and their product from two global tables, which every instance holds in full, so the orders need
 * no repartition by customer or product and the three topics need not be co-partitioned.
 *
 * <p>The original's records are Avro records in a schema registry; here they are JSON.
 */
final class GlobalTablesExample {

    static final String ORDER_TOPIC = "order";
    static final String CUSTOMER_TOPIC = "customer";
    static final String PRODUCT_TOPIC = "product";
    static final String CUSTOMER_STORE = "customer-store";
    static final String PRODUCT_STORE = "product-store";
    static final String ENRICHED_ORDER_TOPIC = "enriched-order";

    record Order(long customerId, long productId, long timeOrderPlacedAt) {}

    record Customer(String name, String gender, String region) {}

    record Product(String name, String description, String supplierName) {}

    record EnrichedOrder(Product product, Customer customer, Order order) {}

    /** An order with its customer, between the two joins. */
    record CustomerOrder(Customer customer, Order order) {}

    private GlobalTablesExample() {}

    static Topology topology() {
        return topology(ORDER_TOPIC, CUSTOMER_TOPIC, PRODUCT_TOPIC, ENRICHED_ORDER_TOPIC);
    }

    static Topology topology(String orderTopic, String customerTopic, String productTopic, String enrichedTopic) {
        TopologyBuilder b = new TopologyBuilder();
        GlobalTable<Long, Customer> customers =
                b.globalTable(Serdes.longs(), Serdes.json(Customer.class), customerTopic, CUSTOMER_STORE);
        GlobalTable<Long, Product> products =
                b.globalTable(Serdes.longs(), Serdes.json(Product.class), productTopic, PRODUCT_STORE);
        b.stream(Serdes.longs(), Serdes.json(Order.class), orderTopic)
                .join(
                        customers,
                        (orderId, order) -> order.customerId(),
                        (order, customer) -> new CustomerOrder(customer, order))
                .join(
                        products,
                        (orderId, co) -> co.order().productId(),
                        (co, product) -> new EnrichedOrder(product, co.customer(), co.order()))
                .to(enrichedTopic, Serdes.longs(), Serdes.json(EnrichedOrder.class));
        return b.build();
    }
}
