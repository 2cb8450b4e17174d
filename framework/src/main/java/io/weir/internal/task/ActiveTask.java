package io.weir.internal.task;

import io.weir.internal.commit.CommitUnit;
import io.weir.internal.commit.OpenTransaction;
import io.weir.internal.state.TaskStores;
import io.weir.internal.time.WatermarkBroadcast;
import io.weir.internal.time.WatermarkMarker;
import io.weir.internal.time.Watermarks;
import io.weir.internal.tracing.RecordSpan;
import io.weir.internal.tracing.Tracing;
import io.weir.processor.TaskId;
import io.weir.sink.internal.CommitAbortedException;
import io.weir.sink.internal.TaskMigratedException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A task: one partition number of one sub-topology, with its own instance of every node. Records
 * of its input partitions are buffered per partition and processed in timestamp order across
 * partitions, with bounded memory ({@link TaskInputs}).
 *
 * <p>Owned by one stream thread; not thread-safe.
 */
public final class ActiveTask implements CommitUnit {

    private final TaskId id;
    private final TaskContext context;
    private final List<Node> nodes;
    private final java.util.function.Function<String, SourceNode> sources;
    private final TaskInputs inputs;
    private final DeadLetters deadLetters;
    private final TaskStores stores;
    private final OpenTransaction transaction;
    private boolean held;
    private final Watermarks watermarks;
    private final WatermarkBroadcast broadcast;
    private final TaskOffsets offsets;

    private boolean initialized;
    /** Bounded runs: event time was moved to the end of the run ({@link #finish}), not committed yet. */
    private boolean finishing;
    /** Bounded runs: the finish is committed; the task is done. */
    private boolean finished;
    /** The nodes that act when event time moves (windows), in topology order. */
    private Node[] timeNodes = new Node[0];
    /** The asynchronous steps, in topology order; their calls in flight hold the watermark back. */
    private AsyncStep[] asyncSteps = new AsyncStep[0];

    ActiveTask(
            TaskId id,
            TaskContext context,
            List<Node> nodes,
            java.util.function.Function<String, SourceNode> sources,
            Consumer<byte[], byte[]> consumer,
            DeadLetters deadLetters,
            int maxBuffered,
            TaskStores stores,
            OpenTransaction transaction,
            WatermarkBroadcast broadcast) {
        this.id = id;
        this.context = context;
        this.nodes = nodes;
        this.sources = sources;
        this.deadLetters = deadLetters;
        this.inputs = new TaskInputs(consumer, maxBuffered);
        this.offsets = new TaskOffsets(inputs, consumer, context.watermarks());
        this.stores = stores;
        this.transaction = transaction;
        this.watermarks = context.watermarks();
        this.broadcast = broadcast;
    }

    /**
     * Initializes the nodes once the task may run: its stores are restored and its committed
     * times resumed, so processors start from the restored state and the resumed watermark.
     */
    private void ensureInitialized() {
        offsets.resumeTimes(); // a no-op unless a partition is new: then before any of its records
        if (initialized) {
            return;
        }
        initialized = true;
        for (Node n : nodes) {
            n.init();
        }
        context.punctuations().committed(); // what init registered survives an abort: init runs once
        timeNodes = nodes.stream().filter(Node::observesEventTime).toArray(Node[]::new);
        asyncSteps = nodes.stream()
                .map(n -> n instanceof ProcessorNode p ? p.asyncStep() : null)
                .filter(java.util.Objects::nonNull)
                .toArray(AsyncStep[]::new);
        if (asyncSteps.length > 0) {
            watermarks.holdAt(this::oldestInFlight);
        }
    }

    /** Records this task has still to process: buffered, or on the brokers as its consumer last saw them. */
    public long inputLag() {
        return inputs.lag();
    }

    public TaskStores stores() {
        return stores;
    }

    /** Holds the input back until the stores are restored. */
    public void startRestoring() {
        inputs.startRestoring();
    }

    /** True while the stores restore; safe to read from any thread. */
    public boolean isRestoring() {
        return inputs.isRestoring();
    }

