package io.weir.samples;

import io.weir.samples.common.SampleService;
import io.weir.samples.common.ServedSample;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code serve <sample>}: runs only the sample's topology as a long-running service (containers,
 * docker compose, Kubernetes). See {@link SampleService}.
 */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        version = "Weir sample 0.1.0",
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "Runs a sample's topology as a service until SIGTERM: no broker of its own, no input, no check.",
            "Settings from WEIR_* variables (WEIR_BOOTSTRAP_SERVERS is required, WEIR_INSTANCE_ID,"
                    + " WEIR_STATE_DIR, WEIR_HTTP_PORT, ...) and --config FILE. The topics must exist."
        },
        footer = "Samples: word-count (lines -> word-counts), temperature-alerts (readings -> alerts), ysb (ad-events"
                + " and ad-campaigns -> campaign-window-counts), fraud-detection (card-transactions and card-holders ->"
                + " fraud-alerts), order-pricing (orders -> customer-spend; prices from PRICING_SERVICE_URL, or a service"
                + " in the process).")
final class ServeCommand implements Callable<Integer> {

    @Mixin
    ChosenSample chosen;

    @Option(names = "--output-topic", paramLabel = "TOPIC", description = "Topic to write (default: the sample's).")
    String outputTopic;

    @Option(
            names = "--variant",
            paramLabel = "NAME",
            defaultValue = ServedSample.DEFAULT_VARIANT,
            description = "Version of the sample's topology (default: ${DEFAULT-VALUE}); word-count has v2, a changed"
                    + " version to try beside production from a savepoint.")
    String variant;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "Properties file of Weir and Kafka settings (default: env WEIR_CONFIG_FILE); WEIR_* win.")
    Path configFile;

    @Override
    public Integer call() throws InterruptedException {
        ServedSample sample = chosen.sample();
        if (!sample.variants().containsKey(variant)) {
            throw new CommandLine.ParameterException(
                    chosen.commandLine(),
                    "unknown --variant '" + variant + "' of " + sample.name() + "; it has "
                            + String.join(", ", sample.variants().keySet()));
        }
        SampleService.run(
                sample,
                variant,
                chosen.inputTopic(sample),
                outputTopic != null ? outputTopic : sample.outputTopic(),
                SampleService.config(sample, configFile, System.getenv()));
        return 0;
    }
}
