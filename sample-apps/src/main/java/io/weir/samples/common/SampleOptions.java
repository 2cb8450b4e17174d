package io.weir.samples.common;

import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The options every window sample shares, as a picocli mixin ({@code @Mixin SampleOptions options}):
 * where Kafka is, how many partitions new topics get, where state goes and how long to wait. Topic
 * names and the application id stay with each sample, whose defaults differ.
 */
public final class SampleOptions {

    @Option(
            names = "--bootstrap-servers",
            defaultValue = "${env:WEIR_BOOTSTRAP_SERVERS}",
            description = "Kafka cluster to use instead of an in-process broker (default: env WEIR_BOOTSTRAP_SERVERS).")
    public String bootstrapServers;

    @Option(
            names = "--partitions",
            defaultValue = "4",
            description = "Partitions of the topics when they are created (default: ${DEFAULT-VALUE}).")
    public int partitions;

    @Option(names = "--state-dir", description = "State directory to keep (default: a temporary one, deleted on exit).")
    public Path stateDir;

    @Option(
            names = "--timeout",
            defaultValue = "120",
            description = "Seconds to wait for the expected results (default: ${DEFAULT-VALUE}).")
    public long timeoutSeconds;

    public Duration timeout() {
        return Duration.ofSeconds(timeoutSeconds);
    }
}
