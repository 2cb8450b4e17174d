package io.weir.internal.topology;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How many tasks each sub-topology has, given the partition counts of the user's input topics:
 * a sub-topology has as many tasks as its largest input topic has partitions, and a repartition
 * topic as many partitions as the sub-topology writing it has tasks, except one read beside input
 * topics by a sub-topology with state stores (a re-keyed stream joined with a table): it gets the
 * largest partition count of those topics, so that it is co-partitioned with them (as Kafka
 * Streams sizes the repartition topics of a co-partition group); read beside other repartition
 * topics only (two re-keyed streams joined), the largest task count of their writers. A
 * repartition topic whose count the topology fixes ({@code Repartitioned.withPartitions}) has that
 * count, and counts as a fixed input for the topics read beside it. Sub-topologies are sized in
 * dependency order. This is the rule {@code TopicSetup} applies when it creates the internal
 * topics on a cluster; the test driver applies it to its in-memory topics.
 *
 * @param tasks      tasks per sub-topology id
 * @param partitions partitions per topic: the given input topics and the repartition topics
 */
public record TaskCounts(Map<Integer, Integer> tasks, Map<String, Integer> partitions) {

    public static TaskCounts of(TopologyModel model, Map<String, Integer> inputPartitions) {
        Map<String, Integer> partitions = new LinkedHashMap<>(inputPartitions);
        for (NodeSpec.Source s : model.internalSources()) {
            if (s.fixedPartitions()) {
                s.topics().forEach(topic -> partitions.put(topic, s.partitions()));
            }
        }
        Map<Integer, Integer> tasks = new LinkedHashMap<>();
        Map<String, Subtopology> writers = new LinkedHashMap<>();
        for (Subtopology st : model.subtopologies()) {
            model.repartitionTopicsWrittenBy(st).forEach(topic -> writers.put(topic, st));
        }
        boolean progress = true;
        while (progress) {
            progress = false;
            for (Subtopology st : model.subtopologies()) {
                if (!tasks.containsKey(st.id())) {
                    Integer count = sizeOf(st, partitions);
                    if (count != null) {
                        tasks.put(st.id(), count);
                        progress = true;
                    }
                }
            }
            for (Map.Entry<String, Subtopology> w : writers.entrySet()) {
                if (!partitions.containsKey(w.getKey())) {
                    Integer count = repartitionCount(model, w.getKey(), writers, tasks, partitions);
                    if (count != null) {
                        partitions.put(w.getKey(), count);
                        progress = true;
                    }
                }
            }
        }
        return new TaskCounts(Collections.unmodifiableMap(tasks), Collections.unmodifiableMap(partitions));
    }

    /**
     * The partition count of repartition topic {@code topic}, or null while it depends on a count
     * not known yet: its writer's task count; but if its reader has state stores, the largest count
     * of the fixed input topics it reads beside it, or, when it reads none, the largest task count
     * of the writers of all the repartition topics it reads (two re-keyed streams joined), except
     * a foreign-key join's topics (without event time), which take the reader's size and do not
     * decide it.
     */
    private static Integer repartitionCount(
            TopologyModel model,
            String topic,
            Map<String, Subtopology> writers,
            Map<Integer, Integer> tasks,
            Map<String, Integer> partitions) {
        Integer writerTasks = tasks.get(writers.get(topic).id());
        Subtopology reader = model.subtopologyFor(topic);
        if (reader == null || model.storesOf(reader).isEmpty()) {
            return writerTasks;
        }
        // Fixed inputs decide before the writer is sized: a foreign-key join's two topics go each
        // way between two sub-topologies, so each writer's size waits for the other's topic.
        int fixed = fixedInputs(reader, partitions);
        if (fixed > 0) {
            return fixed;
        }
        // Else the reader's other repartition topics decide; those without event time (a
        // foreign-key join's) follow the reader's size rather than decide it, for the same reason.
        int repartitioned = 0;
        for (NodeSpec.Source s : reader.sources()) {
            if (s.pattern() != null || !s.eventTime()) {
                continue;
            }
            for (String t : s.topics()) {
                if (s.internal() && writers.containsKey(t)) {
                    Integer n = tasks.get(writers.get(t).id());
                    if (n == null) {
                        return null;
                    }
                    repartitioned = Math.max(repartitioned, n);
                }
            }
        }
        boolean follows = reader.sources().stream().anyMatch(s -> s.reads(topic) && !s.eventTime());
        if (follows && repartitioned > 0) {
            return repartitioned;
        }
        return writerTasks == null ? null : Math.max(writerTasks, repartitioned);
    }

    /**
     * The largest partition count of the user's topics and the repartition topics of fixed count
     * {@code reader} reads; 0 when it reads none.
     */
    private static int fixedInputs(Subtopology reader, Map<String, Integer> partitions) {
        int fixed = 0;
        for (NodeSpec.Source s : reader.sources()) {
            if (s.pattern() == null && (!s.internal() || s.fixedPartitions())) {
                for (String t : s.topics()) {
                    fixed = Math.max(fixed, partitions.getOrDefault(t, 0));
                }
            }
        }
        return fixed;
    }

    /** The largest partition count of the sub-topology's inputs; null while one is unknown. */
    private static Integer sizeOf(Subtopology st, Map<String, Integer> partitions) {
        int max = 0;
        for (NodeSpec.Source s : st.sources()) {
            if (s.pattern() != null) {
                for (Map.Entry<String, Integer> e : partitions.entrySet()) {
                    if (s.pattern().matcher(e.getKey()).matches()) {
                        max = Math.max(max, e.getValue());
                    }
                }
                continue;
            }
            for (String t : s.topics()) {
                Integer c = partitions.get(t);
                if (c == null) {
                    return null;
                }
                max = Math.max(max, c);
            }
        }
        return max;
    }

    /** Tasks of a sub-topology; 0 if none of its inputs exists (a pattern matching no topic). */
    int tasksOf(int subtopology) {
        return tasks.getOrDefault(subtopology, 0);
    }
}
