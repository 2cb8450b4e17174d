package io.weir;

import io.weir.internal.topology.TopologyModel;
import java.util.Set;

/**
 * A finished topology: what to read, how to process it, where to write. Immutable and reusable:
 * the same topology can run in any number of applications and tests. Built by
 * {@link TopologyBuilder#build()}.
 */
public final class Topology {

    static {
        io.weir.internal.topology.TopologyAccess.register(Topology::model);
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

    /** For the runtime: the plain description it executes. */
    TopologyModel model() {
        return model;
    }

    @Override
    public String toString() {
        return describe();
    }
}
