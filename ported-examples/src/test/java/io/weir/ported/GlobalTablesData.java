package io.weir.ported;

import io.weir.ported.GlobalTablesExample.Customer;
import io.weir.ported.GlobalTablesExample.EnrichedOrder;
import io.weir.ported.GlobalTablesExample.Order;
import io.weir.ported.GlobalTablesExample.Product;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The input of Confluent's {@code GlobalKTablesExampleTest}: 100 customers, 100 products and 50
 * orders of random customers and products, made as its example driver makes them (random strings,
 * random genders), but from a seed; and the enriched order each order must become.
 */
final class GlobalTablesData {

    private static final String CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final String[] GENDERS = {"male", "female", "unknown"};

    final List<Customer> customers = new ArrayList<>(); // customer i has id i
    final List<Product> products = new ArrayList<>(); // product i has id i
    final List<Order> orders = new ArrayList<>(); // order i has id i
    final List<EnrichedOrder> enriched = new ArrayList<>(); // what order i becomes

    private final Random random = new Random(34);

    GlobalTablesData() {
        for (int id = 0; id < 100; id++) {
            customers.add(new Customer(randomString(10), GENDERS[random.nextInt(GENDERS.length)], randomString(20)));
        }
        for (int id = 0; id < 100; id++) {
            products.add(new Product(randomString(10), randomString(100), randomString(20)));
        }
        for (int id = 0; id < 50; id++) {
            Order o = new Order(random.nextInt(100), random.nextInt(100), random.nextLong());
            orders.add(o);
            enriched.add(new EnrichedOrder(products.get((int) o.productId()), customers.get((int) o.customerId()), o));
        }
    }

    private String randomString(int length) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < length; i++) {
            s.append(CHARS.charAt(random.nextInt(CHARS.length())));
        }
        return s.toString();
    }
}
