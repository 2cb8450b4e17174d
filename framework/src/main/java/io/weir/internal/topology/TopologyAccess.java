package io.weir.internal.topology;

import io.weir.Topology;
import java.util.Objects;
import java.util.function.Function;

/**
 * The model behind a public {@link Topology}, for Weir's own tools (the {@code weir} command
 * builds a user's topology and describes it) without making {@code Topology.model()} public API.
 * {@link Topology} registers the accessor when its class is initialised, which happens before any
 * instance exists.
 */
public final class TopologyAccess {

    private static volatile Function<Topology, TopologyModel> models;

    private TopologyAccess() {
    }

    /** Called once, by {@link Topology}. */
    public static void register(Function<Topology, TopologyModel> accessor) {
        models = Objects.requireNonNull(accessor, "accessor");
    }

    /** The model of {@code topology}, not yet resolved for an application id. */
    public static TopologyModel model(Topology topology) {
        Objects.requireNonNull(topology, "topology");
        return models.apply(topology);
    }
}
