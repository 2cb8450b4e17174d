package io.weir.samples.pricing;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.samples.common.RecordGenerator;
import io.weir.serde.Serdes;
import java.net.URI;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class OrderPricingServiceTest {

    @Test
    void feedsOrdersWithDistinctIdsAsKeysStampedWhenSent() {
        RecordGenerator orders = OrderPricingService.orders(7);
        ProducerRecord<byte[], byte[]> first = orders.next("orders", 1000L);
        ProducerRecord<byte[], byte[]> second = orders.next("orders", 2000L);
        assertThat(first.timestamp()).isEqualTo(1000L);
        assertThat(Serdes.strings().deserialize("orders", first.key())).isEqualTo("order-live-0");
        assertThat(Serdes.strings().deserialize("orders", second.key())).isEqualTo("order-live-1");
        Order order = Serdes.json(Order.class).deserialize("orders", first.value());
        assertThat(order.id()).isEqualTo("order-live-0");
        assertThat(order.quantity()).isBetween(1, 5);
    }

    @Test
    void pricesFromTheNamedServiceOrFromOneInTheProcess() {
        assertThat(OrderPricingService.pricing("http://pricing:8090/")).isEqualTo(URI.create("http://pricing:8090/"));
        URI inProcess = OrderPricingService.pricing(null);
        assertThat(inProcess.getHost()).isEqualTo("127.0.0.1");
        assertThat(OrderPricingService.pricing("")).as("started once").isEqualTo(inProcess);
    }

    @Test
    void servesTheSampleTopicsAndApplicationId() {
        assertThat(OrderPricingService.sample()).satisfies(s -> {
            assertThat(s.name()).isEqualTo("order-pricing");
            assertThat(s.applicationId()).isEqualTo("order-pricing");
            assertThat(s.inputTopic()).isEqualTo("orders");
            assertThat(s.outputTopic()).isEqualTo("customer-spend");
        });
    }
}
