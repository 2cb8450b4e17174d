package io.weir.internal.supervision;

import io.weir.internal.cluster.ClientConfigs;
import io.weir.internal.config.ClientRole;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Aborts the transactions a lost instance left open, at once, by initialising a producer with each
 * of its transactional ids: the transaction coordinator bumps the id's epoch and aborts what the
 * previous epoch had open. Without it, the open transaction holds back every {@code read_committed}
 * reader of the partitions it wrote (the last stable offset cannot pass it) until the broker times
 * it out after {@code transaction.timeout.ms}, long after failure detection moved the tasks.
 *
 * <p>Safe under exactly-once: the aborted transaction held only work its new owner redoes from the
 * last committed offsets; an instance that was not dead but frozen (a zombie) finds its producer
 * fenced when it wakes, so nothing it wrote afterwards becomes visible, and it starts a new
 * producer, as after any fence. An instance restarting in the instant between its removal and the
 * fence may see its new producer fenced once, with the same outcome.
 *
 * <p>Threads: called from the liveness thread only.
 */
final class TransactionFence {

    /** Bounds each initialisation: the coordinator answers in milliseconds when it is reachable. */
    private static final Duration INIT_TIMEOUT = Duration.ofSeconds(10);

    private final ClientConfigs clients;

    TransactionFence(ClientConfigs clients) {
        this.clients = clients;
    }

    /**
     * Fences the transactional ids of {@code instance}'s threads {@code 0..threads-1}.
     *
     * @throws RuntimeException the Kafka client's exception when an initialisation fails or times out
     */
    void fence(String instance, int threads) {
        for (int index = 0; index < threads; index++) {
            Map<String, Object> config = clients.fencingProducer(instance, index);
            config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) INIT_TIMEOUT.toMillis());
            try (KafkaProducer<byte[], byte[]> producer =
                    clients.kafka().producer(ClientRole.ofInstance("fence-producer"), config)) {
                producer.initTransactions();
            }
        }
    }
}
