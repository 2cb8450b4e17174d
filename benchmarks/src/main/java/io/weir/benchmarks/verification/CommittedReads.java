package io.weir.benchmarks.verification;

import io.weir.common.internal.Deadline;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The loop that reads an output topic's committed records up to given offsets, which the
 * {@link OutputVerifier} (to the end, once) and the {@link CommittedOutputCounter} (a bound at a
 * time) share. With {@code read_committed} the bounds are last stable offsets, so every record
 * below them is decided.
 */
final class CommittedReads {

    private static final Duration POLL_TIMEOUT = Duration.ofMillis(200);

    private CommittedReads() {}

    /** The partitions {@code 0 .. count-1} of {@code topic}. */
    static List<TopicPartition> partitions(String topic, int count) {
        return IntStream.range(0, count)
                .mapToObj(p -> new TopicPartition(topic, p))
                .toList();
    }

    /**
     * Polls {@code consumer} until its position on each partition of {@code bounds} has reached the
     * bound, handing every record returned to {@code sink}.
     *
     * @throws IllegalStateException with {@code timedOut}'s message if {@code deadline} passes first
     */
    static void readTo(
            KafkaConsumer<byte[], byte[]> consumer,
            Map<TopicPartition, Long> bounds,
            Deadline deadline,
            Supplier<String> timedOut,
            Consumer<ConsumerRecord<byte[], byte[]>> sink) {
        while (bounds.entrySet().stream().anyMatch(b -> consumer.position(b.getKey()) < b.getValue())) {
            if (deadline.expired()) {
                throw new IllegalStateException(timedOut.get());
            }
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL_TIMEOUT)) {
                sink.accept(r);
            }
        }
    }
}
