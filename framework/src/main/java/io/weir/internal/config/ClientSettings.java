package io.weir.internal.config;

import io.weir.errors.ConfigException;
import io.weir.sink.DeliveryGuarantee;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Kafka client settings a user passed through, validated and split per client.
 *
 * <p>An unprefixed Kafka setting goes to every client that knows it; {@code consumer.},
 * {@code producer.} and {@code admin.} target one client and win over the unprefixed form;
 * {@code restore.consumer.} targets the consumer that restores stores, on top of the consumer's
 * settings and Weir's bulk defaults. Guarantees: every value is valid for its client (see
 * {@link ClientSettingsValidator}); no setting Weir manages is present; a name that is neither a
 * Weir setting nor a Kafka client setting is rejected; the producer's {@code acks} and
 * {@code enable.idempotence} fit the guarantee.
 *
 * @param consumer        settings of the stream threads' consumers (unprefixed names)
 * @param restoreConsumer the {@code restore.consumer.} settings only (unprefixed names)
 * @param producer        settings of the producers
 * @param admin           settings of the admin client
 */
public record ClientSettings(
        Map<String, Object> consumer,
        Map<String, Object> restoreConsumer,
        Map<String, Object> producer,
        Map<String, Object> admin) {

    /** Settings Weir sets itself for its guarantees, with what to set instead. */
    private static final Map<String, String> MANAGED = Map.ofEntries(
            Map.entry("group.id", "application.id"),
            Map.entry("group.instance.id", "instance.id"),
            Map.entry("transactional.id", "processing.guarantee and instance.id"),
            Map.entry("enable.auto.commit", "processing.guarantee"),
            Map.entry("isolation.level", "processing.guarantee"),
            Map.entry("partition.assignment.strategy", "nothing (Weir assigns whole tasks)"),
            // Weir's assignor runs in the client, which only the classic group protocol allows.
            Map.entry("group.protocol", "nothing (Weir's task assignor needs the classic group protocol)"),
            Map.entry("key.serializer", "serdes in the topology"),
            Map.entry("value.serializer", "serdes in the topology"),
            Map.entry("key.deserializer", "serdes in the topology"),
            Map.entry("value.deserializer", "serdes in the topology"));

    /**
     * Splits and validates the Kafka settings among {@code values} (Weir settings are skipped).
     *
     * @param bootstrapServers added to the consumer, producer and admin settings
     * @throws ConfigException naming the first bad setting as written
     */
    public static ClientSettings from(
            Map<String, String> values, DeliveryGuarantee guarantee, String bootstrapServers) {
        Map<KafkaClient, Map<String, Object>> settings = new EnumMap<>(KafkaClient.class);
        Map<KafkaClient, Map<String, String>> written = new EnumMap<>(KafkaClient.class);
        for (KafkaClient c : KafkaClient.values()) {
            settings.put(c, new LinkedHashMap<>());
            written.put(c, new LinkedHashMap<>());
        }
        // Unprefixed first, so that a prefixed setting wins whatever the order of the names.
        new TreeMap<>(values).forEach((name, value) -> {
            if (!Settings.ALL.containsKey(name) && KafkaClient.ofPrefixed(name) == null) {
                if (!KafkaClient.anyKnows(name)) {
                    throw unknown(name);
                }
                for (KafkaClient c :
                        new KafkaClient[] {KafkaClient.CONSUMER, KafkaClient.PRODUCER, KafkaClient.ADMIN}) {
                    if (c.knows(name)) {
                        put(c, name, name, value, settings, written);
                    }
                }
            }
        });
        new TreeMap<>(values).forEach((name, value) -> {
            KafkaClient c = KafkaClient.ofPrefixed(name);
            if (c != null) {
                put(c, name, name.substring(c.prefix().length()), value, settings, written);
            }
        });
        ClientSettingsValidator.checkProducer(
                settings.get(KafkaClient.PRODUCER), written.get(KafkaClient.PRODUCER), guarantee);
        for (KafkaClient c : new KafkaClient[] {KafkaClient.CONSUMER, KafkaClient.PRODUCER, KafkaClient.ADMIN}) {
            settings.get(c).put("bootstrap.servers", bootstrapServers);
        }
        return new ClientSettings(
                frozen(settings.get(KafkaClient.CONSUMER)),
                frozen(settings.get(KafkaClient.RESTORE_CONSUMER)),
                frozen(settings.get(KafkaClient.PRODUCER)),
                frozen(settings.get(KafkaClient.ADMIN)));
    }

    /**
     * True if the value of {@code name} is a secret that must never be logged nor shown in an
     * error: a Kafka setting of type PASSWORD, prefixed or not ({@code sasl.jaas.config},
     * {@code ssl.key.password}, {@code ssl.keystore.password}, {@code ssl.truststore.password},
     * {@code ssl.keystore.key}, {@code ssl.keystore.certificate.chain},
     * {@code ssl.truststore.certificates}, the OAuth client secret...), whatever Kafka version
     * declares them, or one of Weir's own ({@link Settings#SECRETS}: HTTP key store passwords and
     * tokens).
     */
    public static boolean isSecret(String name) {
        return KafkaClient.isPassword(name) || Settings.SECRETS.contains(name);
    }

    /**
     * True if {@code name} is a Weir setting, a Kafka client setting, or a Kafka client setting
     * behind the prefix of the client that knows it ({@code producer.linger.ms}).
     */
    public static boolean isKnown(String name) {
        if (Settings.ALL.containsKey(name) || KafkaClient.anyKnows(name)) {
            return true;
        }
        KafkaClient c = KafkaClient.ofPrefixed(name);
        return c != null && c.knows(name.substring(c.prefix().length()));
    }

    private static void put(
            KafkaClient client,
            String written,
            String name,
            String value,
            Map<KafkaClient, Map<String, Object>> settings,
            Map<KafkaClient, Map<String, String>> writtenNames) {
        if (!client.knows(name)) {
            throw new ConfigException(written, "'" + name + "' is not a Kafka " + client.label() + " setting");
        }
        if (!written.equals(name) && Settings.ALL.containsKey(name)) {
            // bootstrap.servers and transaction.timeout.ms: one value for all clients, set by Weir.
            throw new ConfigException(
                    written, "is set for every client by the Weir setting " + name + "; set " + name + " instead");
        }
        if (MANAGED.containsKey(name)) {
            throw new ConfigException(written, "is managed by Weir; set " + MANAGED.get(name) + " instead");
        }
        if (client == KafkaClient.RESTORE_CONSUMER && name.equals("auto.offset.reset")) {
            throw new ConfigException(
                    written, "is managed by Weir: the restore consumer seeks to the offsets it" + " restores from");
        }
        ClientSettingsValidator.check(client, written, name, value);
        settings.get(client).put(name, value);
        writtenNames.get(client).put(name, written);
    }

    private static ConfigException unknown(String name) {
        return new ConfigException(
                name,
                "unknown setting; Weir settings are " + String.join(", ", new TreeMap<>(Settings.ALL).keySet())
                        + "; Kafka client settings pass through, unprefixed or with"
                        + " a consumer., producer., admin. or restore.consumer. prefix");
    }

    private static Map<String, Object> frozen(Map<String, Object> m) {
        return Collections.unmodifiableMap(m);
    }
}
