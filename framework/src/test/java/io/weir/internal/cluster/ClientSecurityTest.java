package io.weir.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.config.WeirConfig;
import io.weir.errors.ConfigException;
import io.weir.internal.config.ClientSettings;
import io.weir.internal.config.KafkaClients;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Kafka security settings reach every client an instance creates. The check goes over every
 * method of {@link ClientConfigs} that returns client settings, found by reflection, so a client
 * path added later is covered without editing this test.
 */
class ClientSecurityTest {

    static final String JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required"
            + " username=\"app\" password=\"s3cret-sasl\";";
    static final Map<String, String> SECURITY = Map.of(
            "security.protocol", "SASL_SSL",
            "sasl.mechanism", "SCRAM-SHA-512",
            "sasl.jaas.config", JAAS,
            "ssl.truststore.location", "/etc/weir/truststore.p12",
            "ssl.truststore.password", "s3cret-store",
            "ssl.endpoint.identification.algorithm", "https");

    static WeirConfig secured(Map<String, String> security) {
        WeirConfig.Builder b = WeirConfig.builder()
                .applicationId("app")
                .bootstrapServers("b:9093")
                .environment(Map.of());
        security.forEach(b::set);
        return b.build();
    }

    /** Every settings map of {@code clients}, by the method that made it. */
    static Map<String, Map<String, Object>> everyClient(ClientConfigs clients) throws Exception {
        Map<String, Map<String, Object>> all = new java.util.TreeMap<>();
        for (Method m : ClientConfigs.class.getDeclaredMethods()) {
            if (!Modifier.isPublic(m.getModifiers()) || !Map.class.isAssignableFrom(m.getReturnType())) {
                continue;
            }
            List<Object> args = new ArrayList<>();
            for (Class<?> p : m.getParameterTypes()) {
                args.add(p == int.class ? (Object) 1 : "role");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> settings = (Map<String, Object>) m.invoke(clients, args.toArray());
            all.put(m.getName(), settings);
        }
        return all;
    }

    @Test
    void everyClientGetsTheSaslAndTlsSettings() throws Exception {
        Map<String, Map<String, Object>> all =
                everyClient(new ClientConfigs(secured(SECURITY), "i1", KafkaClients.unmetered()));
        assertThat(all.keySet())
                .contains("consumer", "restoreConsumer", "plainConsumer", "producer", "plainProducer", "admin");
        all.forEach((client, settings) -> SECURITY.forEach(
                (name, value) -> assertThat(settings).as(client + " " + name).containsEntry(name, value)));
    }

    @Test
    void oauthBearerAndMutualTlsSettingsPassThroughAsGiven() throws Exception {
        Map<String, String> oauth = Map.of(
                "security.protocol",
                "SASL_SSL",
                "sasl.mechanism",
                "OAUTHBEARER",
                "sasl.jaas.config",
                "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required"
                        + " clientId=\"app\" clientSecret=\"s3cret-oauth\";",
                "sasl.oauthbearer.token.endpoint.url",
                "https://idp.example/token",
                "sasl.login.callback.handler.class",
                "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler");
        Map<String, String> mtls = Map.of(
                "security.protocol", "SSL",
                "ssl.keystore.location", "/etc/weir/app.p12",
                "ssl.keystore.password", "s3cret-keystore",
                "ssl.key.password", "s3cret-key",
                "ssl.truststore.location", "/etc/weir/truststore.p12");
        for (Map<String, String> security : List.of(oauth, mtls)) {
            everyClient(new ClientConfigs(secured(security), "i1", KafkaClients.unmetered()))
                    .forEach((client, settings) -> security.forEach((name, value) ->
                            assertThat(settings).as(client + " " + name).containsEntry(name, value)));
        }
    }

    @Test
    void clientPrefixedSecuritySettingsWinForTheirClient() throws Exception {
        Map<String, String> s = new java.util.HashMap<>(SECURITY);
        s.put("admin.sasl.jaas.config", JAAS.replace("app", "ops"));
        Map<String, Map<String, Object>> all =
                everyClient(new ClientConfigs(secured(s), "i1", KafkaClients.unmetered()));
        assertThat(all.get("admin")).containsEntry("sasl.jaas.config", JAAS.replace("app", "ops"));
        assertThat(all.get("consumer")).containsEntry("sasl.jaas.config", JAAS);
    }

    @Test
    void secretsAreHiddenInTheConfigsTextAndInErrors() {
        assertThat(secured(SECURITY).toString())
                .doesNotContain("s3cret")
                .contains("sasl.jaas.config=[hidden]", "ssl.truststore.password=[hidden]");
        for (String name : List.of(
                "sasl.jaas.config",
                "ssl.key.password",
                "ssl.keystore.password",
                "ssl.truststore.password",
                "ssl.keystore.key",
                "ssl.keystore.certificate.chain",
                "ssl.truststore.certificates",
                "consumer.sasl.jaas.config",
                "admin.ssl.key.password")) {
            assertThat(ClientSettings.isSecret(name)).as(name).isTrue();
        }
        assertThat(ClientSettings.isSecret("sasl.mechanism")).isFalse();
        assertThat(ClientSettings.isSecret("ssl.truststore.location")).isFalse();
    }

    @Test
    void aRejectedSecretIsNotRepeatedInTheError() {
        assertThatThrownBy(() -> secured(
                        Map.of("ssl.truststore.password", "s3cret-store", "security.protocol", "NOT_A_PROTOCOL")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("security.protocol")
                .message()
                .doesNotContain("s3cret");
    }
}
