// tag::it[]
package com.example.orders;

import static com.example.orders.OrdersService.COUNT_STORE;
import static com.example.orders.OrdersService.CUSTOMERS;
import static com.example.orders.OrdersService.ORDERS;
import static com.example.orders.OrdersService.ORDERS_PER_MINUTE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import io.weir.WeirApp;
import io.weir.query.QueryAnswer;
import io.weir.query.StoreQueryClient;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import io.weir.testkit.KafkaExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class OrdersServiceIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.perClass();

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
    private static final long MINUTE = 60_000;

    @TempDir
    Path stateDir;

    @Test
    void countsOrdersPerRegionAndMinuteAndAnswersQueriesOverHttp() {
        KAFKA.client().createTopic(CUSTOMERS, 2, Map.of("cleanup.policy", "compact")); // also the table's changelog
        KAFKA.client().createTopic(ORDERS, 4);
        KAFKA.client().createTopic(ORDERS_PER_MINUTE, 2);
        List<ProducerRecord<byte[], byte[]>> input = new ArrayList<>();
        input.add(record(CUSTOMERS, "c-1", Serdes.json(Customer.class), new Customer("Ada", "north"), T0));
        input.add(record(CUSTOMERS, "c-2", Serdes.json(Customer.class), new Customer("Bob", "south"), T0));
        KAFKA.client().send(input);
        input.clear();
        for (int i = 0; i < 30; i++) { // minute 0: 20 orders from c-1 (north), 10 from c-2 (south)
            input.add(order("o-" + i, i % 3 == 2 ? "c-2" : "c-1", T0 + i * 1_000L));
        }
        input.add(order("o-late", "c-1", T0 + MINUTE + 20_000)); // closes minute 0 (10 s allowed lateness)
        KAFKA.client().send(input);

        try (WeirApp app = WeirApp.create(OrdersService.topology(), OrdersService.config()
                .bootstrapServers(KAFKA.bootstrapServers())
                .stateDir(stateDir)
                .set("http.port", 0)             // any free port
                .set("idle.timeout.ms", 1_000)   // the quiet customers topic stops holding the watermark sooner
                .environment(Map.of())
                .build()).start()) {
            List<ConsumerRecord<Windowed<String>, Long>> counts = KAFKA.client().readUntil(ORDERS_PER_MINUTE,
                    Serdes.windowed(Serdes.strings())::deserialize, new LongDeserializer(),
                    IsolationLevel.READ_COMMITTED, records -> records.size() >= 2, TIMEOUT);
            assertThat(counts).extracting(r -> r.key().key(), ConsumerRecord::value)
                    .containsExactlyInAnyOrder(
                            tuple("north", 20L),
                            tuple("south", 10L));

            StoreQueryClient queries = StoreQueryClient.builder()
                    .endpoint("http://localhost:" + app.httpPort().orElseThrow())
                    .build();
            // The last hour's minutes, over HTTP: minute 0 (closed, published) and minute 1 so far.
            QueryAnswer north = queries.windows(COUNT_STORE, "north", T0, T0 + MINUTE);
            JsonNode windows = north.body().path("windows");
            assertThat(windows).hasSize(2);
            assertThat(windows.get(0).path("start").asLong()).isEqualTo(T0);
            assertThat(windows.get(0).path("value").asLong()).isEqualTo(20L);
            assertThat(windows.get(1).path("start").asLong()).isEqualTo(T0 + MINUTE);
            assertThat(windows.get(1).path("value").asLong()).isEqualTo(1L);
            assertThat(app.failure()).isEmpty();
        }
    }

    private static ProducerRecord<byte[], byte[]> order(String orderId, String customerId, long placedAt) {
        return record(ORDERS, orderId, Serdes.json(Order.class), new Order(customerId, 10.0, placedAt), placedAt);
    }

    private static <V> ProducerRecord<byte[], byte[]> record(
            String topic, String key, Serde<V> serde, V value, long timestamp) {
        return new ProducerRecord<>(topic, null, timestamp, Serdes.strings().serialize(topic, key),
                serde.serialize(topic, value));
    }
}
// end::it[]
