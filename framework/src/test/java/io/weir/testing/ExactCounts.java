package io.weir.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.testkit.KafkaTestClient;
import io.weir.testkit.Records;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** The exactly-once check of a count per key written to a topic (UTF-8 keys, 8-byte long counts). */
public final class ExactCounts {

    private ExactCounts() {}

    /**
     * Waits until the committed output shows {@code model}'s count for every key, then reads the
     * topic to its end and checks that every input was counted exactly once: the last count per
     * key equals the model, and each key's committed counts strictly increase (a record counted
     * twice, or a result written twice, would break one or the other).
     */
    public static void assertCountedOnce(
            KafkaTestClient client, String output, Map<String, Long> model, Duration timeout) {
        client.readUntil(output, records -> Records.lastLongPerKey(records).equals(model), timeout);
        List<ConsumerRecord<byte[], byte[]>> all =
                client.readAllCommitted(output, new ByteArrayDeserializer(), new ByteArrayDeserializer(), timeout);
        assertThat(Records.lastLongPerKey(all))
                .as("last committed count per key")
                .isEqualTo(model);
        Map<String, Long> previous = new HashMap<>();
        List<String> notIncreasing = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : all) {
            String key = new String(r.key(), StandardCharsets.UTF_8);
            long count = ByteBuffer.wrap(r.value()).getLong();
            Long before = previous.put(key, count);
            if (before != null && count <= before && notIncreasing.size() < 10) {
                notIncreasing.add(key + ": " + before + " then " + count + " at " + r.partition() + "@" + r.offset());
            }
        }
        assertThat(notIncreasing).as("committed counts that did not increase").isEmpty();
    }
}
