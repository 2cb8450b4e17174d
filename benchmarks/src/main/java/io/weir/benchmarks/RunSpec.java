package io.weir.benchmarks;

import java.nio.file.Path;

/**
 * What one run of a system under test needs: which topology to run ({@link Scenario#kind()}),
 * where to read and write, the consumer group (or application id) to commit under, the guarantee,
 * and a fresh directory for local state.
 */
public record RunSpec(
        Scenario scenario,
        String bootstrapServers,
        String inputTopic,
        String outputTopic,
        String applicationId,
        Guarantee guarantee,
        Path stateDir) {}