    /** The stores are restored: processing may start. */
    public void finishRestoring() {
        inputs.finishRestoring(context.wallClockMs());
    }

    public TaskId id() {
        return id;
    }

    public Collection<TopicPartition> partitions() {
        return inputs.partitions();
    }

    public void addPartition(TopicPartition tp) {
        SourceNode source = sources.apply(tp.topic());
        if (source == null) {
            throw new IllegalStateException("task " + id + " has no source for topic " + tp.topic());
        }
        PartitionState added = inputs.add(tp, source, context.wallClockMs());
        offsets.added(added);
        watermarks.setPartitions(inputs.times());
    }

    public void addRecords(TopicPartition tp, List<ConsumerRecord<byte[], byte[]>> records) {
        inputs.addRecords(tp, records, context.wallClockMs());
    }

    /**
     * True if the task has records to process now: buffered, not held for a savepoint, and no
     * asynchronous step at its in-flight bound.
     */
    public boolean hasBuffered() {
        return !held && inputs.hasBuffered() && !asyncFull();
    }

    /** True if an asynchronous step has finished calls to apply (and the task is not held). */
    public boolean asyncReady() {
        if (held) {
            return false;
        }
        for (AsyncStep step : asyncSteps) {
            if (step.ready()) {
                return true;
            }
        }
        return false;
    }

    /** Input partitions paused because their buffer is full (not those held for a restore). */
    public int pausedPartitions() {
        return inputs.pausedForFullBuffers();
    }

    /** Calls of the task's asynchronous steps in flight (or waiting for their key's turn). */
    public int inFlight() {
        int n = 0;
        for (AsyncStep step : asyncSteps) {
            n += step.inFlight();
        }
        return n;
    }

    /**
     * The asynchronous step of this task that has waited longest with calls in flight and none
     * finishing, or null.
     */
    public AsyncStep longestWaitingStep() {
        AsyncStep longest = null;
        for (AsyncStep step : asyncSteps) {
            if (step.waitingSinceNanos() != Long.MAX_VALUE
                    && (longest == null || step.waitingSinceNanos() - longest.waitingSinceNanos() < 0)) {
                longest = step;
            }
        }
        return longest;
    }

    private boolean asyncFull() {
        for (AsyncStep step : asyncSteps) {
            if (step.full()) {
                return true;
            }
        }
        return false;
    }

    /** The smallest timestamp of a record in flight in an asynchronous step; MAX_VALUE if none. */
    private long oldestInFlight() {
        long oldest = Long.MAX_VALUE;
        for (AsyncStep step : asyncSteps) {
            oldest = Math.min(oldest, step.oldestInFlight());
        }
        return oldest;
    }

    /**
     * Holds (or releases) the task at a savepoint's cut: while held it processes nothing and fires
     * no punctuation, so its state and committed offsets stay those of the cut. Records fetched
     * meanwhile stay buffered (its partitions pause once the buffer is full).
     */
    public void hold(boolean hold) {
        held = hold;
    }

    boolean isHeld() {
        return held;
    }

    /** Calls {@code out} with every partition this task committed and its committed offset. */
    public void forEachCommitted(java.util.function.BiConsumer<TopicPartition, Long> out) {
        offsets.forEachCommitted(out);
    }

    /** True if no record of {@code tp} is buffered (all fetched ones were processed). */
    public boolean drained(TopicPartition tp) {
        return inputs.drained(tp);
    }

    /**
     * The offsets committed for this task's partitions (by it, or by the task's previous owner),
     * with the metadata they were committed with (the watermark); partitions nobody ever committed
     * are absent.
     */
    public Map<TopicPartition, OffsetAndMetadata> committedOffsets() {
        return offsets.committedOffsets();
    }

