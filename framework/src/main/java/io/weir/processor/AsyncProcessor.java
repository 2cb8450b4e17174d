package io.weir.processor;

import java.util.concurrent.CompletionStage;

/**
 * A hand-written asynchronous step: for each record it starts a call to another service ({@link
 * #call}) and, once the call finished, acts on the result ({@link #complete}): reads and writes
 * the task's stores, forwards records. Added with {@code RecordStream.processAsync}; the options
 * ({@code io.weir.dsl.Async}: in-flight bound, time-out, retries, what a final failure does) are
 * the DSL's.
 *
 * <p>What the runtime guarantees:
 * <ul>
 *   <li><b>Per-key order and read-your-writes.</b> Records of one key are handled one after the
 *       other, in input order: a record's {@code call} starts only after the previous record of
 *       its key {@code complete}d, so it sees in the stores everything that one wrote. Records of
 *       different keys overlap, up to the in-flight bound.</li>
 *   <li><b>One thread.</b> {@code init}, {@code call}, {@code complete}, punctuations and {@code
 *       close} all run on the task's stream thread, never concurrently: stores and fields need no
 *       locking. Only the {@code CompletionStage} completes elsewhere; do not touch stores from its
 *       callbacks, return the stage and act in {@code complete}.</li>
 *   <li><b>Exactly once towards Kafka.</b> What {@code complete} writes to stores and forwards is
 *       committed with the input offsets; a call in flight at a commit is stored with it and made
 *       again by whoever runs the task next (after an abort, a crash, a rebalance), so its
 *       {@code complete} runs once in committed history. The call itself may be made more than
 *       once: pass {@link AsyncCall#idempotencyKey()} to the other service.</li>
 *   <li><b>Failures.</b> A call that fails for good (after its retries) never reaches {@code
 *       complete}: the record goes to the dead-letter topic or the task fails, as the options say.
 *       An exception from {@code complete} fails the record as one from {@code Processor.process}
 *       does (under exactly-once its outputs and store writes are aborted and the record
 *       dead-lettered).</li>
 *   <li><b>Time.</b> The task's watermark waits for the oldest record in flight; event-time
 *       punctuations fire as it moves.</li>
 * </ul>
 *
 * @param <KIn>  input key type
 * @param <VIn>  input value type
 * @param <KOut> key type of forwarded records
 * @param <VOut> value type of forwarded records
 * @param <R>    the call's result type
 */
public interface AsyncProcessor<KIn, VIn, KOut, VOut, R> {

    /** Called once before the first record (and before calls stored at the last commit are made again). */
    default void init(ProcessorContext<KOut, VOut> context) {}

    /**
     * Starts the call for {@code record} and returns its future result; must not block. May read
     * the stores. A {@code null} stage, an exception, or a stage completed exceptionally fails the
     * attempt.
     */
    CompletionStage<R> call(Record<KIn, VIn> record, AsyncCall call);

    /** The call for {@code record} finished with {@code result}: update stores, forward records. */
    void complete(Record<KIn, VIn> record, R result);

    default void close() {}
}
