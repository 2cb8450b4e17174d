package io.weir.internal.savepoint;

import io.weir.internal.topology.NodeSpec;
import io.weir.internal.topology.Subtopology;
import io.weir.internal.topology.TopologyModel;
import io.weir.processor.TaskId;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which tasks of an application may stop for a savepoint's cut, and when the cut is complete.
 *
 * <p>A savepoint must hold no record in flight in a repartition topic: one written before the cut
 * by an upstream task but not yet read by its downstream task would be lost when the savepoint is
 * restored into a new application (whose repartition topics are new), and doubled when it is
 * restored into the same one (the upstream task replays from its cut offsets and writes it again).
 * So the cut drains rather than copies them: a task reading only the application's input topics
 * stops at its next commit; a task reading a repartition topic stops once every task of every
 * sub-topology writing that topic has stopped (nothing more will be written) and it has read and
 * committed the topic up to its end. Draining costs the time downstream tasks need to catch up,
 * usually well under a second, and keeps the savepoint to stores and offsets only.
 *
 * <p>Thread-safe: the control thread records pauses, stream threads ask.
 */
public final class SavepointCut {

    private final Map<Integer, Set<Integer>> upstream;
    private final Map<Integer, Integer> tasksPerSubtopology;
    private final int taskCount;
    private final Set<TaskId> paused = new HashSet<>();

    SavepointCut(Map<Integer, Set<Integer>> upstream, Map<Integer, Integer> tasksPerSubtopology) {
        this.upstream = upstream;
        this.tasksPerSubtopology = Map.copyOf(tasksPerSubtopology);
        this.taskCount = tasksPerSubtopology.values().stream()
                .mapToInt(Integer::intValue)
                .sum();
    }

    /**
     * The cut of {@code model} (resolved for its application id) with these task counts per
     * sub-topology.
     */
    public static SavepointCut of(TopologyModel model, Map<Integer, Integer> tasksPerSubtopology) {
        Map<String, Integer> writerOf = new HashMap<>();
        for (Subtopology st : model.subtopologies()) {
            for (String name : st.nodeNames()) {
                if (model.nodes().get(name) instanceof NodeSpec.Sink s && s.internal()) {
                    writerOf.put(s.topic(), st.id());
                }
            }
        }
        Map<Integer, Set<Integer>> upstream = new HashMap<>();
        for (Subtopology st : model.subtopologies()) {
            Set<Integer> writers = new HashSet<>();
            for (NodeSpec.Source s : st.sources()) {
                for (String t : s.topics()) {
                    Integer w = writerOf.get(t);
                    if (w != null && w != st.id()) {
                        writers.add(w);
                    }
                }
            }
            upstream.put(st.id(), Set.copyOf(writers));
        }
        return new SavepointCut(upstream, tasksPerSubtopology);
    }

    /** Every task of the application. */
    public int taskCount() {
        return taskCount;
    }

    /** True if the task's sub-topology reads a repartition topic, so it must drain it first. */
    public boolean drains(TaskId task) {
        return !upstream.getOrDefault(task.subtopology(), Set.of()).isEmpty();
    }

    /** True once every task that writes into {@code task}'s repartition inputs has paused. */
    public synchronized boolean upstreamPaused(TaskId task) {
        for (int st : upstream.getOrDefault(task.subtopology(), Set.of())) {
            int count = tasksPerSubtopology.getOrDefault(st, 0);
            for (int p = 0; p < count; p++) {
                if (!paused.contains(new TaskId(st, p))) {
                    return false;
                }
            }
        }
        return true;
    }

    public synchronized void paused(TaskId task) {
        paused.add(task);
    }

    public synchronized boolean isPaused(TaskId task) {
        return paused.contains(task);
    }

    public synchronized int pausedCount() {
        return paused.size();
    }

    /** Every task of the application has paused: the cut is taken. */
    public synchronized boolean complete() {
        return paused.size() >= taskCount;
    }
}
