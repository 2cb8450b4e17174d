package io.weir.internal.config;

import io.weir.errors.ConfigException;
import io.weir.sink.DeliveryGuarantee;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Checks pass-through Kafka settings at {@code build()}, the way the clients would check them when
 * Weir creates them, so that a bad value fails at start-up naming the setting as the user wrote it
 * instead of seconds into the run.
 *
 * <p>Each value is parsed and validated with the client's own {@link ConfigDef} key (its type and
 * validator, what {@link ConfigDef#parse} does per key). Parsing per key, instead of building a
 * {@code ProducerConfig}, names the failing setting exactly, needs no dummy values for the settings
 * Weir supplies (bootstrap servers, serializers) and logs nothing ({@code new ProducerConfig(map)}
 * logs every value at INFO).
 */
final class ClientSettingsValidator {

    /** The idempotent producer Kafka allows has at most this many requests in flight. */
    private static final int MAX_IDEMPOTENT_IN_FLIGHT = 5;

    private ClientSettingsValidator() {}

    /**
     * Parses {@code value} as the client's setting {@code name}.
     *
     * @param written the setting as the user wrote it, with its prefix
     * @return the parsed value
     * @throws ConfigException naming {@code written} and Kafka's reason
     */
    static Object check(KafkaClient client, String written, String name, String value) {
        ConfigDef.ConfigKey key = client.key(name);
        try {
            Object parsed = ConfigDef.parseType(name, value, key.type);
            if (key.validator != null) {
                key.validator.ensureValid(name, parsed);
            }
            return parsed;
        } catch (KafkaException e) {
            if (KafkaClient.isPassword(name)) {
                // Kafka's message repeats the value, and the value is a secret.
                throw new ConfigException(
                        written, "the Kafka " + client.label() + " rejects its value (not shown:" + " it is a secret)");
            }
            throw new ConfigException(
                    written, "the Kafka " + client.label() + " rejects '" + value + "': " + e.getMessage());
        }
    }

    /**
     * Checks the producer settings against the guarantee. Under {@code exactly_once} the producer
     * is transactional, which needs the idempotent producer: {@code acks=all} and
     * {@code enable.idempotence=true} (Weir sets both; a user may only repeat them). Under the other
     * guarantees both are honoured, but an explicitly idempotent producer still needs
     * {@code acks=all}, which Kafka would only report when the producer is created.
     *
     * @param producer the producer's settings (unprefixed name to value)
     * @param written  for each name in {@code producer}, the setting as the user wrote it
     */
    static void checkProducer(Map<String, Object> producer, Map<String, String> written, DeliveryGuarantee guarantee) {
        boolean exactlyOnce = guarantee == DeliveryGuarantee.EXACTLY_ONCE;
        Object acks = producer.get(ProducerConfig.ACKS_CONFIG);
        boolean acksAll = acks == null || isAll(acks);
        Object idempotence = producer.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG);
        boolean idempotent = idempotence != null
                && Boolean.parseBoolean(String.valueOf(idempotence).trim());
        if (exactlyOnce && !acksAll) {
            throw new ConfigException(
                    written.get(ProducerConfig.ACKS_CONFIG),
                    "'" + acks + "' is not allowed under"
                            + " processing.guarantee=exactly_once: exactly_once needs acks=all (or -1)");
        }
        if (exactlyOnce && idempotence != null && !idempotent) {
            throw new ConfigException(
                    written.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG),
                    "'" + idempotence
                            + "' is not allowed under processing.guarantee=exactly_once: exactly_once needs"
                            + " enable.idempotence=true");
        }
        if (idempotent && !acksAll) {
            throw new ConfigException(
                    written.get(ProducerConfig.ACKS_CONFIG),
                    "'" + acks + "' is not allowed with "
                            + written.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG)
                            + "=true: the idempotent producer needs"
                            + " acks=all (or -1)");
        }
        Object inFlight = producer.get(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION);
        if ((exactlyOnce || idempotent)
                && inFlight != null
                && Integer.parseInt(String.valueOf(inFlight).trim()) > MAX_IDEMPOTENT_IN_FLIGHT) {
            throw new ConfigException(
                    written.get(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION),
                    "'" + inFlight
                            + "' is too large for the idempotent producer ("
                            + (exactlyOnce ? "exactly_once needs it" : "enable.idempotence=true") + "); allowed: 1 to "
                            + MAX_IDEMPOTENT_IN_FLIGHT);
        }
    }

    private static boolean isAll(Object acks) {
        String a = String.valueOf(acks).trim().toLowerCase(Locale.ROOT);
        return a.equals("all") || a.equals("-1");
    }
}
