package io.weir.ported;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.WeirApp;
import io.weir.ported.GlobalTablesExample.Customer;
import io.weir.ported.GlobalTablesExample.EnrichedOrder;
import io.weir.ported.GlobalTablesExample.Product;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.state.ReadOnlyKeyValueStore;
import io.weir.testkit.KafkaExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The global-tables port as Confluent's {@code GlobalKTablesExampleTest} runs it: two instances on
 * a broker, order, customer and product topics of 4, 3 and 2 partitions, the input of
 * {@link GlobalTablesData} written before they start. Each enriched order must be the one its
 * order becomes, and each instance must hold every customer and product.
 */
class GlobalTablesIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static <V> List<ProducerRecord<byte[], byte[]>> records(String topic, List<V> values, Serde<V> serde) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (long id = 0; id < values.size(); id++) {
            records.add(new ProducerRecord<>(
                    topic, Serdes.longs().serialize(topic, id), serde.serialize(topic, values.get((int) id))));
        }
        return records;
    }

    @Test
    void everyInstanceHoldsBothTablesAndEnrichesItsOrders() {
        String orders = KAFKA.uniqueTopic("order", 4);
        String customers = KAFKA.uniqueTopic("customer", 3);
        String products = KAFKA.uniqueTopic("product", 2);
        String enriched = KAFKA.uniqueTopic("enriched-order", 1);
        GlobalTablesData data = new GlobalTablesData();
        KAFKA.client().send(records(customers, data.customers, Serdes.json(Customer.class)));
        KAFKA.client().send(records(products, data.products, Serdes.json(Product.class)));
        KAFKA.client().send(records(orders, data.orders, Serdes.json(GlobalTablesExample.Order.class)));

        var topology = GlobalTablesExample.topology(orders, customers, products, enriched);
        String appId = "global-tables-" + orders;
        try (WeirApp one = WeirApp.create(
                                topology,
                                Apps.config(KAFKA.bootstrapServers(), appId).build())
                        .start();
                WeirApp two = WeirApp.create(
                                topology,
                                Apps.config(KAFKA.bootstrapServers(), appId).build())
                        .start()) {
            Serde<EnrichedOrder> enrichedSerde = Serdes.json(EnrichedOrder.class);
            List<ConsumerRecord<byte[], byte[]>> out =
                    KAFKA.client().readAtLeast(enriched, data.orders.size(), Duration.ofSeconds(60));
            assertThat(out).hasSize(data.orders.size());
            for (ConsumerRecord<byte[], byte[]> r : out) {
                long id = Serdes.longs().deserialize(enriched, r.key());
                assertThat(enrichedSerde.deserialize(enriched, r.value())).isEqualTo(data.enriched.get((int) id));
            }
            // start() returns once the global tables are loaded: both instances hold both in full.
            for (WeirApp app : List.of(one, two)) {
                ReadOnlyKeyValueStore<Long, Customer> c = app.store(GlobalTablesExample.CUSTOMER_STORE);
                ReadOnlyKeyValueStore<Long, Product> p = app.store(GlobalTablesExample.PRODUCT_STORE);
                for (long id = 0; id < 100; id++) {
                    assertThat(c.get(id)).isEqualTo(data.customers.get((int) id));
                    assertThat(p.get(id)).isEqualTo(data.products.get((int) id));
                }
            }
        }
    }
}
