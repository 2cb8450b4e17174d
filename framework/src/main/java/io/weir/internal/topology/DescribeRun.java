package io.weir.internal.topology;

import io.weir.config.WeirConfig;
import io.weir.errors.ConfigException;
import io.weir.internal.config.WeirVersion;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code run.mode=describe}: what starting an application does instead of running it. It writes
 * the application's {@link TopologyDescription}, built from the same topology and settings the
 * application would run with, to {@code describe.file} or to stdout, and touches nothing else:
 * no Kafka client, no state directory, no HTTP port. This is how a deployment (the Helm chart's
 * pre-upgrade hook) learns the topology of a new version from its image alone, for
 * {@code weir topology diff --topology-file} and {@code weir upgrade}.
 *
 * <p>The description is the one the CLI builds from a topology class ({@code --topology}): tables
 * read from a topic are described as using that topic as their changelog, since deciding that needs
 * the cluster ({@code SourceChangelogs}); {@link TopologyDiff} compares either form with a record.
 */
public final class DescribeRun {

    private static final Logger log = LoggerFactory.getLogger(DescribeRun.class);

    private DescribeRun() {}

    /**
     * Writes the description of {@code model} (resolved for the application) where the settings say.
     * A file is written beside itself and moved into place, so a reader never sees half of it.
     *
     * @throws ConfigException naming {@code describe.file} when it cannot be written
     */
    public static void write(TopologyModel model, WeirConfig config, PrintStream stdout) {
        String json = TopologyDescription.of(model, config.applicationId(), WeirVersion.current())
                .toJson();
        if (config.describeFile().isEmpty()) {
            stdout.println(json);
            stdout.flush();
            return;
        }
        Path file = config.describeFile().get().toAbsolutePath();
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, json + System.lineSeparator(), StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            throw new ConfigException("describe.file", "cannot write the topology description to " + file + ": " + e);
        }
        log.info(
                "{}: run.mode=describe: wrote the topology description to {}; not starting",
                config.applicationId(),
                file);
    }
}
