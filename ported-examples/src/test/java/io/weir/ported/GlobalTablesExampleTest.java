package io.weir.ported;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.ported.GlobalTablesExample.Customer;
import io.weir.ported.GlobalTablesExample.EnrichedOrder;
import io.weir.ported.GlobalTablesExample.Order;
import io.weir.ported.GlobalTablesExample.Product;
import io.weir.serde.Serdes;
import io.weir.state.ReadOnlyKeyValueStore;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The global-tables port on the TestDriver, with the input of Confluent's
 * {@code GlobalKTablesExampleTest} ({@code AbstractGlobalStoresAndTablesTest}): 100 customers, 100
 * products and 50 orders of random customers and products, made as its example driver makes them
 * (random strings, random genders) but from a seed, on topics of 4, 3 and 2 partitions. The
 * original checks that each enriched order's parts are among those generated and that both
 * instances' stores hold every customer and product; here every enriched order is checked against
 * the order it came from.
 *
 * <p>Not here: the original runs two instances on a broker, each holding both tables in full; the
 * TestDriver is one instance (framework's {@code GlobalTablesIT} covers several).
 */
class GlobalTablesExampleTest {

    private static final String CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final String[] GENDERS = {"male", "female", "unknown"};

    private final Random random = new Random(34);

    private String randomString(int length) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < length; i++) {
            s.append(CHARS.charAt(random.nextInt(CHARS.length())));
        }
        return s.toString();
    }

    @Test
    void enrichesEveryOrderWithItsCustomerAndProduct() {
        try (TestDriver driver = TestDriver.builder(GlobalTablesExample.topology())
                .partitions(GlobalTablesExample.ORDER_TOPIC, 4)
                .partitions(GlobalTablesExample.CUSTOMER_TOPIC, 3)
                .partitions(GlobalTablesExample.PRODUCT_TOPIC, 2)
                .build()) {
            List<Customer> customers = new ArrayList<>();
            List<Product> products = new ArrayList<>();
            for (long id = 0; id < 100; id++) {
                Customer c = new Customer(randomString(10), GENDERS[random.nextInt(GENDERS.length)], randomString(20));
                customers.add(c);
                driver.pipe(GlobalTablesExample.CUSTOMER_TOPIC, id, c, 0L);
            }
            for (long id = 0; id < 100; id++) {
                Product p = new Product(randomString(10), randomString(100), randomString(20));
                products.add(p);
                driver.pipe(GlobalTablesExample.PRODUCT_TOPIC, id, p, 0L);
            }
            List<EnrichedOrder> expected = new ArrayList<>();
            for (long id = 0; id < 50; id++) {
                Order o = new Order(random.nextInt(100), random.nextInt(100), random.nextLong());
                expected.add(
                        new EnrichedOrder(products.get((int) o.productId()), customers.get((int) o.customerId()), o));
                driver.pipe(GlobalTablesExample.ORDER_TOPIC, id, o, 1L);
            }

            List<TestRecord<Long, EnrichedOrder>> enriched = driver.output(
                    GlobalTablesExample.ENRICHED_ORDER_TOPIC, Serdes.longs(), Serdes.json(EnrichedOrder.class));
            assertThat(enriched).extracting(TestRecord::value).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(enriched)
                    .allSatisfy(r -> assertThat(r.value().order())
                            .isEqualTo(expected.get(r.key().intValue()).order()));

            ReadOnlyKeyValueStore<Long, Customer> customerStore = driver.store(GlobalTablesExample.CUSTOMER_STORE);
            ReadOnlyKeyValueStore<Long, Product> productStore = driver.store(GlobalTablesExample.PRODUCT_STORE);
            for (long id = 0; id < 100; id++) {
                assertThat(customerStore.get(id)).isEqualTo(customers.get((int) id));
                assertThat(productStore.get(id)).isEqualTo(products.get((int) id));
            }
        }
    }
}
