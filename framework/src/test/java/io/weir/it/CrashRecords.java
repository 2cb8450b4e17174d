package io.weir.it;

import io.weir.common.KeyValue;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/** The records the crash tests write, and how they read a join's results back. */
final class CrashRecords {

    private CrashRecords() {}

    /** A string record with its own timestamp, to {@code partition} (null: by key). */
    static ProducerRecord<byte[], byte[]> record(
            String topic, Integer partition, long timestamp, String key, String value) {
        return new ProducerRecord<>(topic, partition, timestamp, bytes(key), bytes(value));
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A string key with a long value, as {@code Serdes.longs()} reads it. */
    static KeyValue<byte[], byte[]> longRecord(String key, long value) {
        return KeyValue.of(bytes(key), ByteBuffer.allocate(8).putLong(value).array());
    }

    /**
     * The results {@code left@right} as a map from left to right; every left side seen more than
     * once is added to {@code twice} (exactly-once means it stays empty).
     */
    static Map<String, String> joinedOnce(List<ConsumerRecord<String, String>> results, List<String> twice) {
        Map<String, String> joined = new HashMap<>();
        for (ConsumerRecord<String, String> r : results) {
            String[] leftAtRight = r.value().split("@");
            if (joined.put(leftAtRight[0], leftAtRight[1]) != null) {
                twice.add(leftAtRight[0]);
            }
        }
        return joined;
    }
}
