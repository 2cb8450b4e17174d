package io.weir.benchmarks.verification;

import io.weir.benchmarks.KafkaClients;
import io.weir.common.internal.Deadline;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Counts the committed records of an output topic below given offsets, incrementally: each call
 * reads on from where the previous one stopped ({@link CompletionProbe#awaitCommittedOutput}).
 * Reads with {@code read_committed} and no group, from the beginning; the consumer is created on
 * first use, so a run that never gets that far does not pay for it.
 */
final class CommittedOutputCounter implements AutoCloseable {

    private final String bootstrapServers;
    private final List<TopicPartition> partitions;
    /** Offsets of records read past the bound of their call, to be counted when a later bound passes them. */
    private final Map<TopicPartition, ArrayDeque<Long>> ahead = new HashMap<>();

    private KafkaConsumer<byte[], byte[]> consumer;
    private long counted;

    CommittedOutputCounter(String bootstrapServers, String topic, int partitions) {
        this.bootstrapServers = bootstrapServers;
        this.partitions = CommittedReads.partitions(topic, partitions);
        this.partitions.forEach(tp -> ahead.put(tp, new ArrayDeque<>()));
    }

    /**
     * The committed records below {@code bounds} (per partition; last stable offsets, so that every
     * record below them is decided). Bounds must not decrease from one call to the next.
     *
     * @throws IllegalStateException if {@code deadline} passes first
     */
    long countBelow(Map<TopicPartition, Long> bounds, Deadline deadline) {
        KafkaConsumer<byte[], byte[]> c = consumer();
        for (TopicPartition tp : partitions) {
            ArrayDeque<Long> pending = ahead.get(tp);
            long bound = bounds.get(tp);
            while (!pending.isEmpty() && pending.peekFirst() < bound) {
                pending.pollFirst();
                counted++;
            }
        }
        CommittedReads.readTo(
                c,
                bounds,
                deadline,
                () -> "timed out counting the committed output after " + counted + " records",
                r -> {
                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                    if (r.offset() < bounds.get(tp)) {
                        counted++;
                    } else {
                        ahead.get(tp).addLast(r.offset());
                    }
                });
        return counted;
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        if (consumer == null) {
            consumer = KafkaClients.readCommittedInBulk(bootstrapServers);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
        }
        return consumer;
    }

    @Override
    public void close() {
        if (consumer != null) {
            consumer.close();
        }
    }
}
