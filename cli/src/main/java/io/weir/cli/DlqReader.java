package io.weir.cli;

import io.weir.common.internal.Deadline;
import io.weir.config.WeirConfig;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads a dead-letter topic from the beginning to the read_committed ends taken at the start, for
 * {@code weir dlq list} and {@code show}; commits nothing.
 */
final class DlqReader {

    static final Duration READ_TIMEOUT = Duration.ofMinutes(5);

    private DlqReader() {}

    /**
     * Hands each dead letter to {@code each} in partition order; stops early once {@code more} says
     * no.
     */
    static void read(WeirConfig config, String topic, Consumer<DeadLetter> each, BooleanSupplier more) {
        try (KafkaConsumer<byte[], byte[]> consumer =
                KafkaClients.reader(config, "weir-cli-dlq", IsolationLevel.READ_COMMITTED)) {
            List<TopicPartition> partitions = partitions(consumer, topic);
            for (TopicPartition tp : partitions) {
                consumer.assign(List.of(tp));
                consumer.seekToBeginning(List.of(tp));
                long end = consumer.endOffsets(List.of(tp)).get(tp);
                Deadline deadline = Deadline.after(READ_TIMEOUT);
                while (consumer.position(tp) < end && more.getAsBoolean()) {
                    if (deadline.expired()) {
                        throw new CommandFailedException("reading '" + topic + "' to its end took more than "
                                + READ_TIMEOUT.toMinutes() + " minutes");
                    }
                    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                        if (r.offset() < end && more.getAsBoolean()) {
                            each.accept(new DeadLetter(r));
                        }
                    }
                }
            }
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            throw new CommandFailedException("cannot read '" + topic + "': " + e.getMessage(), e);
        }
    }

    /** The partitions of {@code topic}, in order; fails the command if it does not exist. */
    static List<TopicPartition> partitions(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, ClusterOptions.TIMEOUT);
        if (infos == null || infos.isEmpty()) {
            throw new CommandFailedException("the dead-letter topic '" + topic + "' does not exist (the application"
                    + " creates it at start; dead.letter.topic names another)");
        }
        return infos.stream()
                .map(p -> new TopicPartition(topic, p.partition()))
                .sorted(java.util.Comparator.comparingInt(TopicPartition::partition))
                .toList();
    }
}
