package io.weir.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.config.WeirConfig;
import io.weir.internal.config.KafkaClients;
import io.weir.sink.DeliveryGuarantee;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClientConfigsTest {

    private static WeirConfig.Builder valid() {
        return WeirConfig.builder().applicationId("app").bootstrapServers("b:1").environment(Map.of());
    }

    private static ClientConfigs clients(WeirConfig config) {
        return new ClientConfigs(config, "i1", KafkaClients.unmetered());
    }

    @Test
    void clientIdsDefaultToApplicationAndInstanceWithThreadAndRole() {
        ClientConfigs c = clients(valid().build());
        assertThat(c.consumer(0)).containsEntry("client.id", "app-i1-0-consumer");
        assertThat(c.restoreConsumer(1)).containsEntry("client.id", "app-i1-1-restore-consumer");
        assertThat(c.producer(2))
                .containsEntry("client.id", "app-i1-2-producer")
                .containsEntry("transactional.id", "app-i1-2");
        assertThat(c.admin()).containsEntry("client.id", "app-i1-admin");
    }

    @Test
    void clientIdIsHonouredAsThePrefixButNotForTransactionalIds() {
        ClientConfigs c = clients(valid().set("client.id", "orders")
                .set("producer.client.id", "orders-out")
                .build());
        assertThat(c.consumer(0)).containsEntry("client.id", "orders-0-consumer");
        assertThat(c.restoreConsumer(0)).containsEntry("client.id", "orders-0-restore-consumer");
        assertThat(c.producer(0))
                .containsEntry("client.id", "orders-out-0-producer")
                .containsEntry("transactional.id", "app-i1-0");
        assertThat(c.admin()).containsEntry("client.id", "orders-admin");
    }

    @Test
    void restoreConsumerKeepsBulkDefaultsOverConsumerSettingsAndTakesItsOwnPrefix() {
        ClientConfigs plain = clients(valid().set("consumer.max.poll.records", "50")
                .set("consumer.fetch.max.wait.ms", "200")
                .build());
        assertThat(plain.consumer(0)).containsEntry("max.poll.records", "50");
        assertThat(plain.restoreConsumer(0))
                .containsEntry("max.poll.records", 10_000)
                .containsEntry("fetch.max.wait.ms", 10);
        ClientConfigs tuned = clients(valid().set("restore.consumer.max.poll.records", "2000")
                .set("restore.consumer.client.id", "restorer")
                .build());
        assertThat(tuned.restoreConsumer(0))
                .containsEntry("max.poll.records", "2000")
                .containsEntry("fetch.max.bytes", 8 << 20)
                .containsEntry("client.id", "restorer-0-restore-consumer")
                .containsEntry("isolation.level", "read_committed");
        assertThat(tuned.consumer(0)).containsEntry("max.poll.records", 1000);
    }

    @Test
    void acksAndIdempotenceAreHonouredOutsideExactlyOnce() {
        ClientConfigs c = clients(valid().guarantee(DeliveryGuarantee.AT_MOST_ONCE)
                .set("acks", "1")
                .set("enable.idempotence", "false")
                .build());
        assertThat(c.producer(0))
                .containsEntry("acks", "1")
                .containsEntry("enable.idempotence", "false")
                .doesNotContainKey("transactional.id");
        assertThat(clients(valid().guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
                        .producer(0))
                .containsEntry("acks", "all");
        assertThat(clients(valid().build()).producer(0))
                .containsEntry("acks", "all")
                .containsEntry("enable.idempotence", true);
    }
}
