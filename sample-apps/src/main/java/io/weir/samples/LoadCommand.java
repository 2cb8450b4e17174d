package io.weir.samples;

import io.weir.samples.common.SampleLoad;
import io.weir.samples.common.ServedSample;
import io.weir.samples.common.ShutdownSignal;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code load <sample>}: feeds the sample's input topic at a steady rate until SIGTERM or the end
 * of {@code --duration}; the load generator beside served instances. See {@link SampleLoad}.
 */
@Command(
        name = "load",
        mixinStandardHelpOptions = true,
        version = "Weir sample 0.1.0",
        sortOptions = false,
        usageHelpAutoWidth = true,
        description =
                "Feeds a sample's input topic at a steady rate until SIGTERM (or --duration). The topic must exist.",
        footer =
                "Samples: word-count (lines of text to 'lines'), temperature-alerts (readings to 'readings'), ysb"
                        + " (campaigns to 'ad-campaigns' first, then ad events to 'ad-events'), fraud-detection (card holders"
                        + " to 'card-holders' first, then payments to 'card-transactions'), order-pricing (orders to 'orders').")
final class LoadCommand implements Callable<Integer> {

    /** Long enough to flush and close the producer after SIGTERM. */
    private static final Duration GRACE = Duration.ofSeconds(20);

    @Mixin
    ChosenSample chosen;

    @Option(names = "--rate", defaultValue = "50", description = "Records per second (default: ${DEFAULT-VALUE}).")
    int rate;

    @Option(
            names = "--duration",
            paramLabel = "SECONDS",
            description = "Stop after this many seconds (default: until SIGTERM).")
    Long durationSeconds;

    @Option(
            names = "--bootstrap-servers",
            defaultValue = "${env:WEIR_BOOTSTRAP_SERVERS}",
            description = "Kafka cluster (default: env WEIR_BOOTSTRAP_SERVERS; required).")
    String bootstrapServers;

    @Override
    public Integer call() {
        CommandLine cmd = chosen.commandLine();
        ServedSample sample = chosen.sample();
        if (rate < 1 || (durationSeconds != null && durationSeconds < 1)) {
            throw new CommandLine.ParameterException(cmd, "--rate and --duration must be at least 1");
        }
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            throw new CommandLine.ParameterException(
                    cmd, "no Kafka cluster: set WEIR_BOOTSTRAP_SERVERS or --bootstrap-servers");
        }
        SampleLoad.Options options = new SampleLoad.Options(
                bootstrapServers,
                chosen.inputTopic(sample),
                rate,
                durationSeconds == null ? null : Duration.ofSeconds(durationSeconds));
        // The hook waits for the producer to flush, so SIGTERM loses no record already handed to it.
        try (ShutdownSignal signal = ShutdownSignal.install(GRACE)) {
            long sent = SampleLoad.run(sample, options, signal);
            System.out.println("LOAD " + sample.name() + " sent " + sent + " records to '" + options.topic() + "'");
        }
        return 0;
    }
}
