package io.weir.samples.common;

import io.weir.config.WeirConfig;
import io.weir.testkit.KafkaExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs a sample in the samples' ITs, either as its command ({@link #run}: {@link SampleMain#execute}
 * with what every sample takes, {@link SampleOptions}, set for a test: the test's broker, an
 * application id of the test's own, a state directory the test keeps, and a time-out of
 * {@link #TIMEOUT_SECONDS} s; the test adds the sample's own options, its topics and sizes) or as
 * its topology alone ({@link #config}).
 */
public final class SampleCommand {

    /** The time-out each sample gets for its own check. */
    public static final int TIMEOUT_SECONDS = 90;

    private SampleCommand() {}

    /** The exit code of {@code sample} run with the common options above and then {@code sampleArgs}. */
    public static int run(
            Object sample, KafkaExtension kafka, String applicationId, Path stateDir, String... sampleArgs) {
        List<String> args = new ArrayList<>(List.of(
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--application-id",
                applicationId,
                "--state-dir",
                stateDir.toString(),
                "--timeout",
                Integer.toString(TIMEOUT_SECONDS)));
        args.addAll(List.of(sampleArgs));
        return SampleMain.execute(sample, args.toArray(String[]::new));
    }

    /**
     * The sample's exactly-once configuration ({@link SampleConfigs#exactlyOnce}) for a test: the
     * test's broker, an ephemeral HTTP port and no {@code WEIR_*} variable of the machine running
     * the tests.
     */
    public static WeirConfig config(KafkaExtension kafka, String applicationId, Path stateDir) {
        return SampleConfigs.exactlyOnce(applicationId, kafka.bootstrapServers(), stateDir)
                .set("http.port", 0)
                .environment(Map.of())
                .build();
    }
}
