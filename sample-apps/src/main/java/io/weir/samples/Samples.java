package io.weir.samples;

import io.weir.samples.alerts.TemperatureAlertsApp;
import io.weir.samples.common.SampleMain;
import io.weir.samples.counter.KeyedCounterApp;
import io.weir.samples.fraud.FraudDetectionApp;
import io.weir.samples.hourly.HourlyCountsApp;
import io.weir.samples.pricing.OrderPricingApp;
import io.weir.samples.sensors.SensorSumsApp;
import io.weir.samples.sessions.ClickSessionsApp;
import io.weir.samples.wordcount.WordCountApp;
import io.weir.samples.ysb.YsbApp;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * One entry point for every sample: {@code weir-samples <sample> [options]}, and for the
 * long-running modes {@code weir-samples serve <sample>} and {@code weir-samples load <sample>}.
 * The {@code run} profile of this module calls it with {@code -Dsample=<name>} (default
 * {@code temperature-alerts}) and {@code -Dargs="<options>"}; the container image calls it with
 * the container's arguments, or without any, with those the variable {@code SAMPLE} holds.
 */
@Command(
        name = "weir-samples",
        mixinStandardHelpOptions = true,
        version = "Weir sample 0.1.0",
        usageHelpAutoWidth = true,
        description = {
            "Runs a Weir sample application on an in-process broker (or --bootstrap-servers),",
            "or serves one (serve <sample>) or feeds one (load <sample>) on an existing cluster."
        },
        subcommands = {
            TemperatureAlertsApp.class,
            WordCountApp.class,
            KeyedCounterApp.class,
            SensorSumsApp.class,
            ClickSessionsApp.class,
            HourlyCountsApp.class,
            YsbApp.class,
            FraudDetectionApp.class,
            OrderPricingApp.class,
            ServeCommand.class,
            LoadCommand.class
        })
public final class Samples implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    /** The long-running modes, which run a sample rather than being one. */
    private static final Set<String> MODES = Set.of("serve", "load");

    /**
     * Runs the sample (or mode) the arguments name; without arguments, the words of the variable
     * {@code SAMPLE} (the image sets {@code temperature-alerts}), so an orchestrator can choose the
     * sample by environment alone.
     */
    public static void main(String[] args) {
        SampleMain.exit(new Samples(), SampleMain.argsOrEnvironment(args, System.getenv("SAMPLE")));
    }

    /** No sample named: list them. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    /** The names of the samples, as given on the command line (without the modes serve and load). */
    public static Set<String> names() {
        Set<String> names =
                new TreeSet<>(new CommandLine(new Samples()).getSubcommands().keySet());
        names.removeAll(MODES);
        return names;
    }
}
