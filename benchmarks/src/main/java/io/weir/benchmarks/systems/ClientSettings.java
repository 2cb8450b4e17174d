package io.weir.benchmarks.systems;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The Kafka client settings every system under test gets, in one place so that the three systems
 * cannot drift apart: the producer tuning of the issue and the commit interval.
 */
public final class ClientSettings {

    /** Commit (or transaction) every 100 ms, in all three systems and both guarantees. */
    public static final Duration COMMIT_INTERVAL = Duration.ofMillis(100);

    /**
     * Records per poll. Kafka Streams and Weir both default to 1000; the bare loop uses the same so
     * that the batch each system works on per poll is the same size.
     */
    static final int MAX_POLL_RECORDS = 1000;

    private ClientSettings() {}

    /** Producer settings without the {@code producer.} prefix. */
    public static Map<String, Object> producer() {
        return Map.of(
                ProducerConfig.COMPRESSION_TYPE_CONFIG,
                "lz4",
                ProducerConfig.LINGER_MS_CONFIG,
                10,
                ProducerConfig.BATCH_SIZE_CONFIG,
                128 * 1024);
    }

    /** Consumer settings without the {@code consumer.} prefix. */
    static Map<String, Object> consumer() {
        return Map.of(
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                MAX_POLL_RECORDS);
    }
}
