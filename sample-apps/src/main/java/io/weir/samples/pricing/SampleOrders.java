package io.weir.samples.pricing;

import io.weir.testkit.LookupService;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * Deterministic input for order pricing, and its model: orders {@code order-000000},
 * {@code order-000001}, ... of customers {@code customer-00} ... and products {@code product-000}
 * ..., 1 to 5 pieces each, drawn from a seeded {@link Random}; the same seed and sizes always give
 * the same orders.
 */
final class SampleOrders {

    private SampleOrders() {}

    static List<Order> generate(long seed, int count, int customers, int products) {
        Random random = new Random(seed);
        List<Order> orders = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            orders.add(new Order(
                    String.format("order-%06d", i),
                    String.format("customer-%02d", random.nextInt(customers)),
                    String.format("product-%03d", random.nextInt(products)),
                    1 + random.nextInt(5)));
        }
        return orders;
    }

    /**
     * The model: each customer's spend over its orders that are not in {@code deadLettered}, each
     * priced at what the service answers for its product ({@link LookupService#answer}). Customers
     * without such an order have no row.
     */
    static Map<String, Spend> expected(List<Order> orders, Set<String> deadLettered) {
        Map<String, Spend> spend = new TreeMap<>();
        for (Order o : orders) {
            if (!deadLettered.contains(o.id())) {
                PricedOrder priced = o.priced(PriceLookup.unitCents(LookupService.answer(o.product())));
                spend.merge(o.customer(), Spend.none().plus(priced), (a, b) -> a.plus(priced));
            }
        }
        return spend;
    }
}
