package io.weir.state.changelog;

import io.weir.common.internal.Deadline;
import io.weir.state.internal.BytesStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A restore that can be advanced a slice at a time, so the thread that owns it can do other work
 * (poll its group consumer, process tasks that are ready) between slices: stores join with
 * {@link #add}, leave with {@link #remove} (their task moved away), and {@link #step} restores for
 * at most a given time. All partitions under restore are fetched together by one consumer; each
 * store's batches are applied on its own applier thread, one batch in flight, in order, with the
 * consumer's position as the stored offset, so an interrupted restore resumes where it stopped.
 *
 * <p>The start offset is the one stored in the store, or the beginning for a new store. A stored
 * offset before the partition's first offset, or after its end once {@code endOffsetGrace} has
 * passed (a dead producer's open transaction can hold the read_committed end back for up to its
 * transaction timeout), means the log and the store diverged: the store is wiped and restored from
 * the beginning, with a warning.
 *
 * <p>The end is the read_committed end (the last stable offset) seen when the store joins, unless
 * a transaction on the partition is unresolved then: its read_committed end is below its log end
 * (the high watermark a read_uncommitted reader sees). That happens right after a previous owner's
 * {@code commitTransaction()}, which returns once the coordinator has decided but before the commit
 * markers are in the partition; stopping at that end would miss the last committed transaction,
 * whose input offsets are already committed. So such a partition stays under restore: once caught
 * up with its end, it looks the read_committed end up again every 200 ms and reads on as it moves,
 * until it reaches the log end seen when the store joined (then the restore finishes as usual) or
 * {@code endOffsetGrace} has passed since the store joined (a dead producer's open transaction; the
 * restore then finishes at the read_committed end, with a warning). A partition without an
 * unresolved transaction costs one log-end look-up per {@link #add}, nothing more. While it waits,
 * {@link RestoreListener#onStart} has reported the log end as the end.
 *
 * <p>A store may instead be restored from the topic it is read from (a table of a compacted topic,
 * {@link #add(Map, Function, Map)} with a {@link SourceRecords.Bound}): it stops at the bound, the
 * task's committed input offset, never beyond, and applies only what {@link SourceRecords} accepts,
 * as the bytes processing writes. A stored offset beyond the bound (the committed offsets were
 * moved back, a reset or a savepoint restore) cannot be rewound: the store is wiped and rebuilt
 * from the beginning up to the bound.
 *
 * <p>A store far behind its end is restored as a bulk load ({@link BulkLoad}, see {@link
 * PartitionRestore}).
 *
 * <p>Threads: one thread uses a session (the consumer is not thread-safe).
 */
public final class RestoreSession implements AutoCloseable {

    /**
     * When a restore loads by ingestion: from {@code minRecords} behind (0: never), in chunks of
     * {@code chunkBytes} of keys and values (each held in memory until it is ingested; two per
     * store at most, the one filling and the one being ingested).
     */
    public record BulkLoad(long minRecords, long chunkBytes) {
        /** Never: every restore writes batches. */
        public static final BulkLoad OFF = new BulkLoad(0, 1);
        /** The default chunk: 16 MiB. */
        public static final long CHUNK_BYTES = 16L << 20;

        public BulkLoad {
            if (minRecords < 0 || chunkBytes <= 0) {
                throw new IllegalArgumentException("minRecords " + minRecords + " and chunkBytes " + chunkBytes);
            }
        }

        /** From {@code minRecords} behind, in the default chunks. */
        public static BulkLoad from(long minRecords) {
            return new BulkLoad(minRecords, CHUNK_BYTES);
        }

        boolean applies(long behind) {
            return minRecords > 0 && behind >= minRecords;
        }
    }

    private static final Logger log = LoggerFactory.getLogger(RestoreSession.class);
    private static final Duration END_OFFSET_RECHECK = Duration.ofMillis(200);

    private final Consumer<byte[], byte[]> consumer;
    private final Duration pollTimeout;
    private final Duration endOffsetGrace;
    private final Function<Set<TopicPartition>, Map<TopicPartition, Long>> logEnds;
    private final BulkLoad bulkLoad;
    private final Map<TopicPartition, PartitionRestore> active = new HashMap<>();

    /**
     * @param consumer       a read_committed consumer, used in assign mode by this session only
     * @param pollTimeout    the timeout of each poll
     * @param endOffsetGrace how long to wait for the end offset to reach a stored offset beyond it
     *                       before wiping the store, or to reach the log end before finishing short
     *                       of it; the producers' {@code transaction.timeout.ms} plus a margin
     * @param logEnds        the log end (high watermark, as a read_uncommitted consumer's
     *                       {@code endOffsets} returns it) of each given partition; called from this
     *                       session's thread. {@code consumer::endOffsets} never sees an unresolved
     *                       transaction, and so restores to the read_committed end without waiting
     */
    public RestoreSession(
            Consumer<byte[], byte[]> consumer,
            Duration pollTimeout,
            Duration endOffsetGrace,
            Function<Set<TopicPartition>, Map<TopicPartition, Long>> logEnds) {
        this(consumer, pollTimeout, endOffsetGrace, logEnds, BulkLoad.OFF);
    }

    /** As {@link #RestoreSession(Consumer, Duration, Duration, Function)}, loading far-behind stores by ingestion. */
    public RestoreSession(
            Consumer<byte[], byte[]> consumer,
            Duration pollTimeout,
            Duration endOffsetGrace,
            Function<Set<TopicPartition>, Map<TopicPartition, Long>> logEnds,
            BulkLoad bulkLoad) {
        this.consumer = consumer;
        this.pollTimeout = pollTimeout;
        this.endOffsetGrace = endOffsetGrace;
        this.logEnds = logEnds;
        this.bulkLoad = bulkLoad;
    }

    /** True when no store is under restore. */
    public boolean isEmpty() {
        return active.isEmpty();
    }

    /** True while {@code changelog} is under restore. */
    public boolean isRestoring(TopicPartition changelog) {
        return active.containsKey(changelog);
    }

    /**
     * Starts restoring each store from its changelog partition. A store already up to date is
     * done at once ({@code onStart} and {@code onDone} are called before this returns).
     */
    public void add(Map<TopicPartition, BytesStore> stores, Function<TopicPartition, RestoreListener> listeners) {
        add(stores, listeners, Map.of(), false);
    }

    /**
     * As {@link #add(Map, Function)}; the partitions in {@code bounds} are source topics, restored
     * up to their bound's stop offset through its {@link SourceRecords} (see the class comment).
     */
    public void add(
            Map<TopicPartition, BytesStore> stores,
            Function<TopicPartition, RestoreListener> listeners,
            Map<TopicPartition, SourceRecords.Bound> bounds) {
        add(stores, listeners, bounds, false);
    }

    /**
     * Keeps each store following its changelog partition for as long as it stays in the session
     * (a standby): it starts like {@link #add} but never finishes; {@link RestoreListener#onDone}
     * is not called, and {@link #end} tells where the partition's end is, to measure how far behind
     * the store is.
     */
    public void tail(Map<TopicPartition, BytesStore> stores, Function<TopicPartition, RestoreListener> listeners) {
        add(stores, listeners, Map.of(), true);
    }

    /**
     * The end of {@code changelog} as of the last fetch (read_committed: the last stable offset),
     * if known yet: what a store that has applied everything has as its offset. A caller counts
     * its lag from what its store applied, which trails the consumer's position by the batch in
     * flight.
     */
    public OptionalLong end(TopicPartition changelog) {
        if (!active.containsKey(changelog)) {
            return OptionalLong.empty();
        }
        OptionalLong lag = consumer.currentLag(changelog);
        return lag.isEmpty() ? lag : OptionalLong.of(consumer.position(changelog) + lag.getAsLong());
    }

    private void add(
            Map<TopicPartition, BytesStore> stores,
            Function<TopicPartition, RestoreListener> listeners,
            Map<TopicPartition, SourceRecords.Bound> bounds,
            boolean tail) {
        if (stores.isEmpty()) {
            return;
        }
        long started = System.nanoTime();
        Set<TopicPartition> all = new HashSet<>(active.keySet());
        all.addAll(stores.keySet());
        consumer.assign(all);
        Map<TopicPartition, Long> begins = consumer.beginningOffsets(stores.keySet());
        // The log end first: a read_committed end below it means a transaction that began before
        // was unresolved when the end was read.
        Map<TopicPartition, Long> targets = logEnds.apply(stores.keySet());
        Map<TopicPartition, Long> ends = consumer.endOffsets(stores.keySet());
        // Valid positions and nothing fetched for the new partitions until their start is known.
        begins.forEach(consumer::seek);
        consumer.pause(stores.keySet());
        List<TopicPartition> ready = new ArrayList<>();
        for (Map.Entry<TopicPartition, BytesStore> e : stores.entrySet()) {
            TopicPartition tp = e.getKey();
            BytesStore store = e.getValue();
            long begin = begins.get(tp);
            long end = ends.get(tp);
            SourceRecords.Bound bound = bounds.get(tp);
            long stop = bound == null ? Long.MAX_VALUE : bound.stopOffset();
            long start = PartitionRestore.startOffset(tp, store, begin, stop);
            if (start > end) {
                end = awaitEndOffset(tp, start, end);
                if (start > end) {
                    log.warn(
                            "Store '{}': stored changelog offset {} is beyond the end {} of {} (topic recreated?); "
                                    + "wiping the store and restoring from the beginning",
                            store.name(),
                            start,
                            end,
                            tp);
                    store.clear();
                    start = begin;
                }
            }
            long target = Math.max(end, targets.getOrDefault(tp, end));
            // A source topic: never beyond the committed input offset (which is never beyond the
            // log end; below the read_committed end, nothing unresolved is waited for).
            end = Math.min(end, stop);
            target = Math.min(target, stop);
            RestoreListener listener = listeners.apply(tp);
            listener.onStart(start, target);
            if (tail) {
                consumer.seek(tp, start);
                active.put(
                        tp, new PartitionRestore(tp, store, listener, start, Long.MAX_VALUE, Long.MAX_VALUE, started));
                ready.add(tp);
            } else if (start < target) {
                consumer.seek(tp, start);
                PartitionRestore p = new PartitionRestore(tp, store, listener, start, end, target, started);
                p.bulk = bulkLoad.applies(target - start);
                if (bound != null) {
                    p.stop = stop;
                    p.rows = bound.records();
                }
                active.put(tp, p);
                ready.add(tp);
            } else {
                listener.onDone(0, (System.nanoTime() - started) / 1_000_000);
            }
        }
        consumer.assign(active.keySet());
        consumer.resume(ready);
    }

    /**
     * Restores for at most {@code budget} (one poll at least); returns the partitions whose
     * restore finished in this call, their stores fully applied.
     */
    public List<TopicPartition> step(Duration budget) {
        return step(budget, () -> false);
    }

    /**
     * As {@link #step(Duration)}, but ends early, after a poll, once {@code yield} is true: the
     * owning thread has more urgent work (an active task waiting for its restore while this session
     * tails standbys).
     */
    public List<TopicPartition> step(Duration budget, BooleanSupplier yield) {
        List<TopicPartition> finished = new ArrayList<>();
        Deadline deadline = Deadline.after(budget);
        do {
            if (active.isEmpty()) {
                break;
            }
            ConsumerRecords<byte[], byte[]> records = consumer.poll(pollTimeout);
            List<PartitionRestore> caughtUp = new ArrayList<>();
            for (PartitionRestore p : active.values()) {
                p.copy(
                        records.records(p.tp),
                        consumer.position(p.tp),
                        () -> consumer.currentLag(p.tp).orElse(0),
                        bulkLoad.chunkBytes());
                if (consumer.position(p.tp) >= p.end) {
                    caughtUp.add(p);
                }
            }
            List<TopicPartition> done = new ArrayList<>();
            for (PartitionRestore p : awaitingResolution(caughtUp)) {
                if (consumer.position(p.tp) >= p.end) {
                    done.add(p.tp);
                }
            }
            for (TopicPartition tp : done) {
                active.remove(tp).finish();
                finished.add(tp);
            }
            if (!done.isEmpty()) {
                consumer.assign(active.keySet());
            }
        } while (!deadline.expired() && !yield.getAsBoolean());
        return finished;
    }

    /**
     * Stops restoring these partitions (their task moved away): the batch in flight is waited
     * for, so the store is not written once this returns; it stays at its last applied batch.
     */
    public void remove(Collection<TopicPartition> changelogs) {
        boolean changed = false;
        for (TopicPartition tp : changelogs) {
            PartitionRestore p = active.remove(tp);
            if (p != null) {
                p.applier.close();
                changed = true;
            }
        }
        if (changed) {
            consumer.assign(active.keySet());
        }
    }

    /** Stops every restore under way; the stores stay at their last applied batch. */
    @Override
    public void close() {
        remove(new ArrayList<>(active.keySet()));
    }

    /**
     * The partitions of {@code caughtUp} that may finish: those at their log end, and those whose
     * grace is over (with a warning). The others, caught up with a read_committed end held back by
     * an unresolved transaction, look it up again (at most every 200 ms) and read on if it moved.
     */
    private List<PartitionRestore> awaitingResolution(List<PartitionRestore> caughtUp) {
        long now = System.nanoTime();
        Set<TopicPartition> recheck = new HashSet<>();
        for (PartitionRestore p : caughtUp) {
            if (p.end < p.target && now - p.lastCheck >= END_OFFSET_RECHECK.toNanos()) {
                recheck.add(p.tp);
            }
        }
        if (!recheck.isEmpty()) {
            consumer.endOffsets(recheck).forEach((tp, end) -> {
                PartitionRestore p = active.get(tp);
                p.end = Math.min(p.stop, Math.max(p.end, end));
                p.lastCheck = now;
            });
        }
        List<PartitionRestore> finishing = new ArrayList<>();
        for (PartitionRestore p : caughtUp) {
            if (p.end >= p.target) {
                finishing.add(p);
            } else if (now - (p.started + endOffsetGrace.toNanos()) >= 0) {
                log.warn(
                        "Store '{}': a transaction on {} was not resolved within {} (a dead producer's?); "
                                + "finishing the restore at the read_committed end {}, short of the log end {}",
                        p.store.name(),
                        p.tp,
                        endOffsetGrace,
                        p.end,
                        p.target);
                p.target = p.end;
                finishing.add(p);
            }
        }
        return finishing;
    }

    /**
     * Waits (up to the grace) for the end offset to reach a stored offset beyond it. Everything is
     * paused meanwhile, so polls fetch nothing; partitions already under restore are sought back
     * to what they handed to their stores, so nothing fetched and dropped in between is lost.
     */
    private long awaitEndOffset(TopicPartition changelog, long stored, long end) {
        if (end >= stored || endOffsetGrace.isZero()) {
            return end;
        }
        Deadline deadline = Deadline.after(endOffsetGrace);
        consumer.pause(consumer.assignment());
        while (end < stored && !deadline.expired()) {
            consumer.poll(END_OFFSET_RECHECK);
            end = consumer.endOffsets(Set.of(changelog)).get(changelog);
        }
        for (PartitionRestore p : active.values()) {
            consumer.seek(p.tp, p.appliedOffset);
            p.batch.clear(); // a bulk load's chunk in the making: read again from there
        }
        consumer.resume(active.keySet());
        return end;
    }
}
