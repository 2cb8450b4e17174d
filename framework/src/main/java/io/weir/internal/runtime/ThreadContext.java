package io.weir.internal.runtime;

import io.micrometer.core.instrument.MeterRegistry;
import io.weir.WeirConfig;
import io.weir.internal.topology.TopologyModel;
import io.weir.state.rocksdb.RocksDbResources;
import java.nio.file.Path;

/**
 * What every stream thread of an instance shares.
 *
 * @param instanceDir the instance's directory; task stores live in {@code <instanceDir>/<task>/<store>}
 * @param rocksDb     the memory budget every RocksDB store of the instance draws from
 */
public record ThreadContext(WeirConfig config, TopologyModel model, ClientConfigs clients, TopicLimits limits,
                            MeterRegistry registry, Path instanceDir, RocksDbResources rocksDb) {

    public static ThreadContext create(WeirConfig config, TopologyModel model, ClientConfigs clients,
                                       org.apache.kafka.clients.admin.Admin admin, MeterRegistry registry,
                                       Path instanceDir, RocksDbResources rocksDb) {
        return new ThreadContext(config, model, clients, new TopicLimits(admin, clients.maxRequestSize()), registry,
                instanceDir, rocksDb);
    }
}
