package io.weir.testkit;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Views of records read back in tests. */
public final class Records {

    private Records() {}

    /**
     * The last value per key of records with UTF-8 keys and 8-byte big-endian long values (what a
     * table of counts or sums writes): the final state a topic of updates describes, in key order.
     */
    public static Map<String, Long> lastLongPerKey(List<ConsumerRecord<byte[], byte[]>> records) {
        Map<String, Long> last = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            last.put(
                    new String(r.key(), StandardCharsets.UTF_8),
                    ByteBuffer.wrap(r.value()).getLong());
        }
        return last;
    }
}
