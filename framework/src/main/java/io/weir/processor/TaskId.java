package io.weir.processor;

/**
 * A task: one partition number of one sub-topology. Task {@code 1_3} reads partition 3 of every
 * input topic of sub-topology 1.
 */
public record TaskId(int subtopology, int partition) implements Comparable<TaskId> {

    /** Parses {@code "1_3"}. */
    public static TaskId parse(String s) {
        int i = s.indexOf('_');
        if (i <= 0) {
            throw new IllegalArgumentException("not a task id: " + s);
        }
        return new TaskId(Integer.parseInt(s.substring(0, i)), Integer.parseInt(s.substring(i + 1)));
    }

    @Override
    public int compareTo(TaskId o) {
        int c = Integer.compare(subtopology, o.subtopology);
        return c != 0 ? c : Integer.compare(partition, o.partition);
    }

    @Override
    public String toString() {
        return subtopology + "_" + partition;
    }
}
