package io.weir.benchmarks.systems;

import io.weir.benchmarks.Guarantee;
import io.weir.benchmarks.KafkaClients;
import io.weir.benchmarks.RunSpec;
import io.weir.benchmarks.Scenario;
import io.weir.benchmarks.SystemUnderTest;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The baseline: the consume-transform-produce loop a careful engineer writes with kafka-clients
 * alone, one consumer and one producer on one thread, no framework.
 *
 * <p>Exactly-once: a transactional producer and a {@code read_committed} consumer; every
 * {@link ClientSettings#COMMIT_INTERVAL} the loop adds the consumed offsets to the open transaction
 * ({@code sendOffsetsToTransaction} with the consumer's group metadata, so a zombie is fenced) and
 * commits it. At-least-once: a plain producer; every interval the loop flushes the producer and
 * then commits the offsets synchronously, so an offset is committed only after its output is
 * acknowledged.
 *
 * <p>The system named {@code bare} also has a restore: for the restore workload {@link #start}
 * returns a {@link BareRestore}, a plain {@code read_committed} consumer reading the changelog to its
 * end without a store.
 */
public final class BareLoop implements SystemUnderTest {

    private static final Duration POLL_TIMEOUT = Duration.ofMillis(100);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    @Override
    public String name() {
        return "bare";
    }

    @Override
    public Running start(RunSpec spec) {
        if (spec.scenario().kind() == Scenario.Kind.RESTORE) {
            return BareRestore.start(spec);
        }
        if (spec.scenario().kind() != Scenario.Kind.MAP) {
            throw new UnsupportedOperationException("the bare loop runs the stateless map and the restore only");
        }
        Loop loop = new Loop(spec);
        loop.thread.start();
        return loop;
    }

    /** The loop's thread and its clients; the clients are touched only by that thread. */
    private static final class Loop implements Running, Runnable {
        private final RunSpec spec;
        private final boolean exactlyOnce;
        private final Thread thread;
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final AtomicReference<Exception> sendFailure = new AtomicReference<>();
        private final Callback onSent = (metadata, e) -> {
            if (e != null) {
                sendFailure.compareAndSet(null, e);
            }
        };
        private final Map<TopicPartition, OffsetAndMetadata> pending = new HashMap<>();
        private volatile boolean stopping;
        private KafkaConsumer<byte[], byte[]> consumer;
        private KafkaProducer<byte[], byte[]> producer;
        private boolean inTransaction;

        Loop(RunSpec spec) {
            this.spec = spec;
            this.exactlyOnce = spec.guarantee() == Guarantee.EXACTLY_ONCE;
            this.thread = new Thread(this, "bare-loop-" + spec.applicationId());
        }

        @Override
        public void run() {
            try (KafkaConsumer<byte[], byte[]> c = KafkaClients.consumer(consumerSettings());
                    KafkaProducer<byte[], byte[]> p = KafkaClients.producer(producerSettings())) {
                consumer = c;
                producer = p;
                process();
            } catch (Throwable e) {
                if (!stopping) {
                    failure.compareAndSet(null, e);
                }
            }
        }

        private void process() {
            if (exactlyOnce) {
                producer.initTransactions();
            }
            consumer.subscribe(List.of(spec.inputTopic()), new CommitOnRevoke());
            long lastCommit = System.nanoTime();
            while (!stopping) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL_TIMEOUT);
                if (!records.isEmpty()) {
                    transform(records);
                }
                if (System.nanoTime() - lastCommit >= ClientSettings.COMMIT_INTERVAL.toNanos()) {
                    commit();
                    lastCommit = System.nanoTime();
                }
            }
            commit();
        }

        private void transform(ConsumerRecords<byte[], byte[]> records) {
            if (exactlyOnce && !inTransaction) {
                producer.beginTransaction();
                inTransaction = true;
            }
            for (ConsumerRecord<byte[], byte[]> r : records) {
                producer.send(
                        new ProducerRecord<>(spec.outputTopic(), r.key(), ValueTransform.apply(r.value())), onSent);
            }
            for (TopicPartition tp : records.partitions()) {
                List<ConsumerRecord<byte[], byte[]>> forPartition = records.records(tp);
                long next = forPartition.get(forPartition.size() - 1).offset() + 1;
                pending.put(tp, new OffsetAndMetadata(next));
            }
        }

        /** Commits the output and offsets of everything transformed so far; a no-op when idle. */
        private void commit() {
            if (pending.isEmpty()) {
                return;
            }
            if (exactlyOnce) {
                producer.sendOffsetsToTransaction(pending, consumer.groupMetadata());
                producer.commitTransaction(); // throws if a send of this transaction failed
                inTransaction = false;
            } else {
                producer.flush();
                Exception e = sendFailure.get();
                if (e != null) {
                    throw new IllegalStateException("a send failed; its offset must not be committed", e);
                }
                consumer.commitSync(pending);
            }
            pending.clear();
        }

        private Map<String, Object> consumerSettings() {
            Map<String, Object> s = new HashMap<>(ClientSettings.consumer());
            s.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, spec.bootstrapServers());
            s.put(ConsumerConfig.GROUP_ID_CONFIG, spec.applicationId());
            s.put(ConsumerConfig.CLIENT_ID_CONFIG, spec.applicationId() + "-consumer");
            s.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            s.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, exactlyOnce ? "read_committed" : "read_uncommitted");
            return s;
        }

        private Map<String, Object> producerSettings() {
            Map<String, Object> s = new HashMap<>(ClientSettings.producer());
            s.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, spec.bootstrapServers());
            s.put(ProducerConfig.CLIENT_ID_CONFIG, spec.applicationId() + "-producer");
            s.put(ProducerConfig.ACKS_CONFIG, "all");
            if (exactlyOnce) {
                s.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, spec.applicationId() + "-0");
            }
            return s;
        }

        @Override
        public Optional<Throwable> failure() {
            return Optional.ofNullable(failure.get());
        }

        @Override
        public void close() throws InterruptedException {
            stopping = true; // the loop sees it within one poll timeout
            thread.join(CLOSE_TIMEOUT.toMillis());
            if (thread.isAlive()) {
                throw new IllegalStateException(thread.getName() + " did not stop within " + CLOSE_TIMEOUT);
            }
        }

        /**
         * Partitions taken away must have their progress committed first, or the next owner would
         * process those records again. With one consumer this happens only on close.
         */
        private final class CommitOnRevoke implements ConsumerRebalanceListener {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                commit();
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {}

            @Override
            public void onPartitionsLost(Collection<TopicPartition> partitions) {
                // Another member may own them now: committing would be wrong, and a benchmark run
                // does not try to recover.
                throw new IllegalStateException("lost partitions " + partitions + "; the run is invalid");
            }
        }
    }
}
