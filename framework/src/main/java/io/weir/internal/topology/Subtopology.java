package io.weir.internal.topology;

import java.util.List;
import java.util.Set;

/**
 * A connected part of the topology: the nodes reachable from a set of sources. Each partition
 * number of its input topics is one task.
 */
public record Subtopology(int id, List<NodeSpec.Source> sources, Set<String> nodeNames) {

    /** True if one of this sub-topology's sources reads {@code topic}. */
    public boolean reads(String topic) {
        for (NodeSpec.Source s : sources) {
            if (s.reads(topic)) {
                return true;
            }
        }
        return false;
    }

    /** The source node that reads {@code topic}, or null. */
    public NodeSpec.Source sourceFor(String topic) {
        for (NodeSpec.Source s : sources) {
            if (s.reads(topic)) {
                return s;
            }
        }
        return null;
    }
}
