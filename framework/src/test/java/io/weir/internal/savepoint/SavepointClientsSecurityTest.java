package io.weir.internal.savepoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.config.WeirConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The savepoint tools' clients (taken, read and restored by {@code weir savepoint}) carry the security settings. */
class SavepointClientsSecurityTest {

    private static final Map<String, String> SECURITY = Map.of(
            "security.protocol", "SASL_SSL",
            "sasl.mechanism", "PLAIN",
            "sasl.jaas.config",
                    "org.apache.kafka.common.security.plain.PlainLoginModule required"
                            + " username=\"app\" password=\"pw\";",
            "ssl.truststore.location", "/etc/weir/truststore.p12",
            "ssl.truststore.password", "pw");

    @Test
    void consumerAndProducerCarryTheApplicationsSecuritySettings() {
        WeirConfig.Builder b = WeirConfig.builder()
                .applicationId("app")
                .bootstrapServers("b:9093")
                .environment(Map.of());
        SECURITY.forEach(b::set);
        WeirConfig config = b.build();
        SECURITY.forEach((name, value) -> {
            assertThat(SavepointClients.consumerConfig(config, "t")).containsEntry(name, value);
            assertThat(SavepointClients.producerConfig(config, "t", Map.of())).containsEntry(name, value);
        });
    }
}
