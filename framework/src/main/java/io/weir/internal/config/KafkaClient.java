package io.weir.internal.config;

import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;

/** The Kafka clients a Weir instance creates, with the prefix that targets each and its settings. */
enum KafkaClient {
    CONSUMER("consumer", ConsumerConfig.configDef()),
    RESTORE_CONSUMER("restore.consumer", ConsumerConfig.configDef()),
    PRODUCER("producer", ProducerConfig.configDef()),
    ADMIN("admin", AdminClientConfig.configDef());

    private final String label;
    private final String prefix;
    private final Map<String, ConfigDef.ConfigKey> keys;

    KafkaClient(String label, ConfigDef definition) {
        this.label = label;
        this.prefix = label + ".";
        this.keys = definition.configKeys();
    }

    /** For example {@code restore.consumer}. */
    String label() {
        return label;
    }

    /** For example {@code producer.}. */
    String prefix() {
        return prefix;
    }

    /** The names of this client's settings, unprefixed. */
    Set<String> names() {
        return keys.keySet();
    }

    boolean knows(String name) {
        return keys.containsKey(name);
    }

    ConfigDef.ConfigKey key(String name) {
        return keys.get(name);
    }

    /** The client a prefixed name targets, or null. */
    static KafkaClient ofPrefixed(String name) {
        for (KafkaClient c : values()) {
            if (name.startsWith(c.prefix)) {
                return c;
            }
        }
        return null;
    }

    /** True if {@code name} is an unprefixed setting of any Kafka client. */
    static boolean anyKnows(String name) {
        return CONSUMER.knows(name) || PRODUCER.knows(name) || ADMIN.knows(name);
    }

    /** True if {@code name} (prefixed or not) is a Kafka setting of type PASSWORD, such as {@code ssl.key.password} or {@code sasl.jaas.config}. */
    static boolean isPassword(String name) {
        KafkaClient prefixed = ofPrefixed(name);
        String bare = prefixed == null ? name : name.substring(prefixed.prefix.length());
        for (KafkaClient c : values()) {
            ConfigDef.ConfigKey key = c.keys.get(bare);
            if (key != null && key.type == ConfigDef.Type.PASSWORD) {
                return true;
            }
        }
        return false;
    }
}
