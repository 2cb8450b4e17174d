package io.weir.testing;

import io.weir.testkit.KafkaTestClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * What an application wrote, read back for the checks of fault tests: how far a topic grew (to
 * kill an application at a random point of its output), and the committed records of a topic with
 * string keys.
 */
public final class Outputs {

    private static final Duration READ = Duration.ofMinutes(1);

    private Outputs() {}

    /** Records written to {@code topic} so far (committed or not, markers included); 0 before it exists. */
    public static long endOffsets(KafkaTestClient client, String topic) {
        try {
            return client.countPerPartition(topic).values().stream()
                    .mapToLong(Long::longValue)
                    .sum();
        } catch (AssertionError | RuntimeException notYetCreated) {
            return 0;
        }
    }

    /** Every committed record of {@code topic}, read to its end. */
    public static <V> List<ConsumerRecord<String, V>> committed(
            KafkaTestClient client, String topic, Deserializer<V> values) {
        return client.readAllCommitted(topic, new StringDeserializer(), values, READ);
    }

    /** The last committed value of every key of {@code topic} ({@code null} for a tombstone). */
    public static <V> Map<String, V> lastPerKey(KafkaTestClient client, String topic, Deserializer<V> values) {
        Map<String, V> last = new TreeMap<>();
        for (ConsumerRecord<String, V> r : committed(client, topic, values)) {
            last.put(r.key(), r.value());
        }
        return last;
    }

    /** The keys of {@code lastPerKey} whose last value is not a tombstone: what a table holds. */
    public static <V> Map<String, V> present(Map<String, V> lastPerKey) {
        Map<String, V> present = new TreeMap<>(lastPerKey);
        present.values().removeIf(Objects::isNull);
        return present;
    }
}
