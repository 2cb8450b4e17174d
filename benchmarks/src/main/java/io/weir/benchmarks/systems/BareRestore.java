package io.weir.benchmarks.systems;

import io.weir.benchmarks.KafkaClients;
import io.weir.benchmarks.RunSpec;
import io.weir.benchmarks.Scenario;
import io.weir.benchmarks.SystemUnderTest;
import io.weir.benchmarks.jobs.RestoreJob;
import io.weir.internal.cluster.ClientConfigs;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * The restore workload's baseline ({@code bare}): a plain {@code read_committed} consumer that
 * reads the run's changelog from the beginning to its end and counts the records, without a store,
 * a group or a framework. It is the floor of a restore: what reading the changelog alone costs.
 *
 * <p>On a thread of its own (as the other systems restore on threads of their own), from the
 * consumer's creation: the changelog's partitions ({@code partitionsFor}), {@code assign} all of
 * them, {@code seekToBeginning}, their end offsets ({@code endOffsets}, which under
 * {@code read_committed} are the last stable offsets), then {@code poll} until the consumer's
 * position on every partition has reached its end offset, counting the records polled. Consumer
 * settings are those of Weir's restore consumer ({@code ClientConfigs.restoreConsumer}):
 * {@code max.poll.records} 10,000, {@code fetch.max.bytes} 64 MiB,
 * {@code max.partition.fetch.bytes} 16 MiB, {@code fetch.max.wait.ms} 10, {@code read_committed},
 * no auto-commit, byte-array deserializers; no {@code group.id} (nothing is committed).
 *
 * <p>{@link Running#restoredRecords()} is zero until every partition is read to its end, then the
 * records counted: the clock of {@link RestoreJob} stops at the first of its polls after the end,
 * as it does for the other systems once they report their restore done.
 */
final class BareRestore {

    /** As {@code ClientConfigs.restoreConsumer} of Weir. */
    static final int MAX_POLL_RECORDS = 10_000;

    static final int FETCH_MAX_WAIT_MS = 10;

    private static final Duration POLL_TIMEOUT = Duration.ofMillis(100);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private BareRestore() {}

    /** Starts reading the changelog of {@code spec}'s restore scenario; returns at once. */
    static SystemUnderTest.Running start(RunSpec spec) {
        if (spec.scenario().kind() != Scenario.Kind.RESTORE) {
            throw new IllegalArgumentException(
                    "not a restore: " + spec.scenario().label());
        }
        Reader reader = new Reader(spec);
        reader.thread.start();
        return reader;
    }

    /** The consumer settings: Weir's restore consumer's, for the run's bootstrap servers. */
    static Map<String, Object> consumerSettings(RunSpec spec) {
        Map<String, Object> s = new HashMap<>();
        s.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, spec.bootstrapServers());
        s.put(ConsumerConfig.CLIENT_ID_CONFIG, spec.applicationId() + "-restore-consumer");
        s.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        s.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        s.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, MAX_POLL_RECORDS);
        s.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, ClientConfigs.BULK_FETCH_MAX_BYTES);
        s.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, ClientConfigs.BULK_PARTITION_FETCH_BYTES);
        s.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, FETCH_MAX_WAIT_MS);
        return s;
    }

    /** The reading thread and its consumer, which only that thread touches. */
    private static final class Reader implements SystemUnderTest.Running, Runnable {
        private final RunSpec spec;
        private final String topic;
        private final Thread thread;
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        /** The records read, set once every partition has been read to its end; zero before. */
        private final AtomicLong restored = new AtomicLong();

        private final CountDownLatch stop = new CountDownLatch(1);
        private volatile boolean stopping;

        Reader(RunSpec spec) {
            this.spec = spec;
            this.topic = spec.scenario().changelogTopic(spec.applicationId());
            this.thread = new Thread(this, "bare-restore-" + spec.applicationId());
        }

        @Override
        public void run() {
            try (KafkaConsumer<byte[], byte[]> consumer = KafkaClients.consumer(consumerSettings(spec))) {
                long records = readToEnd(consumer);
                restored.set(records);
                // The consumer stays open until the run closes it: its close is not charged to the
                // clock, nor does it compete for a core with the poll that stops the clock.
                stop.await();
            } catch (Throwable e) {
                if (!stopping) {
                    failure.compareAndSet(null, e);
                }
            }
        }

        /** Reads every partition of the changelog from its beginning to its end; returns the records read. */
        private long readToEnd(KafkaConsumer<byte[], byte[]> consumer) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic);
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException("no partitions of " + topic);
            }
            List<TopicPartition> partitions = infos.stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            Set<TopicPartition> remaining = new HashSet<>();
            for (TopicPartition tp : partitions) {
                if (ends.get(tp) > 0) {
                    remaining.add(tp);
                }
            }
            long records = 0;
            while (!remaining.isEmpty()) {
                if (stopping) {
                    throw new IllegalStateException("stopped before the end of " + topic);
                }
                records += consumer.poll(POLL_TIMEOUT).count();
                // position() is local once the partition's beginning is resolved (the first poll does).
                remaining.removeIf(tp -> consumer.position(tp) >= ends.get(tp));
            }
            return records;
        }

        @Override
        public Optional<Throwable> failure() {
            return Optional.ofNullable(failure.get());
        }

        @Override
        public long restoredRecords() {
            return restored.get();
        }

        @Override
        public void close() throws InterruptedException {
            stopping = true; // a read still under way sees it within one poll timeout
            stop.countDown();
            thread.join(CLOSE_TIMEOUT.toMillis());
            if (thread.isAlive()) {
                throw new IllegalStateException(thread.getName() + " did not stop within " + CLOSE_TIMEOUT);
            }
        }
    }
}