    /**
     * Processes up to {@code max} buffered records (fewer once {@code maxNanos} have passed), oldest timestamp first across partitions;
     * takes in the watermark markers met on the way.
     *
     * @return how many records were taken (processed or dead-lettered), markers aside
     */
    public int process(int max, long maxNanos, RecordFailureHandler onFailure) {
        long start = System.nanoTime();
        context.onFailure(onFailure); // before init: an async step's first calls may fail at once
        ensureInitialized();
        long now = context.wallClockMs(); // once per batch: idleness needs no finer clock
        if (asyncSteps.length > 0 && !held) {
            completeAsync(now);
        }
        int done = 0;
        int taken = 0;
        while (taken < max && inputs.hasBuffered() && (asyncSteps.length == 0 || !asyncFull())) {
            PartitionState p = inputs.next();
            ConsumerRecord<byte[], byte[]> record = inputs.take(p);
            io.weir.processor.Record<Object, Object> read = p.takeHead();
            WatermarkMarker marker = p.upstream == null ? null : WatermarkMarker.from(record);
            if (marker != null) {
                p.upstream.observe(marker);
                if (watermarks.advance(now)) {
                    fireWatermark();
                }
            } else {
                processOne(p, record, read, onFailure, now);
                p.takenSinceCommit++;
                done++;
            }
            p.nextToProcess = record.offset() + 1;
            taken++;
            // Slow records (a processor that blocks on a call) must not hold the commit back for
            // a whole batch: past the commit interval the transaction could time out and fence.
            if ((taken & 7) == 0 && System.nanoTime() - start > maxNanos) {
                break;
            }
        }
        inputs.resumeDrained();
        return done;
    }

    /**
     * Applies the calls the asynchronous steps finished; the watermark may move once the oldest
     * record in flight left.
     */
    private void completeAsync(long now) {
        boolean any = false;
        for (AsyncStep step : asyncSteps) {
            if (step.ready()) {
                any |= step.complete() > 0;
            }
        }
        if (any && watermarks.advance(now)) {
            fireWatermark();
        }
    }

    /** Fires what the wall clock made due: idle partitions releasing the watermark, wall-clock timers. */
    public void punctuate(long now) {
        if (inputs.isRestoring() || held) {
            return;
        }
        ensureInitialized();
        if (watermarks.advance(now)) {
            fireWatermark();
        }
        context.punctuations().fireWallClock(now);
    }

    public long watermark() {
        return watermarks.current();
    }

    /** Input partitions of repartition topics still waiting to hear from a task writing to them. */
    public int partitionsAwaitingWriters() {
        int n = 0;
        for (PartitionState p : inputs.states()) {
            if (p.upstream != null && p.upstream.awaitingWriters()) {
                n++;
            }
        }
        return n;
    }

    /**
     * Bounded runs: every input of the task reached its end; moves event time to {@code end} so
     * every window and event-time timer up to it fires now. The task is {@link #finished()} once
     * this is committed; an abort takes it back (the watermark returns to its committed value) and
     * the finish is done again.
     */
    public void finish(long end) {
        ensureInitialized();
        finishing = true;
        if (watermarks.finishAt(end)) {
            fireWatermark();
        }
    }

    /** True between {@link #finish} and the commit or abort that follows it. */
    public boolean finishing() {
        return finishing && !finished;
    }

    /** True once a {@link #finish} is committed. */
    public boolean finished() {
        return finished;
    }

    /**
     * A commit found nothing to commit: no offset moved and nothing was sent, so a finish, which
     * fired nothing, is as good as committed (an empty input's task has no offset to carry it).
     */
    public void nothingToCommit() {
        finished |= finishing;
    }

    /** Hands over, per input partition, the records taken and committed since the last call. */
    public void drainCommittedCounts(java.util.function.ObjLongConsumer<TopicPartition> to) {
        offsets.drainCommittedCounts(to);
    }

    private void fireWatermark() {
        long wm = watermarks.current();
        context.punctuations().fireEventTime(wm);
        for (Node n : timeNodes) {
            n.onWatermark(wm);
        }
    }

