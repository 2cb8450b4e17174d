package io.weir.benchmarks;

import java.nio.file.Path;

/**
 * What one run of a system under test needs: where to read and write, the consumer group (or
 * application id) to commit under, the guarantee, and a fresh directory for local state.
 */
record RunSpec(String bootstrapServers, String inputTopic, String outputTopic, String applicationId,
        Guarantee guarantee, Path stateDir) {
}
