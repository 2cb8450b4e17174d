package io.weir.internal.cluster.topics;

import io.weir.config.WeirConfig;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.topology.TopologyModel;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;

/**
 * The topics an application creates for itself (repartition and changelog topics, the dead-letter,
 * late-records, liveness, topology, control and savepoints topics), planned exactly as the
 * application plans them at start: the same names, partition counts (from its input topics on the
 * cluster), replication and configs. With it, operators create them ahead of the first start
 * ({@code weir topics plan|create}), so the application needs no permission to create topics at
 * run time. One mechanism: the application's start-up calls the same {@link TopicSetup}.
 */
public final class InternalTopics {

    private InternalTopics() {}

    /**
     * One internal topic as the application would create it.
     *
     * @param replication empty: the broker's {@code default.replication.factor}
     * @param configs     topic configs set at creation (for example {@code cleanup.policy})
     */
    public record Topic(
            String name, InternalTopic kind, int partitions, Optional<Short> replication, Map<String, String> configs) {

        public Topic {
            configs = Map.copyOf(configs);
        }
    }

    /**
     * What {@link #create} found and did.
     *
     * @param created  topics created now
     * @param existing topics that were there already
     * @param problems existing topics that differ from the plan in a way the application refuses
     *                 to run with (partition count, a changelog that is not compacted), one
     *                 message each
     */
    public record Report(List<Topic> created, List<Topic> existing, List<String> problems) {}

    /**
     * The internal topics {@code model} (resolved for {@code config.applicationId()}) needs on the
     * cluster {@code admin} talks to.
     *
     * @throws io.weir.errors.ClusterException if an input topic is missing or the cluster cannot be reached
     * @throws io.weir.errors.TopologyException if the inputs of a stateful sub-topology are not co-partitioned
     */
    public static List<Topic> plan(TopologyModel model, WeirConfig config, Admin admin) {
        return new TopicSetup(admin, config, model).plan();
    }

    /**
     * Creates the planned topics that are missing; checks the others as the application does at
     * start, reporting what differs instead of failing.
     */
    public static Report create(TopologyModel model, WeirConfig config, Admin admin) {
        return new TopicSetup(admin, config, model).createMissing();
    }
}
