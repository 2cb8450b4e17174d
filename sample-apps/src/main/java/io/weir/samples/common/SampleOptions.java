package io.weir.samples.common;

import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options every sample shares, as a picocli mixin ({@code @Mixin SampleOptions options}): where
 * Kafka is, how many partitions new topics get, the application id (by default the sample's
 * command name), where state goes and how long to wait. Topic names stay with each sample, whose
 * defaults differ.
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

    @Option(
            names = "--application-id",
            description = "Consumer group and prefix of the internal topics (default: the sample's name).")
    String applicationId;

    @Option(names = "--state-dir", description = "State directory to keep (default: a temporary one, deleted on exit).")
    public Path stateDir;

    @Option(
            names = "--timeout",
            defaultValue = "120",
            description = "Seconds to wait for the expected results (default: ${DEFAULT-VALUE}).")
    public long timeoutSeconds;

    /** The command this mixin is part of: its name is the default application id. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec sample;

    /** {@code --application-id}, or the sample's command name ({@code word-count}). */
    public String applicationId() {
        return applicationId != null ? applicationId : sample.name();
    }

    /** {@code --timeout}. */
    public Duration timeout() {
        return Duration.ofSeconds(timeoutSeconds);
    }

    /** What a sample does with Kafka at hand, until done or signalled; returns its exit code. */
    @FunctionalInterface
    public interface Body {
        int run(SampleKafka kafka, ShutdownSignal signal);
    }

    /**
     * Runs {@code body} with the cluster of {@code --bootstrap-servers} (or a broker of its own)
     * and a shutdown signal whose hook waits for {@code body}'s clean-up (twice
     * {@link RunningApp#SHUTDOWN_TIMEOUT}), so that Ctrl-C still stops the sample gracefully.
     */
    public int run(Body body) {
        try (ShutdownSignal signal = ShutdownSignal.install(RunningApp.SHUTDOWN_TIMEOUT.multipliedBy(2));
                SampleKafka kafka = SampleKafka.connect(bootstrapServers)) {
            return body.run(kafka, signal);
        }
    }
}
