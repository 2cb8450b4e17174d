package io.weir.ported;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.ported.GlobalTablesExample.Customer;
import io.weir.ported.GlobalTablesExample.EnrichedOrder;
import io.weir.ported.GlobalTablesExample.Product;
import io.weir.serde.Serdes;
import io.weir.state.ReadOnlyKeyValueStore;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The global-tables port on the TestDriver, with the input of Confluent's
 * {@code GlobalKTablesExampleTest} ({@link GlobalTablesData}) on topics of 4, 3 and 2 partitions
 * as there. The original checks that each enriched order's parts are among those generated and
 * that the stores hold every customer and product; here every enriched order is checked against
 * the order it came from. {@link GlobalTablesIT} runs the original's two instances on a broker.
 */
class GlobalTablesExampleTest {

    @Test
    void enrichesEveryOrderWithItsCustomerAndProduct() {
        GlobalTablesData data = new GlobalTablesData();
        try (TestDriver driver = TestDriver.builder(GlobalTablesExample.topology())
                .partitions(GlobalTablesExample.ORDER_TOPIC, 4)
                .partitions(GlobalTablesExample.CUSTOMER_TOPIC, 3)
                .partitions(GlobalTablesExample.PRODUCT_TOPIC, 2)
                .build()) {
            for (long id = 0; id < data.customers.size(); id++) {
                driver.pipe(GlobalTablesExample.CUSTOMER_TOPIC, id, data.customers.get((int) id), 0L);
            }
            for (long id = 0; id < data.products.size(); id++) {
                driver.pipe(GlobalTablesExample.PRODUCT_TOPIC, id, data.products.get((int) id), 0L);
            }
            for (long id = 0; id < data.orders.size(); id++) {
                driver.pipe(GlobalTablesExample.ORDER_TOPIC, id, data.orders.get((int) id), 1L);
            }

            List<TestRecord<Long, EnrichedOrder>> enriched = driver.output(
                    GlobalTablesExample.ENRICHED_ORDER_TOPIC, Serdes.longs(), Serdes.json(EnrichedOrder.class));
            assertThat(enriched).hasSize(data.orders.size());
            assertThat(enriched)
                    .allSatisfy(r -> assertThat(r.value())
                            .isEqualTo(data.enriched.get(r.key().intValue())));

            ReadOnlyKeyValueStore<Long, Customer> customers = driver.store(GlobalTablesExample.CUSTOMER_STORE);
            ReadOnlyKeyValueStore<Long, Product> products = driver.store(GlobalTablesExample.PRODUCT_STORE);
            for (long id = 0; id < 100; id++) {
                assertThat(customers.get(id)).isEqualTo(data.customers.get((int) id));
                assertThat(products.get(id)).isEqualTo(data.products.get((int) id));
            }
        }
    }
}
