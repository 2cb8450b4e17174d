package io.weir.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Checks, off the clock, that a run really did the work it was timed for: the output holds the
 * transformed records ({@value Workload#VALUE_BYTES} bytes, no lower-case letter left), exactly as
 * many as the input under exactly-once, at least as many under at-least-once. Reads with
 * {@code read_committed}, so aborted transactions do not count.
 *
 * <p>Off by default ({@code --verify}): reading every output again costs more than the run.
 */
final class OutputVerifier {

    private static final Duration POLL_TIMEOUT = Duration.ofMillis(200);

    private final String bootstrapServers;

    OutputVerifier(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    /** What is wrong with the output, or empty if it is right. */
    Optional<String> verify(String topic, int partitions, long expected, Guarantee guarantee) {
        Map<String, Object> settings = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        List<TopicPartition> tps = IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(topic, p))
                .collect(Collectors.toList());
        long deadline = System.nanoTime() + Duration.ofSeconds(60 + expected / 50_000).toNanos();
        long count = 0;
        long malformed = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            // With read_committed these are the last stable offsets: every committed record is below them.
            Map<TopicPartition, Long> end = consumer.endOffsets(tps);
            while (tps.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (System.nanoTime() - deadline > 0) {
                    return Optional.of("verification timed out after reading " + count + " output records");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL_TIMEOUT)) {
                    count++;
                    if (!transformed(r.value())) {
                        malformed++;
                    }
                }
            }
        }
        if (malformed > 0) {
            return Optional.of(malformed + " of " + count + " output records are not transformed values");
        }
        boolean countOk = guarantee == Guarantee.EXACTLY_ONCE ? count == expected : count >= expected;
        if (!countOk) {
            return Optional.of("output holds " + count + " committed records, expected "
                    + (guarantee == Guarantee.EXACTLY_ONCE ? "exactly " : "at least ") + expected);
        }
        return Optional.empty();
    }

    private static boolean transformed(byte[] value) {
        if (value == null || value.length != Workload.VALUE_BYTES) {
            return false;
        }
        for (byte b : value) {
            if (b >= 'a' && b <= 'z') {
                return false;
            }
        }
        return true;
    }
}
