package io.weir.internal.thread;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.weir.config.WeirConfig;
import io.weir.internal.cluster.ClientConfigs;
import io.weir.internal.cluster.topics.RepartitionPurge;
import io.weir.internal.savepoint.SavepointControl;
import io.weir.internal.state.ChangelogTopicIds;
import io.weir.internal.state.LocalStores;
import io.weir.internal.state.thread.InstanceTaskRegistry;
import io.weir.internal.task.Backlog;
import io.weir.internal.task.InstanceCalls;
import io.weir.internal.task.TaskEnvironment;
import io.weir.internal.task.TopicLimits;
import io.weir.internal.topology.TopologyModel;
import io.weir.state.rocksdb.RocksDbResources;
import java.nio.file.Path;

/**
 * What every stream thread of an instance shares.
 *
 * @param instanceId  the stable id of the instance
 * @param wallClock   the processing clock (milliseconds since the epoch) for timers, idleness and
 *                    wall-clock timestamps; the system clock, or a test driver's
 * @param backlog     the records the instance's threads have still to process, each reporting its own
 * @param shared      the instance's parts its threads use: stores, registries, the control topic's end
 */
public record ThreadContext(
        WeirConfig config,
        TopologyModel model,
        String instanceId,
        ClientConfigs clients,
        TopicLimits limits,
        java.util.function.LongSupplier wallClock,
        Backlog backlog,
        InstanceCalls calls,
        Shared shared) {

    /** The tags every meter of the instance carries: {@code application} and {@code instance}. */
    public Tags tags() {
        return Tags.of("application", config.applicationId(), "instance", instanceId);
    }

    /** What this instance's tasks are made from. */
    public TaskEnvironment taskEnvironment() {
        InstanceTaskRegistry taskRegistry = shared.taskRegistry();
        return new TaskEnvironment(
                config,
                model,
                shared.instanceDir(),
                shared.rocksDb(),
                taskRegistry == null ? ChangelogTopicIds.UNKNOWN : taskRegistry.changelogTopicIds(),
                wallClock,
                shared.globalStores(),
                backlog,
                calls,
                shared.tracing());
    }

    /**
     * The shared parts of an instance's threads.
     *
     * @param instanceDir the instance's directory; task stores live in {@code <instanceDir>/<task>/<store>}
     * @param rocksDb     the memory budget every RocksDB store of the instance draws from
     * @param localStores where tasks register their stores for reads from other threads
     * @param taskRegistry which tasks are active on the instance, where its local state stands, and
     *                    the state thread that restores and runs standbys; null in the test driver
     * @param savepoints  the instance's end of the control topic, through which its tasks take part in
     *                    savepoints; null in the test driver
     * @param purge       deletes what the tasks committed from repartition topics; null in the test driver
     * @param globalStores the read views of the global tables' stores by name
     * @param ownership   where the group's tasks run, as the latest assignment said, and this instance's
     *                    advertised endpoint, which its threads send the group leader
     * @param rejoins     rebalances other instances started, for the threads to join at once
     * @param tracing     the instance's tracing with OpenTelemetry ({@code Tracing.off()} in the test
     *                    driver unless it is given an OpenTelemetry)
     */
    public record Shared(
            MeterRegistry registry,
            Path instanceDir,
            RocksDbResources rocksDb,
            LocalStores localStores,
            InstanceTaskRegistry taskRegistry,
            SavepointControl savepoints,
            RepartitionPurge purge,
            java.util.Map<String, Object> globalStores,
            io.weir.internal.query.Ownership ownership,
            GroupRejoins rejoins,
            io.weir.internal.tracing.Tracing tracing) {}

    public static ThreadContext create(
            WeirConfig config,
            TopologyModel model,
            String instanceId,
            ClientConfigs clients,
            org.apache.kafka.clients.admin.Admin admin,
            Shared shared) {
        return new ThreadContext(
                config,
                model,
                instanceId,
                clients,
                new TopicLimits(admin, clients.maxRequestSize()),
                System::currentTimeMillis,
                new Backlog(),
                new InstanceCalls(),
                shared);
    }
}
