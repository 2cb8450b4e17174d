package io.weir.samples;

import io.weir.samples.common.ServedSample;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The sample that {@code serve} and {@code load} work on, as a picocli mixin: the {@code <sample>}
 * argument and the {@code --input-topic} that overrides the sample's own.
 */
final class ChosenSample {

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Parameters(
            index = "0",
            paramLabel = "<sample>",
            description = "word-count, temperature-alerts, ysb, fraud-detection or order-pricing")
    String name;

    @Option(names = "--input-topic", paramLabel = "TOPIC", description = "Input topic (default: the sample's).")
    String inputTopic;

    /** The command line, for errors about its arguments. */
    CommandLine commandLine() {
        return command.commandLine();
    }

    /** The sample named, or a parameter error listing the samples. */
    ServedSample sample() {
        return ServedSamples.named(commandLine(), name);
    }

    /** {@code --input-topic}, or {@code sample}'s own. */
    String inputTopic(ServedSample sample) {
        return inputTopic != null ? inputTopic : sample.inputTopic();
    }
}
