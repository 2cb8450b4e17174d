package io.weir.testing;

import io.weir.testkit.KafkaTestClient;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Reading results back in fault tests: last long value per key, and how far a topic grew. */
public final class Outputs {

    private Outputs() {
    }

    /** The last value per (UTF-8) key of records whose values are 8-byte longs. */
    public static Map<String, Long> lastLongs(List<ConsumerRecord<byte[], byte[]>> records) {
        Map<String, Long> last = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            last.put(new String(r.key(), StandardCharsets.UTF_8), ByteBuffer.wrap(r.value()).getLong());
        }
        return last;
    }

    /** Records written to {@code topic} so far (committed or not, markers included); 0 before it exists. */
    public static long endOffsets(KafkaTestClient client, String topic) {
        try {
            return client.countPerPartition(topic).values().stream().mapToLong(Long::longValue).sum();
        } catch (AssertionError | RuntimeException notYetCreated) {
            return 0;
        }
    }
}
