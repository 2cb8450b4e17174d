package io.weir.samples;

import io.weir.samples.alerts.TemperatureAlertsApp;
import io.weir.samples.common.SampleMain;
import io.weir.samples.counter.KeyedCounterApp;
import io.weir.samples.sensors.SensorSumsApp;
import io.weir.samples.hourly.HourlyCountsApp;
import io.weir.samples.sessions.ClickSessionsApp;
import io.weir.samples.wordcount.WordCountApp;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * One entry point for every sample: {@code weir-samples <sample> [options]}. The {@code run}
 * profile of this module calls it with {@code -Dsample=<name>} (default
 * {@code temperature-alerts}) and {@code -Dargs="<options>"}.
 */
@Command(name = "weir-samples", mixinStandardHelpOptions = true, version = "Weir sample 0.1.0",
        usageHelpAutoWidth = true,
        description = "Runs a Weir sample application on an in-process broker (or --bootstrap-servers).",
        subcommands = {TemperatureAlertsApp.class, WordCountApp.class, KeyedCounterApp.class, SensorSumsApp.class,
                ClickSessionsApp.class, HourlyCountsApp.class})
public final class Samples implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        SampleMain.exit(new Samples(), args);
    }

    /** No sample named: list them. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    /** The names of the samples, as given on the command line. */
    public static Set<String> names() {
        return new CommandLine(new Samples()).getSubcommands().keySet();
    }
}
