package io.weir.internal.bounded;

import io.weir.internal.thread.RunEnd;
import io.weir.processor.TaskId;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state of a bounded run ({@code run.mode=bounded}) across the stream threads of its one
 * instance: where each input partition ends, which tasks are done, what was counted. Made at start
 * by {@link BoundedRunPlan}; each thread's {@link BoundedRunEnd} asks it and reports to it.
 *
 * <ul>
 *   <li>User input partitions end at the end offsets taken at start (read_committed: the last
 *       stable offset), or earlier at the first record later than {@code bounded.until}.</li>
 *   <li>A repartition topic's end is unknown until every sub-topology writing to it is done (every
 *       task finished and committed): only then can no record be added, and its high watermark
 *       is read once ({@code repartitionEnds}; not the last stable offset, which can still lag
 *       behind the writers' last commit while its markers are written). So sub-topologies end in dependency order, and what
 *       an upstream finish emits (windows closed at the end) is drained downstream before the
 *       downstream tasks finish.</li>
 *   <li>The run is complete when every task of every sub-topology is done.</li>
 * </ul>
 *
 * <p>Threading: thread-safe; every stream thread of the instance and the application's thread
 * use it.
 */
public final class BoundedRun {

    private static final Logger log = LoggerFactory.getLogger(BoundedRun.class);

    /** This run's end for one stream thread, whose consumer tells where its partitions stand. */
    public RunEnd endFor(org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> consumer) {
        return new BoundedRunEnd(this, consumer);
    }

    /** What the run is made of; see {@link BoundedRunPlan}. */
    record Plan(
            Map<TopicPartition, Long> inputEnds,
            Map<Integer, Set<TaskId>> tasksBySubtopology,
            Map<String, Set<Integer>> writersByRepartitionTopic,
            long endWatermark) {}

    private final Plan plan;
    private final Function<String, Map<TopicPartition, Long>> repartitionEnds;
    private final Map<TopicPartition, Long> ends = new ConcurrentHashMap<>();
    private final Set<TaskId> done = ConcurrentHashMap.newKeySet();
    private final int taskCount;
    private final CountDownLatch complete = new CountDownLatch(1);
    private final LongAdder inputRecords = new LongAdder();
    private final LongAdder repartitionRecords = new LongAdder();
    private final LongAdder sentAtEnd = new LongAdder();
    private final long startNanos = System.nanoTime();
    private volatile long endNanos;

    /**
     * @param repartitionEnds the high watermark of every partition of a repartition topic; called
     *                        once per topic, when its writers are done
     */
    BoundedRun(Plan plan, Function<String, Map<TopicPartition, Long>> repartitionEnds) {
        this.plan = plan;
        this.repartitionEnds = repartitionEnds;
        this.ends.putAll(plan.inputEnds());
        this.taskCount =
                plan.tasksBySubtopology().values().stream().mapToInt(Set::size).sum();
        if (taskCount == 0) {
            finish();
        }
    }

    /** Where event time ends: {@code bounded.until}, or {@link Long#MAX_VALUE}. */
    long endWatermark() {
        return plan.endWatermark();
    }

    /** The end of {@code tp} if known now, without looking it up. */
    Long knownEnd(TopicPartition tp) {
        return ends.get(tp);
    }

    /**
     * The end offset of {@code tp}, or null while it cannot be known: a repartition topic whose
     * writers are not all done. A user topic the run did not see at start (a topic created since
     * that matches a pattern source) ends where it is: its records are not part of the run.
     */
    Long endOffset(TopicPartition tp) {
        Long end = ends.get(tp);
        if (end != null) {
            return end;
        }
        Set<Integer> writers = plan.writersByRepartitionTopic().get(tp.topic());
        if (writers == null) {
            return 0L;
        }
        for (int st : writers) {
            if (!done.containsAll(plan.tasksBySubtopology().getOrDefault(st, Set.of()))) {
                return null;
            }
        }
        synchronized (this) {
            if (!ends.containsKey(tp)) {
                ends.putAll(repartitionEnds.apply(tp.topic()));
            }
        }
        return ends.get(tp);
    }

    boolean isDone(TaskId task) {
        return done.contains(task);
    }

    /** {@code task} finished and committed that; {@code sent}: the records its finish sent. */
    void done(TaskId task, long sent) {
        if (done.add(task)) {
            sentAtEnd.add(sent);
            if (done.size() >= taskCount) {
                finish();
            }
        }
    }

    private void finish() {
        endNanos = System.nanoTime();
        complete.countDown();
    }

    /** {@code n} records of {@code tp} were processed and committed. */
    void counted(TopicPartition tp, long n) {
        (plan.writersByRepartitionTopic().containsKey(tp.topic()) ? repartitionRecords : inputRecords).add(n);
    }

    /** True once every task is done. */
    public boolean isComplete() {
        return complete.getCount() == 0;
    }

    /** Waits up to {@code timeout} for the run to complete; returns true if it did. */
    public boolean awaitComplete(Duration timeout) throws InterruptedException {
        return complete.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Waits until the run is complete or {@code keepWaiting} turns false. Meanwhile, every two
     * seconds, it checks that no other instance joined the consumer group: one would take tasks the
     * run waits for, so {@code onIntruder} hears what joined instead of the run waiting for ever.
     */
    public void awaitEnd(
            Admin admin,
            String applicationId,
            String instanceId,
            BooleanSupplier keepWaiting,
            Consumer<String> onIntruder)
            throws InterruptedException {
        while (!awaitComplete(Duration.ofSeconds(2)) && keepWaiting.getAsBoolean()) {
            try {
                BoundedRunPlan.otherMembers(admin, applicationId, instanceId).ifPresent(onIntruder);
            } catch (RuntimeException e) {
                log.debug("{}: could not check the group's members", applicationId, e);
            }
        }
    }

    /** Input records processed and committed so far (user topics, not repartition topics). */
    public long inputRecords() {
        return inputRecords.sum();
    }

    public long repartitionRecords() {
        return repartitionRecords.sum();
    }

    /** Records sent by the windows and timers that fired when the tasks finished. */
    public long sentAtEnd() {
        return sentAtEnd.sum();
    }

    /** From start to completion (or to now, if not complete). */
    public Duration duration() {
        long end = isComplete() ? endNanos : System.nanoTime();
        return Duration.ofNanos(end - startNanos);
    }

    /** The end offset of each partition known now, per topic, in partition order (-1 where unknown). */
    public Map<String, List<Long>> endOffsets() {
        Map<String, TreeMap<Integer, Long>> byTopic = new TreeMap<>();
        ends.forEach((tp, end) ->
                byTopic.computeIfAbsent(tp.topic(), t -> new TreeMap<>()).put(tp.partition(), end));
        Map<String, List<Long>> result = new TreeMap<>();
        byTopic.forEach((topic, parts) -> {
            int size = parts.lastKey() + 1;
            Long[] offsets = new Long[size];
            java.util.Arrays.fill(offsets, -1L);
            parts.forEach((p, end) -> offsets[p] = end);
            result.put(topic, List.of(offsets));
        });
        return result;
    }

    /** The records of {@code records} (in offset order) below {@code end}. */
    static List<ConsumerRecord<byte[], byte[]>> before(List<ConsumerRecord<byte[], byte[]>> records, long end) {
        int n = records.size();
        if (n == 0 || records.get(n - 1).offset() < end) {
            return records;
        }
        int cut = 0;
        while (cut < n && records.get(cut).offset() < end) {
            cut++;
        }
        return records.subList(0, cut);
    }
}
