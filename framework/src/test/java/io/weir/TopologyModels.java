package io.weir;

import io.weir.internal.topology.TopologyModel;

/** For tests outside package {@code io.weir}: the model a {@link Topology} runs, resolved as an app resolves it. */
public final class TopologyModels {

    private TopologyModels() {}

    public static TopologyModel resolved(Topology topology, String applicationId) {
        return topology.model().resolve(applicationId);
    }
}