    /** @param read the record already read to order it among partitions, or null */
    private void processOne(
            PartitionState p,
            ConsumerRecord<byte[], byte[]> record,
            io.weir.processor.Record<Object, Object> read,
            RecordFailureHandler onFailure,
            long now) {
        Tracing tracing = context.tracing();
        RecordSpan span = tracing.on() ? tracing.process(record, false) : null; // current until it ends
        try {
            if (deadLetters.hasPoisoned()) {
                DeadLetters.Poisoned mark = deadLetters.poisonedAt(p.tp, record.offset());
                if (mark != null) {
                    if (span != null) {
                        span.failed(mark.error());
                    }
                    deadLetters.apply(tracing.withCurrentContext(record), mark);
                    // Commit soon, so that a later failure does not replay (and re-abort) this one.
                    deadLetters.requestCommit();
                    return;
                }
            }
            context.current(record);
            try {
                io.weir.processor.Record<Object, Object> typed = read != null ? read : p.source.read(record);
                // Only a partition's new largest time can move the watermark between two punctuations.
                if (watermarks.observe(p.time, typed.timestamp()) && watermarks.advance(now)) {
                    fireWatermark();
                }
                p.source.forward(span == null ? typed : typed.withHeaders(tracing.continued(typed.headers())));
            } catch (TaskMigratedException | CommitAbortedException e) {
                throw e; // the transaction failed, not the record: the thread aborts and replays it
            } catch (RuntimeException e) {
                if (span != null) {
                    span.failed(StageException.rootOf(e));
                }
                onFailure.onFailure(context.failure(tracing.withCurrentContext(record), e, p.source.name));
            } finally {
                context.current(null);
            }
        } finally {
            if (span != null) {
                span.end();
            }
        }
    }

    // ---- CommitUnit --------------------------------------------------------------------------

    @Override
    public void finishInFlight() {
        // Processing is synchronous, so no record is half-way through; what remains is results
        // held back for the commit (table updates), forwarded parents first.
        for (Node n : initialized ? nodes : List.<Node>of()) {
            n.beforeCommit();
        }
        long now = context.wallClockMs();
        stores.sweepExpired(now);
        if (initialized && !held && !finishing) {
            // After every output of the transaction, so a marker follows the records it speaks for.
            // Not a bounded run's jump to the end: downstream tasks make that jump themselves when
            // their input ends, so what it fires counts as fired at the end.
            broadcast.beforeCommit(watermarks.current(), watermarks.idle(now), now);
        }
    }

    @Override
    public void writePendingChangelog() {
        stores.writeChangelog(transaction);
    }

    @Override
    public void writeNextOffsets() {
        transaction.commitOffsets(committableOffsets());
    }

    /** See {@link TaskOffsets#committable()}. */
    Map<TopicPartition, OffsetAndMetadata> committableOffsets() {
        return offsets.committable();
    }

    @Override
    public void committed() {
        stores.commit(offsets.advanced());
        if (!inputs.isRestoring()) {
            // Windows the committed watermark has passed by their retention: a local range delete.
            stores.dropExpired(watermarks.current());
        }
        watermarks.committed();
        broadcast.committed();
        context.punctuations().committed();
        finished |= finishing;
        offsets.committed(deadLetters);
        for (Node n : initialized ? nodes : List.<Node>of()) {
            n.committed();
        }
    }

    @Override
    public void aborted() {
        stores.abort();
        watermarks.aborted();
        broadcast.aborted();
        context.punctuations().aborted();
        finishing = finished;
        for (Node n : initialized ? nodes : List.<Node>of()) {
            n.afterAbort();
        }
        inputs.rewind();
    }

    /** Closes the nodes; the caller has committed or aborted the task's work. */
    public void close() {
        List<RuntimeException> errors = new ArrayList<>();
        for (Node n : initialized ? nodes : List.<Node>of()) {
            try {
                n.close();
            } catch (RuntimeException e) {
                errors.add(e);
            }
        }
        for (PartitionState p : inputs.states()) {
            deadLetters.forget(p.tp);
        }
        try {
            stores.close();
        } catch (RuntimeException e) {
            errors.add(e);
        }
        if (!errors.isEmpty()) {
            throw errors.get(0);
        }
    }

    @Override
    public String toString() {
        return "Task " + id + " " + inputs.partitions();
    }
}
