package io.weir.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.errors.ConfigException;
import io.weir.sink.DeliveryGuarantee;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClientSettingsTest {

    private static ClientSettings from(DeliveryGuarantee guarantee, Map<String, String> values) {
        return ClientSettings.from(values, guarantee, "broker:9092");
    }

    private static ClientSettings from(Map<String, String> values) {
        return from(DeliveryGuarantee.EXACTLY_ONCE, values);
    }

    @Test
    void unprefixedGoesToEveryClientThatKnowsItAndPrefixedWins() {
        ClientSettings s = from(Map.of(
                "session.timeout.ms",
                "20000",
                "consumer.session.timeout.ms",
                "30000",
                "retries",
                "3",
                "security.protocol",
                "SSL"));
        assertThat(s.consumer())
                .containsEntry("session.timeout.ms", "30000")
                .containsEntry("security.protocol", "SSL")
                .containsEntry("bootstrap.servers", "broker:9092")
                .doesNotContainKey("retries");
        assertThat(s.producer()).containsEntry("retries", "3").containsEntry("security.protocol", "SSL");
        assertThat(s.admin()).containsEntry("retries", "3").containsEntry("security.protocol", "SSL");
        assertThat(s.restoreConsumer()).isEmpty();
    }

    @Test
    void restoreConsumerPrefixTargetsOnlyTheRestoreConsumer() {
        ClientSettings s =
                from(Map.of("restore.consumer.max.poll.records", "500", "restore.consumer.fetch.max.bytes", "1048576"));
        assertThat(s.restoreConsumer())
                .containsOnly(Map.entry("max.poll.records", "500"), Map.entry("fetch.max.bytes", "1048576"));
        assertThat(s.consumer()).doesNotContainKey("max.poll.records");
    }

    @Test
    void managedSettingsAreRejectedUnderEveryPrefixNamingTheSettingAsWritten() {
        assertThatThrownBy(() -> from(Map.of("restore.consumer.group.id", "x")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'restore.consumer.group.id'")
                .hasMessageContaining("application.id");
        assertThatThrownBy(() -> from(Map.of("restore.consumer.isolation.level", "read_uncommitted")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("processing.guarantee");
        assertThatThrownBy(() -> from(Map.of("restore.consumer.auto.offset.reset", "latest")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'restore.consumer.auto.offset.reset'")
                .hasMessageContaining("seeks");
        assertThatThrownBy(() -> from(Map.of("producer.key.serializer", "x")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'producer.key.serializer'");
        assertThatThrownBy(() -> from(Map.of("group.protocol", "consumer")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'group.protocol'")
                .hasMessageContaining("classic group protocol");
    }

    @Test
    void prefixedFormsOfWeirSettingsAreRejectedWithTheWeirSetting() {
        assertThatThrownBy(() -> from(Map.of("producer.transaction.timeout.ms", "60000")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'producer.transaction.timeout.ms'")
                .hasMessageContaining("set transaction.timeout.ms instead");
        assertThatThrownBy(() -> from(Map.of("consumer.bootstrap.servers", "other:1")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("set bootstrap.servers instead");
    }

    @Test
    void unknownNamesAreRejected() {
        assertThatThrownBy(() -> from(Map.of("lingr.ms", "5")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'lingr.ms'")
                .hasMessageContaining("unknown setting");
        assertThatThrownBy(() -> from(Map.of("restore.consumer.linger.ms", "5")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'restore.consumer.linger.ms'")
                .hasMessageContaining("not a Kafka restore.consumer setting");
    }

    @Test
    void valuesAreValidatedByTheClientsOwnDefinitions() {
        assertThatThrownBy(() -> from(Map.of("restore.consumer.max.poll.records", "0")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'restore.consumer.max.poll.records'")
                .hasMessageContaining("the Kafka restore.consumer rejects '0'");
        assertThatThrownBy(() -> from(Map.of("admin.request.timeout.ms", "-1")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'admin.request.timeout.ms'");
        assertThatThrownBy(() -> from(Map.of("security.protocol", "TLS")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'security.protocol'");
    }

    @Test
    void exactlyOnceAllowsOnlyAcksAllAndIdempotence() {
        assertThatCode(() -> from(Map.of("acks", "all", "producer.enable.idempotence", "true")))
                .doesNotThrowAnyException();
        assertThatCode(() -> from(Map.of("producer.acks", "-1"))).doesNotThrowAnyException();
        assertThatThrownBy(() -> from(Map.of("producer.acks", "1")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'producer.acks'")
                .hasMessageContaining("exactly_once needs acks=all");
        assertThatThrownBy(() -> from(Map.of("enable.idempotence", "false")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'enable.idempotence'")
                .hasMessageContaining("exactly_once needs enable.idempotence=true");
        assertThatThrownBy(() -> from(Map.of("producer.max.in.flight.requests.per.connection", "6")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'producer.max.in.flight.requests.per.connection'");
    }

    @Test
    void otherGuaranteesHonourAcksAndIdempotence() {
        for (DeliveryGuarantee g : new DeliveryGuarantee[] {
            DeliveryGuarantee.AT_LEAST_ONCE, DeliveryGuarantee.AT_MOST_ONCE, DeliveryGuarantee.NONE
        }) {
            ClientSettings s = from(g, Map.of("acks", "1", "enable.idempotence", "false"));
            assertThat(s.producer()).containsEntry("acks", "1").containsEntry("enable.idempotence", "false");
        }
        assertThatThrownBy(() -> from(
                        DeliveryGuarantee.AT_LEAST_ONCE,
                        Map.of("producer.acks", "0", "producer.enable.idempotence", "true")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'producer.acks'")
                .hasMessageContaining("idempotent producer needs acks=all");
    }

    @Test
    void knownNamesCoverWeirKafkaAndPrefixedKafkaSettings() {
        assertThat(ClientSettings.isKnown("poll.ms")).isTrue();
        assertThat(ClientSettings.isKnown("linger.ms")).isTrue();
        assertThat(ClientSettings.isKnown("producer.linger.ms")).isTrue();
        assertThat(ClientSettings.isKnown("restore.consumer.fetch.max.bytes")).isTrue();
        assertThat(ClientSettings.isKnown("consumer.linger.ms")).isFalse();
        assertThat(ClientSettings.isKnown("x.service.host")).isFalse();
    }
}
