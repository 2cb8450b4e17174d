package io.weir.internal.task;

import io.weir.internal.time.Punctuations;
import io.weir.internal.time.Watermarks;
import io.weir.internal.tracing.RecordSpan;
import io.weir.internal.tracing.Tracing;
import io.weir.processor.TaskId;
import io.weir.sink.internal.CommitAbortedException;
import io.weir.sink.internal.TaskMigratedException;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What the nodes of one task share: its id, clocks, timers and where late records go, and the
 * input record being processed (the one a late or failed record is reported as).
 *
 * <p>Owned by the task's thread.
 */
final class TaskContext implements AsyncHost {

    private final TaskId id;
    private final String applicationId;
    private final LongSupplier wallClock;
    private final Watermarks watermarks;
    private final Punctuations punctuations;
    private final LateRecords lateRecords;
    private ConsumerRecord<byte[], byte[]> current;
    /** Records the instance is behind its inputs ({@link Backlog}); none until set. */
    private LongSupplier inputLag = () -> 0;

    private long maxEarlyLag;
    private AsyncSignal asyncSignal = new AsyncSignal();
    private AsyncMeters asyncMeters;
    private InstanceCalls instanceCalls = new InstanceCalls();
    /** How the thread handles a failed record; set by the task before it processes. */
    private RecordFailureHandler onFailure;
    /** The last failure a node noted ({@link #noteFailure}), the node's name and its input. */
    private Throwable failedWith;

    private String failedAt;
    private io.weir.processor.Record<Object, Object> failedRecord;

    private Tracing tracing = Tracing.off();

    TaskContext(
            TaskId id, String applicationId, LongSupplier wallClock, Watermarks watermarks, LateRecords lateRecords) {
        this.id = id;
        this.applicationId = applicationId;
        this.wallClock = wallClock;
        this.watermarks = watermarks;
        this.lateRecords = lateRecords;
        this.punctuations = new Punctuations(wallClock, watermarks::current);
    }

    TaskId id() {
        return id;
    }

    /** How far behind its inputs the instance is ({@link Backlog#total}). */
    void inputLag(LongSupplier inputLag) {
        this.inputLag = inputLag;
    }

    /** {@code early.results.max.lag.records}; 0 (the default here) never counts the task behind. */
    void maxEarlyLag(long maxEarlyLag) {
        this.maxEarlyLag = maxEarlyLag;
    }

    boolean behind() {
        return maxEarlyLag > 0 && inputLag.getAsLong() > maxEarlyLag;
    }

    String applicationId() {
        return applicationId;
    }

    long wallClockMs() {
        return wallClock.getAsLong();
    }

    Watermarks watermarks() {
        return watermarks;
    }

    Punctuations punctuations() {
        return punctuations;
    }

    void current(ConsumerRecord<byte[], byte[]> record) {
        this.current = record;
    }

    /** Notes that {@code node} threw {@code e} for {@code record}, unless a node below it did first. */
    void noteFailure(String node, io.weir.processor.Record<Object, Object> record, RuntimeException e) {
        if (failedWith != e) {
            failedWith = e;
            failedAt = node;
            failedRecord = record;
        }
    }

    /**
     * The failure of {@code input} for what was thrown: its stage and error (a stage wrapper's
     * cause), and the node that noted it; else {@code node} (a source that could not read it).
     */
    RecordFailure failure(ConsumerRecord<byte[], byte[]> input, Throwable thrown, String node) {
        boolean noted = thrown == failedWith;
        RecordFailure f = new RecordFailure(
                id,
                input,
                StageException.stageOf(thrown),
                StageException.rootOf(thrown),
                noted ? failedAt : node,
                noted ? failedRecord : null);
        failedWith = null;
        failedAt = null;
        failedRecord = null;
        return f;
    }

    /** The thread's signal for calls that finish on other threads, and its meters of asynchronous steps. */
    void async(AsyncSignal signal, AsyncMeters meters, InstanceCalls instanceCalls) {
        this.asyncSignal = signal;
        this.asyncMeters = meters;
        this.instanceCalls = instanceCalls;
    }

    @Override
    public InstanceCalls.Counts instanceCalls(String step) {
        return instanceCalls.of(step);
    }

    @Override
    public AsyncMeters.Step meters(String step) {
        return asyncMeters.step(step);
    }

    void onFailure(RecordFailureHandler onFailure) {
        this.onFailure = onFailure;
    }

    /** The instance's tracing; before the nodes are made, which read it. */
    void tracing(Tracing tracing) {
        this.tracing = tracing;
    }

    Tracing tracing() {
        return tracing;
    }

    // ---- AsyncHost ---------------------------------------------------------------------------

    @Override
    public AsyncSignal signal() {
        return asyncSignal;
    }

    @Override
    public ConsumerRecord<byte[], byte[]> input() {
        return current;
    }

    @Override
    public void runFor(ConsumerRecord<byte[], byte[]> origin, Runnable work) {
        ConsumerRecord<byte[], byte[]> before = current;
        current = origin;
        // The completion of a call is the record's processing too: what it produces continues
        // the record's trace, under a span of its own.
        RecordSpan span = tracing.on() ? tracing.process(origin, true) : null;
        try {
            work.run();
        } catch (RuntimeException | Error e) {
            if (span != null) {
                span.failed(e);
            }
            throw e;
        } finally {
            current = before;
            if (span != null) {
                span.end();
            }
        }
    }

    @Override
    public void deadLetter(ConsumerRecord<byte[], byte[]> origin, String step, Throwable error) {
        // the error handler decides: skipped, dead-lettered (with the current span's context), or the application stops
        onFailure.onFailure(new RecordFailure(id, tracing.withCurrentContext(origin), Stage.CALL, error, step, null));
    }

    @Override
    public void failed(ConsumerRecord<byte[], byte[]> origin, String step, Throwable error) {
        if (error instanceof TaskMigratedException || error instanceof CommitAbortedException) {
            throw (RuntimeException) error; // the transaction failed, not the record
        }
        onFailure.onFailure(failure(tracing.withCurrentContext(origin), error, step));
    }

    /** Reports the input record being processed as too late for a window of {@code operator}. */
    void late(String operator, long windowStart, long windowEnd) {
        if (current == null) {
            throw new IllegalStateException("late records can only be reported while processing a record");
        }
        lateRecords.late(current, operator, windowStart, windowEnd, watermarks.current());
    }
}
