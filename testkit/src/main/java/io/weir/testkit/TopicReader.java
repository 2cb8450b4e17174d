package io.weir.testkit;

import io.weir.common.internal.Deadline;
import io.weir.common.internal.Poll;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * The reading half of {@link KafkaTestClient}, whose class comment states what a read
 * guarantees: every read has a consumer of its own that reads all partitions of a topic from
 * their beginning with {@code assign()}. Thread-safe: nothing is kept between reads.
 */
final class TopicReader {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(100);
    /** How often a read that gets nothing checks that its topic still exists. */
    private static final Duration EXISTS_CHECK = Duration.ofSeconds(1);

    private final KafkaClients clients;

    TopicReader(KafkaClients clients) {
        this.clients = clients;
    }

    /** Per partition, the end offset minus the log start offset. */
    Map<Integer, Long> countPerPartition(String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = clients.reader(
                IsolationLevel.READ_UNCOMMITTED, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = partitions(consumer, topic, Deadline.after(TIMEOUT));
            Map<TopicPartition, Long> start = consumer.beginningOffsets(partitions, TIMEOUT);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, TIMEOUT);
            Map<Integer, Long> counts = new TreeMap<>();
            for (TopicPartition tp : partitions) {
                counts.put(tp.partition(), end.get(tp) - start.get(tp));
            }
            return counts;
        }
    }

    /** Reads until {@code condition} holds on the records read so far; see {@link KafkaTestClient}. */
    <K, V> List<ConsumerRecord<K, V>> readUntil(
            String topic,
            Deserializer<K> keys,
            Deserializer<V> values,
            IsolationLevel isolation,
            Predicate<List<ConsumerRecord<K, V>>> condition,
            Duration timeout) {
        Deadline deadline = Deadline.after(timeout);
        List<ConsumerRecord<K, V>> seen = new ArrayList<>();
        List<ConsumerRecord<K, V>> view = Collections.unmodifiableList(seen);
        try (KafkaConsumer<K, V> consumer = clients.reader(isolation, keys, values)) {
            List<TopicPartition> partitions = partitions(consumer, topic, deadline);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            DeletionCheck deletion = new DeletionCheck(consumer, topic);
            while (true) {
                int before = seen.size();
                consumer.poll(POLL).forEach(seen::add);
                if (condition.test(view)) {
                    return new ArrayList<>(seen);
                }
                if (deadline.expired()) {
                    throw new AssertionError(describeTimeout(topic, isolation, timeout, seen));
                }
                deletion.afterPoll(seen.size() == before, seen.size());
            }
        }
    }

    /** Hands every committed record below the end offsets taken now to {@code action}; returns how many. */
    <K, V> long forEachCommitted(
            String topic,
            Deserializer<K> keys,
            Deserializer<V> values,
            Duration timeout,
            Consumer<ConsumerRecord<K, V>> action) {
        Deadline deadline = Deadline.after(timeout);
        try (KafkaConsumer<K, V> consumer = clients.reader(IsolationLevel.READ_COMMITTED, keys, values)) {
            List<TopicPartition> partitions = partitions(consumer, topic, deadline);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            long[] read = {0};
            DeletionCheck deletion = new DeletionCheck(consumer, topic);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (deadline.expired()) {
                    throw new AssertionError("could not read '" + topic + "' to its end offsets " + end + " within "
                            + timeout.toMillis() + " ms; read " + read[0] + " records");
                }
                long before = read[0];
                consumer.poll(POLL).forEach(r -> {
                    action.accept(r);
                    read[0]++;
                });
                deletion.afterPoll(read[0] == before, (int) Math.min(Integer.MAX_VALUE, read[0]));
            }
            return read[0];
        }
    }

    private static String describeTimeout(
            String topic, IsolationLevel isolation, Duration timeout, List<? extends ConsumerRecord<?, ?>> seen) {
        Map<Integer, Long> perPartition = seen.stream()
                .collect(Collectors.groupingBy(ConsumerRecord::partition, TreeMap::new, Collectors.counting()));
        String last = seen.subList(Math.max(0, seen.size() - 5), seen.size()).stream()
                .map(r -> r.partition() + "@" + r.offset() + " " + show(r.key()) + "=" + show(r.value()))
                .collect(Collectors.joining(", ", "[", "]"));
        return "Condition on topic '" + topic + "' (" + isolation.toString().toLowerCase() + ") not met within "
                + timeout.toMillis() + " ms; saw " + seen.size() + " records, per partition " + perPartition
                + ", last " + last;
    }

    private static String show(Object o) {
        String s = o instanceof byte[] ? new String((byte[]) o, StandardCharsets.UTF_8) : String.valueOf(o);
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }

    /** All partitions of {@code topic}, waiting until {@code deadline} for it to exist. */
    private static List<TopicPartition> partitions(KafkaConsumer<?, ?> consumer, String topic, Deadline deadline) {
        Optional<List<TopicPartition>> partitions;
        try {
            // An unknown topic is answered at once: without a pause between the look-ups, metadata
            // requests would go back to back until the deadline.
            partitions = Poll.untilPresent(
                    () -> {
                        List<PartitionInfo> infos = consumer.partitionsFor(topic, POLL.multipliedBy(10));
                        return infos == null || infos.isEmpty()
                                ? Optional.empty()
                                : Optional.of(infos.stream()
                                        .map(i -> new TopicPartition(topic, i.partition()))
                                        .collect(Collectors.toList()));
                    },
                    deadline.remaining(),
                    POLL);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for a topic", e);
        }
        return partitions.orElseThrow(() -> new AssertionError("Topic '" + topic + "' does not exist (waited "
                + deadline.timeout().toMillis() + " ms)"));
    }

    /**
     * Fails a read whose topic was deleted. Checked after empty polls, at most once a second: the
     * consumer's cached metadata answers while the topic exists; after a deletion the failing
     * fetches make it refresh, and the topic is gone from the answer.
     */
    private static final class DeletionCheck {
        private final KafkaConsumer<?, ?> consumer;
        private final String topic;
        private Deadline next = Deadline.after(EXISTS_CHECK);

        DeletionCheck(KafkaConsumer<?, ?> consumer, String topic) {
            this.consumer = consumer;
            this.topic = topic;
        }

        void afterPoll(boolean empty, int seen) {
            if (!empty || !next.expired()) {
                return;
            }
            next = Deadline.after(EXISTS_CHECK);
            List<PartitionInfo> infos;
            try {
                infos = consumer.partitionsFor(topic, POLL.multipliedBy(50));
            } catch (org.apache.kafka.common.errors.TimeoutException unreachable) {
                return; // a broker outage (tests make them on purpose) says nothing about the topic
            }
            if (infos == null || infos.isEmpty()) {
                throw new AssertionError(
                        "Topic '" + topic + "' was deleted while being read; read " + seen + " records before");
            }
        }
    }
}
