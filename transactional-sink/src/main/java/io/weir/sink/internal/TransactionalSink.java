package io.weir.sink.internal;

import io.weir.common.internal.Deadline;
import io.weir.sink.DeliveryGuarantee;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit protocol of one stream thread: its producer, the transaction around each commit
 * interval, and the four delivery guarantees. It offers the steps of DESIGN.md's commit that talk
 * to Kafka ({@link #send}, {@link #flush}, {@link #sendOffsets}, {@link #commitTransaction},
 * {@link #abort}); the framework's committer calls them in order and knows the tasks, which this
 * class does not.
 *
 * <p>Under {@link DeliveryGuarantee#EXACTLY_ONCE} there is one transactional producer per thread
 * (EOS v2): every output and changelog record sent between two commits, together with the input
 * offsets, becomes visible to read_committed readers atomically or not at all. Offsets carry the
 * consumer's group metadata, so a member that lost its partitions in a rebalance cannot commit for
 * them: the broker fences it, and this class reports that as {@link TaskMigratedException}.
 *
 * <p>Threading: a sink belongs to one stream thread. Every method must be called from that
 * thread; the producer's callbacks only record the first send error, which the thread sees at the
 * next send or commit.
 */
public final class TransactionalSink implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TransactionalSink.class);

    private final DeliveryGuarantee guarantee;
    private final Supplier<Producer<byte[], byte[]>> producerFactory;
    private final Consumer<byte[], byte[]> consumer;
    private final Duration commitRetryTimeout;
    private final Callback sendCallback = this::onSendCompleted;

    private Producer<byte[], byte[]> producer;
    private boolean inTransaction;
    private boolean producerUsable;
    private volatile Exception sendError;

    /**
     * Creates the sink and its producer; under exactly-once, initialises the transactional id,
     * which aborts any transaction a dead predecessor with the same id left open.
     *
     * @param commitRetryTimeout how long a commit that times out is retried before the producer is
     *     replaced
     */
    public TransactionalSink(
            DeliveryGuarantee guarantee,
            Supplier<Producer<byte[], byte[]>> producerFactory,
            Consumer<byte[], byte[]> consumer,
            Duration commitRetryTimeout) {
        this.guarantee = guarantee;
        this.producerFactory = producerFactory;
        this.consumer = consumer;
        this.commitRetryTimeout = commitRetryTimeout;
        openProducer();
    }

    public DeliveryGuarantee guarantee() {
        return guarantee;
    }

    /** True while a transaction is open, that is, something was sent since the last commit. */
    public boolean inTransaction() {
        return inTransaction;
    }

    /**
     * Sends a record as part of the current commit interval, opening the transaction first under
     * exactly-once.
     *
     * @throws TaskMigratedException if the producer was fenced
     * @throws CommitAbortedException if an earlier send failed: the transaction was aborted
     */
    public void send(ProducerRecord<byte[], byte[]> record) {
        send(record, null);
    }

    /**
     * As {@link #send(ProducerRecord)}, and calls {@code onAck} with the record's metadata once
     * the broker acknowledged it (on the producer's I/O thread; keep it short). Changelog writers
     * use it to learn the offsets their records reached.
     */
    public void send(ProducerRecord<byte[], byte[]> record, Callback onAck) {
        throwIfSendFailed();
        if (guarantee == DeliveryGuarantee.EXACTLY_ONCE && !inTransaction) {
            beginTransaction();
        }
        inTransaction = true;
        try {
            producer.send(
                    record,
                    onAck == null
                            ? sendCallback
                            : (metadata, exception) -> {
                                sendCallback.onCompletion(metadata, exception);
                                if (exception == null) {
                                    onAck.onCompletion(metadata, null);
                                }
                            });
        } catch (KafkaException e) {
            throw failure("send to " + record.topic() + " failed", e);
        }
    }

    /**
     * At-most-once: commits the consumer's positions right after a poll, before the records are
     * processed. A no-op under the other guarantees.
     */
    public void afterPoll(Map<TopicPartition, OffsetAndMetadata> positions) {
        if (guarantee == DeliveryGuarantee.AT_MOST_ONCE && !positions.isEmpty()) {
            try {
                consumer.commitSync(positions);
            } catch (KafkaException e) {
                throw failure("committing positions before processing failed", e);
            }
        }
    }

    /**
     * Step 2's end: flushes the producer, so every record sent in this transaction is
     * acknowledged (under at-least-once, before the offsets are committed).
     *
     * @throws TaskMigratedException if the producer was fenced
     * @throws CommitAbortedException if a send failed
     */
    public void flush() {
        if (inTransaction || guarantee == DeliveryGuarantee.AT_LEAST_ONCE) {
            try {
                producer.flush();
            } catch (KafkaException e) {
                throw failure("flush failed", e);
            }
        }
        throwIfSendFailed();
    }

    /**
     * Step 3: the next input offsets with the consumer's group metadata, in the transaction under
     * exactly-once (which opens one if nothing was sent); committed through the consumer under
     * at-least-once; nothing under at-most-once (committed at poll time) and none (auto-commit).
     */
    public void sendOffsets(Map<TopicPartition, OffsetAndMetadata> offsets) {
        if (offsets.isEmpty()) {
            return;
        }
        try {
            switch (guarantee) {
                case EXACTLY_ONCE -> {
                    if (!inTransaction) {
                        producer.beginTransaction();
                        inTransaction = true;
                    }
                    producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                }
                case AT_LEAST_ONCE -> consumer.commitSync(offsets);
                case AT_MOST_ONCE, NONE -> {
                    // at-most-once committed at poll time; none leaves it to auto-commit
                }
            }
        } catch (KafkaException e) {
            throw failure("committing offsets failed", e);
        }
    }

    /**
     * Step 4: commits the transaction (under exactly-once); a commit that times out is retried,
     * not aborted, for the commit retry time-out, then the producer is replaced.
     *
     * @throws TaskMigratedException if the producer was fenced or kept timing out
     * @throws CommitAbortedException if the commit failed otherwise
     */
    public void commitTransaction() {
        if (guarantee != DeliveryGuarantee.EXACTLY_ONCE) {
            inTransaction = false;
            return;
        }
        Deadline deadline = Deadline.after(commitRetryTimeout);
        while (true) {
            try {
                producer.commitTransaction();
                inTransaction = false;
                return;
            } catch (TimeoutException e) {
                // A timed-out commit must be retried, not aborted: its outcome is still pending.
                if (deadline.expired()) {
                    producerUsable = false;
                    throw new TaskMigratedException(
                            "commitTransaction kept timing out for " + commitRetryTimeout.toMillis()
                                    + " ms; replacing the producer",
                            e,
                            true);
                }
                log.warn("commitTransaction timed out; retrying");
            } catch (KafkaException e) {
                throw failure("commit failed", e);
            }
        }
    }

    /**
     * Aborts the open transaction, if any, and forgets a failed send: used for a processing error
     * under exactly-once, a failed commit and partitions lost in a rebalance. A producer that
     * cannot abort is marked for {@linkplain #replaceProducerIfFenced replacement}.
     */
    public void abort() {
        if (inTransaction && guarantee == DeliveryGuarantee.EXACTLY_ONCE && producerUsable) {
            try {
                producer.abortTransaction();
            } catch (KafkaException e) {
                // Whatever the cause, a producer that cannot abort cannot start a clean transaction.
                log.warn("aborting the transaction failed ({}); the producer will be replaced", e.toString());
                producerUsable = false;
            }
        }
        inTransaction = false;
        sendError = null;
    }

    /**
     * Replaces a fenced producer. Under exactly-once the new producer initialises the same
     * transactional id, which fences any zombie that still holds it.
     */
    public void replaceProducerIfFenced() {
        if (!producerUsable) {
            closeProducerQuietly(Duration.ZERO);
            openProducer();
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }

    /** Aborts an open transaction and closes the producer within {@code timeout}. */
    public void close(Duration timeout) {
        if (inTransaction && producerUsable && guarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            try {
                producer.abortTransaction();
            } catch (KafkaException e) {
                log.debug("abort on close failed; the broker aborts the transaction on its own", e);
            }
        }
        inTransaction = false;
        closeProducerQuietly(timeout);
    }

    // ---- failure handling ------------------------------------------------------------------

    private void beginTransaction() {
        try {
            producer.beginTransaction();
        } catch (KafkaException e) {
            throw failure("beginTransaction failed", e);
        }
    }

    private void throwIfSendFailed() {
        Exception e = sendError;
        if (e != null) {
            throw failure("an earlier send failed: " + e.getMessage(), e);
        }
    }

    private RuntimeException failure(String what, Exception e) {
        switch (KafkaErrors.classify(e)) {
            case MIGRATED -> {
                boolean fenced = KafkaErrors.producerFenced(e);
                if (fenced) {
                    producerUsable = false;
                }
                return new TaskMigratedException(what + ": " + e, e, fenced);
            }
            case FATAL -> {
                return e instanceof KafkaException ke ? ke : new KafkaException(what, e);
            }
            default -> {
                return new CommitAbortedException(what + ": " + e, e);
            }
        }
    }

    private void onSendCompleted(Object metadata, Exception exception) {
        if (exception != null && sendError == null) {
            sendError = exception;
        }
    }

    private void openProducer() {
        Producer<byte[], byte[]> opened = producerFactory.get();
        if (guarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            try {
                opened.initTransactions();
            } catch (RuntimeException e) {
                // Refused (a missing ACL, a timeout): nothing will close a producer this sink never
                // kept, and its I/O thread would retry the brokers for the life of the process.
                try {
                    opened.close(Duration.ZERO);
                } catch (KafkaException closing) {
                    e.addSuppressed(closing);
                }
                throw e;
            }
        }
        producer = opened;
        producerUsable = true;
        inTransaction = false;
        sendError = null;
    }

    private void closeProducerQuietly(Duration timeout) {
        try {
            producer.close(timeout);
        } catch (KafkaException e) {
            log.debug("closing the producer failed", e);
        }
    }
}
