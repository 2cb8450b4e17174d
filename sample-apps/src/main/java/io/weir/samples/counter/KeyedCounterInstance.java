package io.weir.samples.counter;

import io.weir.WeirApp;
import io.weir.samples.common.SampleConfigs;
import io.weir.samples.common.SampleMain;
import io.weir.testkit.ChildJvm;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * One instance of the {@link KeyedCounter} application, as a process of its own: starts it with
 * exactly-once processing, prints {@value #STARTED}, and runs until SIGTERM/SIGINT (a graceful
 * stop) or until it is killed. {@link KeyedCounterApp} runs it twice, SIGKILLing the first.
 */
@Command(
        name = "keyed-counter-instance",
        mixinStandardHelpOptions = true,
        version = "Weir sample 0.1.0",
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = "Runs one instance of the keyed counter until SIGTERM.")
public final class KeyedCounterInstance implements Callable<Integer> {

    /** Printed to stdout once the application has started. */
    public static final String STARTED = "keyed-counter instance started";

    @Option(names = "--bootstrap-servers", required = true, description = "Kafka cluster.")
    String bootstrapServers;

    @Option(
            names = "--application-id",
            defaultValue = "keyed-counter",
            description = "Consumer group and prefix of the internal topics (default: ${DEFAULT-VALUE}).")
    String applicationId;

    @Option(
            names = "--input-topic",
            defaultValue = "increments",
            description = "Topic of increments (default: ${DEFAULT-VALUE}).")
    String inputTopic;

    @Option(
            names = "--output-topic",
            defaultValue = "running-sums",
            description = "Topic of running sums (default: ${DEFAULT-VALUE}).")
    String outputTopic;

    @Option(
            names = "--state-dir",
            required = true,
            description = "State directory; a restart on the same one is" + " the same instance.")
    Path stateDir;

    public static void main(String[] args) {
        SampleMain.exit(new KeyedCounterInstance(), args);
    }

    /**
     * Starts instance {@code n} as a child process ({@code -Xmx256m}) on the state directory
     * {@code dir/state}, its output to {@code dir/instance-<n>.log}: the same state directory
     * each time, so a restart is the same instance.
     */
    static ChildJvm startChild(
            String bootstrapServers, String applicationId, String inputTopic, String outputTopic, Path dir, int n) {
        return ChildJvm.builder(KeyedCounterInstance.class)
                .args(
                        "--bootstrap-servers",
                        bootstrapServers,
                        "--application-id",
                        applicationId,
                        "--input-topic",
                        inputTopic,
                        "--output-topic",
                        outputTopic,
                        "--state-dir",
                        dir.resolve("state").toString())
                .jvmOptions("-Xmx256m")
                .outputFile(dir.resolve("instance-" + n + ".log"))
                .start();
    }

    @Override
    public Integer call() throws InterruptedException {
        WeirApp app = WeirApp.create(
                        KeyedCounter.topology(inputTopic, outputTopic),
                        SampleConfigs.exactlyOnce(applicationId, bootstrapServers, stateDir)
                                .build())
                .start();
        System.out.println(STARTED + " (instance id " + app.instanceId().orElseThrow() + ", pid "
                + ProcessHandle.current().pid() + ")");
        app.runUntilShutdown();
        return 0;
    }
}
