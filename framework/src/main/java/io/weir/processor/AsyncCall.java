package io.weir.processor;

/**
 * What an asynchronous step knows about the call it is making, beyond the key and value: the
 * record's origin and an idempotency key, and which attempt this is.
 *
 * <p>The idempotency key is the same every time this record's call is made for this step:
 * after a retry, after an abort, after a crash and on another instance. Pass it to the other
 * service (a request header, a unique column) so that it can ignore repeats: the call is made at
 * least once, its result reaches Kafka exactly once.
 */
public interface AsyncCall {

    /**
     * {@code <step>:<topic>-<partition>@<offset>:<n>}: the step, the input record of the task the
     * record comes from, and {@code n}, its place among the records that one input record gave
     * this step (0 unless an earlier step fanned it out).
     */
    String idempotencyKey();

    /** 1 for the first attempt, 2 for the first retry, and so on. */
    int attempt();

    /** The record's timestamp. */
    long timestamp();

    /** The topic of the task's input record it came from. */
    String topic();

    int partition();

    long offset();
}
