package io.weir.testdriver.internal;

import io.opentelemetry.api.OpenTelemetry;
import io.weir.Topology;
import io.weir.config.WeirConfig;
import io.weir.errors.ConfigException;
import io.weir.internal.topology.TopologyAccess;
import io.weir.internal.topology.TopologyModel;
import io.weir.internal.tracing.Tracing;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a {@link DriverRuntime} runs and how.
 *
 * @param model            the topology resolved for {@code config}'s application id
 * @param partitions       partitions of topics the caller declared; other inputs and outputs have 1
 * @param startWallClockMs the wall clock at start, epoch milliseconds
 * @param storesInMemory   every store in memory; else RocksDB in a temporary directory
 * @param commitEvery      pipes between two commits
 * @param awaitCalls       true: a pipe returns once the asynchronous calls it caused finished and
 *                         were applied; false: calls finish when the test completes them, and are
 *                         applied at the next pipe or commit
 * @param tracing          tracing as in production when the test gives an OpenTelemetry; else off
 */
public record DriverSetup(
        WeirConfig config,
        TopologyModel model,
        Map<String, Integer> partitions,
        long startWallClockMs,
        boolean storesInMemory,
        int commitEvery,
        boolean awaitCalls,
        Tracing tracing) {

    /**
     * Resolves {@code settings} (the environment ignored) and the topology's model for them.
     *
     * @throws ConfigException if a setting is invalid
     */
    public static DriverSetup of(
            Topology topology,
            WeirConfig.Builder settings,
            Map<String, Integer> partitions,
            long startWallClockMs,
            boolean storesInMemory,
            int commitEvery,
            boolean awaitCalls,
            OpenTelemetry openTelemetry) {
        WeirConfig config = settings.environment(Map.of()).build();
        // The driver has no topic configs: a table read from a topic keeps a changelog of its
        // own there, as with a source topic that is not compacted.
        TopologyModel model =
                TopologyAccess.model(topology, config.applicationId()).withStores(s -> s.withSourceTopic(null));
        Map<String, Integer> declared = Collections.unmodifiableMap(new LinkedHashMap<>(partitions));
        return new DriverSetup(
                config,
                model,
                declared,
                startWallClockMs,
                storesInMemory,
                commitEvery,
                awaitCalls,
                Tracing.of(
                        openTelemetry, config.tracingStepSpans(), config.tracingRootRatio(), config.applicationId()));
    }
}
