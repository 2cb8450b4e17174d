package io.weir.internal.runtime;

import io.micrometer.core.instrument.MeterRegistry;
import io.weir.WeirConfig;
import io.weir.internal.topology.TopologyModel;

/** What every stream thread of an instance shares. */
public record ThreadContext(WeirConfig config, TopologyModel model, ClientConfigs clients, TopicLimits limits,
                            MeterRegistry registry) {

    public static ThreadContext create(WeirConfig config, TopologyModel model, ClientConfigs clients,
                                       org.apache.kafka.clients.admin.Admin admin, MeterRegistry registry) {
        return new ThreadContext(config, model, clients, new TopicLimits(admin, clients.maxRequestSize()), registry);
    }
}
