package io.weir.internal.topology;

import java.util.Objects;
import java.util.function.Function;

/**
 * The model behind a public {@code io.weir.Topology}, for Weir's own tools (the {@code weir}
 * command builds a user's topology and plans its topics, describes or restores it) without making
 * the model public API. The public class registers the accessor when it is initialised, which
 * happens before any instance exists; it is typed {@code Object} here so that this room does not
 * depend on the public entry package above it. The one way internals reach behind a public type:
 * store builders need none, since their public accessors say everything a {@link StoreSpec} holds.
 */
public final class TopologyAccess {

    private static volatile Function<Object, TopologyModel> models;

    private TopologyAccess() {}

    /** Called once, by {@code io.weir.Topology}. */
    public static void register(Function<Object, TopologyModel> accessor) {
        models = Objects.requireNonNull(accessor, "accessor");
    }

    /**
     * The model of {@code topology} resolved for application {@code applicationId} (its
     * repartition topics named), as a running instance of that application would execute it.
     *
     * @throws IllegalArgumentException if {@code topology} is not an {@code io.weir.Topology}
     */
    public static TopologyModel model(Object topology, String applicationId) {
        Objects.requireNonNull(topology, "topology");
        return models.apply(topology).resolve(applicationId);
    }
}
