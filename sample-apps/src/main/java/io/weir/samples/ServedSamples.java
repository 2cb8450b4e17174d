package io.weir.samples;

import io.weir.samples.alerts.TemperatureAlertsService;
import io.weir.samples.common.ServedSample;
import io.weir.samples.fraud.FraudDetectionService;
import io.weir.samples.pricing.OrderPricingService;
import io.weir.samples.wordcount.WordCountService;
import io.weir.samples.ysb.YsbService;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;

/** The samples that {@code serve} and {@code load} run, by name. */
final class ServedSamples {

    private ServedSamples() {}

    /** Every served sample, in the order the help lists them. */
    static Map<String, ServedSample> all() {
        Map<String, ServedSample> samples = new LinkedHashMap<>();
        for (ServedSample s : new ServedSample[] {
            WordCountService.sample(),
            TemperatureAlertsService.sample(),
            YsbService.sample(),
            FraudDetectionService.sample(),
            OrderPricingService.sample()
        }) {
            samples.put(s.name(), s);
        }
        return samples;
    }

    /**
     * The sample called {@code name}.
     *
     * @throws CommandLine.ParameterException (a usage error, exit code 2) naming the samples there are
     */
    static ServedSample named(CommandLine cmd, String name) {
        ServedSample sample = all().get(name);
        if (sample == null) {
            throw new CommandLine.ParameterException(
                    cmd,
                    "unknown sample '" + name + "' for " + cmd.getCommandName() + "; it runs "
                            + String.join(", ", all().keySet()));
        }
        return sample;
    }
}
