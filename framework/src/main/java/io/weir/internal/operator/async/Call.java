package io.weir.internal.operator.async;

import io.weir.processor.AsyncCall;
import io.weir.processor.Record;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One record's call in an asynchronous step, from the moment the step takes the record until its
 * result leaves the step: waiting for its key's turn, running, backing off before a retry, done.
 *
 * <p>Threading: the task's stream thread only; the call's stage reports back through the step's
 * queue ({@link Finished}).
 */
final class Call<K, V> implements AsyncCall {

    enum State {
        WAITING,
        RUNNING,
        BACKOFF,
        DONE
    }

    final long seq;
    final Record<K, V> record;
    /** The task input record it came from (or, restored from the store, one rebuilt from it). */
    final ConsumerRecord<byte[], byte[]> origin;

    private final String idempotencyKey;
    State state = State.WAITING;
    int attempt;
    /** Set once: the result, or the failure that ended the call. */
    Object result;

    Throwable failure;
    /** True once the call is in the step's store (written at a commit, or restored from it). */
    boolean logged;
    /** When the call was taken (nanoTime), for the completion-latency meter. */
    final long takenNanos;

    Call(long seq, Record<K, V> record, ConsumerRecord<byte[], byte[]> origin, String idempotencyKey) {
        this.seq = seq;
        this.record = record;
        this.origin = origin;
        this.idempotencyKey = idempotencyKey;
        this.takenNanos = System.nanoTime();
    }

    void done(Object result, Throwable failure) {
        this.state = State.DONE;
        this.result = result;
        this.failure = failure;
    }

    @Override
    public String idempotencyKey() {
        return idempotencyKey;
    }

    @Override
    public int attempt() {
        return attempt;
    }

    @Override
    public long timestamp() {
        return record.timestamp();
    }

    @Override
    public String topic() {
        return origin.topic();
    }

    @Override
    public int partition() {
        return origin.partition();
    }

    @Override
    public long offset() {
        return origin.offset();
    }

    @Override
    public String toString() {
        return idempotencyKey + " (" + state + ", attempt " + attempt + ")";
    }
}
