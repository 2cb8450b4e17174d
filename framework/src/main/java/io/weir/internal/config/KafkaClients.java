package io.weir.internal.config;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Where the framework's Kafka clients are created, every one of them: the stream threads', the
 * state thread's, the liveness watch's, the savepoints', the admin clients. The settings are the
 * caller's, taken as they are (built by {@code ClientConfigs}, {@code SavepointClients} or
 * {@code WeirConfig}'s admin settings, which the security tests check); one place to create
 * clients is one place to add what every client must have: their metrics.
 *
 * <p>A running instance has {@link #metered} clients: each one's own Kafka metrics are bound to the
 * instance's registry ({@link ClientMeters}) when it is created and removed when it closes, whichever
 * {@code close} is called (a producer replaced after a fence, a thread that stops). The tools (CLI
 * commands, savepoint restores, the topology record read before the threads start) make
 * {@link #unmetered} clients: nothing scrapes them, or not before they are gone.
 *
 * <p>In the lowest internal room, beside the client settings, so that every room may use it
 * (the topology record's clients included); {@code ClientConfigs}' room ranks above the topology.
 */
public final class KafkaClients {

    private static final KafkaClients UNMETERED = new KafkaClients(Optional.empty());

    private final Optional<ClientMeters> meters;

    private KafkaClients(Optional<ClientMeters> meters) {
        this.meters = meters;
    }

    /** Clients whose metrics go to {@code meters}, tagged with the role given for each. */
    public static KafkaClients metered(ClientMeters meters) {
        return new KafkaClients(Optional.of(meters));
    }

    /** Clients without meters. */
    public static KafkaClients unmetered() {
        return UNMETERED;
    }

    /** A consumer with {@code config}, deserializers included. */
    public <K, V> KafkaConsumer<K, V> consumer(ClientRole role, Map<String, Object> config) {
        return meters.<KafkaConsumer<K, V>>map(m -> new MeteredConsumer<>(config, null, null, m, role))
                .orElseGet(() -> new KafkaConsumer<>(config));
    }

    /** A consumer with {@code config} and these deserializers. */
    public <K, V> KafkaConsumer<K, V> consumer(
            ClientRole role, Map<String, Object> config, Deserializer<K> keys, Deserializer<V> values) {
        return meters.<KafkaConsumer<K, V>>map(m -> new MeteredConsumer<>(config, keys, values, m, role))
                .orElseGet(() -> new KafkaConsumer<>(config, keys, values));
    }

    /** A producer with {@code config}, serializers included. */
    public <K, V> KafkaProducer<K, V> producer(ClientRole role, Map<String, Object> config) {
        return meters.<KafkaProducer<K, V>>map(m -> new MeteredProducer<>(config, null, null, m, role))
                .orElseGet(() -> new KafkaProducer<>(config));
    }

    /** A producer with {@code config} and these serializers. */
    public <K, V> KafkaProducer<K, V> producer(
            ClientRole role, Map<String, Object> config, Serializer<K> keys, Serializer<V> values) {
        return meters.<KafkaProducer<K, V>>map(m -> new MeteredProducer<>(config, keys, values, m, role))
                .orElseGet(() -> new KafkaProducer<>(config, keys, values));
    }

    /** An admin client with {@code config}. */
    public Admin admin(ClientRole role, Map<String, Object> config) {
        AdminClient admin = AdminClient.create(config);
        return meters.map(m -> meteredAdmin(admin, m.bind(admin, role))).orElse(admin);
    }

    /**
     * The admin client as an {@link Admin} whose {@code close}, any of them, also removes its
     * meters. A proxy, because the client's class cannot be extended (it is made by a factory) and
     * {@code Admin} has a hundred methods to forward.
     */
    private static Admin meteredAdmin(AdminClient admin, ClientMeters.Binding binding) {
        return (Admin) Proxy.newProxyInstance(
                Admin.class.getClassLoader(), new Class<?>[] {Admin.class}, (proxy, method, args) -> {
                    if (method.getName().equals("close")) {
                        binding.close();
                    }
                    try {
                        return method.invoke(admin, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /**
     * A consumer whose meters go with it. Each {@code close} removes them before closing the client
     * (the binding closes once; a close that delegates to another does no harm).
     */
    private static final class MeteredConsumer<K, V> extends KafkaConsumer<K, V> {
        private final ClientMeters.Binding binding;

        MeteredConsumer(
                Map<String, Object> config,
                Deserializer<K> keys,
                Deserializer<V> values,
                ClientMeters meters,
                ClientRole role) {
            super(config, keys, values);
            this.binding = meters.bind(this, role);
        }

        @Override
        public void close() {
            try {
                binding.close();
            } finally {
                super.close();
            }
        }

        @Override
        @SuppressWarnings("deprecation")
        public void close(Duration timeout) {
            try {
                binding.close();
            } finally {
                super.close(timeout);
            }
        }

        @Override
        public void close(CloseOptions options) {
            try {
                binding.close();
            } finally {
                super.close(options);
            }
        }
    }

    /** A producer whose meters go with it, as {@link MeteredConsumer}'s. */
    private static final class MeteredProducer<K, V> extends KafkaProducer<K, V> {
        private final ClientMeters.Binding binding;

        MeteredProducer(
                Map<String, Object> config,
                Serializer<K> keys,
                Serializer<V> values,
                ClientMeters meters,
                ClientRole role) {
            super(config, keys, values);
            this.binding = meters.bind(this, role);
        }

        @Override
        public void close() {
            try {
                binding.close();
            } finally {
                super.close();
            }
        }

        @Override
        public void close(Duration timeout) {
            try {
                binding.close();
            } finally {
                super.close(timeout);
            }
        }
    }
}
