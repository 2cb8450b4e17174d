package io.weir;

import io.weir.internal.topology.TopologyAccess;
import io.weir.internal.topology.TopologyModel;
import java.util.Set;

/**
 * A finished topology: what to read, how to process it, where to write. Immutable and reusable:
 * the same topology can run in any number of applications and tests. Built by
 * {@link TopologyBuilder#build()}.
 */
public final class Topology {

    static {
        TopologyAccess.register(t -> {
            if (t instanceof Topology topology) {
                return topology.model;
            }
            throw new IllegalArgumentException("not a topology: " + t.getClass().getName());
        });
    }

    private final TopologyModel model;

    Topology(TopologyModel model) {
        this.model = model;
    }

    /** The fixed input topics (pattern sources are resolved at run time). */
    public Set<String> sourceTopics() {
        return model.sourceTopics();
    }

    /** The fixed output topics. */
    public Set<String> sinkTopics() {
        return model.sinkTopics();
    }

    /** Sub-topologies, nodes and edges, one per line. */
    public String describe() {
        return model.describe();
    }

    /**
     * The id of the sub-topology that reads {@code topic} (an input, or a repartition topic of
     * application {@code applicationId}): partition p of the topic belongs to task
     * {@code <id>_<p>}. Empty if no source reads it.
     */
    public java.util.OptionalInt subtopologyReading(String applicationId, String topic) {
        var st = model.resolve(applicationId).subtopologyFor(topic);
        return st == null ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(st.id());
    }

    /** For the runtime: the plain description it executes. */
    TopologyModel model() {
        return model;
    }

    @Override
    public String toString() {
        return describe();
    }
}
