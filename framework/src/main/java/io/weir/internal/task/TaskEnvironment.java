package io.weir.internal.task;

import io.weir.config.WeirConfig;
import io.weir.internal.state.ChangelogTopicIds;
import io.weir.internal.topology.TopologyModel;
import io.weir.state.rocksdb.RocksDbResources;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * What the tasks of one instance are made from, whoever runs them (a stream thread, the test
 * driver).
 *
 * @param config            the application's settings
 * @param model             the topology, resolved for the application
 * @param instanceDir       where task stores live: {@code <instanceDir>/<task>/<store>}
 * @param rocksDb           the memory budget every RocksDB store of the instance draws from
 * @param changelogTopicIds the changelogs' topic ids as the instance found them at start, so a
 *                          store can tell a changelog recreated since it last followed it
 * @param wallClock         the processing clock (milliseconds since the epoch) for timers,
 *                          idleness and wall-clock timestamps
 * @param globalStores      the read views of the global tables' stores by name, shared by every task
 * @param backlog           how far behind its inputs the instance is, for the early-results trigger
 * @param calls             the calls in flight of each asynchronous step over the instance
 * @param tracing           the instance's tracing (off unless OpenTelemetry propagates)
 */
public record TaskEnvironment(
        WeirConfig config,
        TopologyModel model,
        Path instanceDir,
        RocksDbResources rocksDb,
        ChangelogTopicIds changelogTopicIds,
        LongSupplier wallClock,
        java.util.Map<String, Object> globalStores,
        Backlog backlog,
        InstanceCalls calls,
        io.weir.internal.tracing.Tracing tracing) {}
