package io.weir;

import io.weir.internal.runtime.TopicSetup;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;

/**
 * The topics an application creates for itself (repartition and changelog topics, the dead-letter,
 * late-records and liveness topics), planned exactly as the application plans them at start: the
 * same names, partition counts (from its input topics on the cluster), replication and configs.
 * With it, operators create them ahead of the first start ({@code weir topics plan|create}), so the
 * application needs no permission to create topics at run time. One mechanism: the application's
 * start-up calls the same code.
 */
public final class InternalTopics {

    private InternalTopics() {
    }

    /** What an internal topic is for. */
    public enum Kind {
        /** {@code <app>-<node>-repartition}: records re-keyed before a stateful step. */
        REPARTITION,
        /** {@code <app>-<store>-changelog}: a store's compacted log; partition p belongs to task p. */
        CHANGELOG,
        /** Records that failed deserialization or processing. */
        DEAD_LETTER,
        /** Records too late for their window ({@code late.records.to.topic}). */
        LATE_RECORDS,
        /** Heartbeats of the instances ({@code failure.detection.ms}). */
        LIVENESS,
        /** The topology the instances last started with, for the compatibility check. */
        TOPOLOGY,
        /** Savepoint requests and progress. */
        CONTROL,
        /** Savepoints: manifests and data. */
        SAVEPOINTS
    }

    /**
     * One internal topic as the application would create it.
     *
     * @param replication empty: the broker's {@code default.replication.factor}
     * @param configs     topic configs set at creation (for example {@code cleanup.policy})
     */
    public record Topic(String name, Kind kind, int partitions, Optional<Short> replication,
                        Map<String, String> configs) {

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
    public record Report(List<Topic> created, List<Topic> existing, List<String> problems) {
    }

    /**
     * The internal topics {@code topology} needs as application {@code config.applicationId()}
     * on the cluster {@code admin} talks to.
     *
     * @throws IllegalStateException if an input topic is missing, the cluster cannot be reached, or
     *     the inputs of a stateful sub-topology are not co-partitioned
     */
    public static List<Topic> plan(Topology topology, WeirConfig config, Admin admin) {
        return setup(topology, config, admin).plan();
    }

    /**
     * Creates the planned topics that are missing; checks the others as the application does at
     * start, reporting what differs instead of failing.
     */
    public static Report create(Topology topology, WeirConfig config, Admin admin) {
        return setup(topology, config, admin).createMissing();
    }

    private static TopicSetup setup(Topology topology, WeirConfig config, Admin admin) {
        return new TopicSetup(admin, config, topology.model().resolve(config.applicationId()));
    }
}
