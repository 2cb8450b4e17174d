package io.weir.cli;

import io.weir.common.internal.KafkaCalls;
import io.weir.config.WeirConfig;
import io.weir.errors.ClusterException;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.topology.TopologyDescription;
import io.weir.internal.topology.TopologyDiff;
import io.weir.internal.topology.TopologyRecord;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code weir topology show|diff}: the topology an application recorded in Kafka when its
 * instances last started ({@code <application.id>-topology}, see {@link TopologyRecord}), and
 * what a new version would change ({@link TopologyDiff}). {@code show} prints the record's JSON
 * document ({@link TopologyDescription}), the one an instance also serves on {@code GET /topology}.
 * {@code diff} exits {@value Weir#OK} when the change is safe for a rolling upgrade (or there is
 * none), {@value Weir#FAILED} when it needs a savepoint restore or a reset.
 */
@Command(
        name = "topology",
        description = "Shows the topology an application recorded in Kafka, or compares it" + " with a new version.",
        subcommands = {TopologyCommand.Show.class, TopologyCommand.Diff.class})
final class TopologyCommand extends CommandGroup {

    @Command(name = "show", description = "Prints the topology description the application recorded (JSON).")
    static final class Show implements Callable<Integer> {

        @Mixin
        AppOptions app;

        @Override
        public Integer call() {
            TopologyDescription recorded = recorded(app);
            app.out().println(recorded.toJson());
            return Weir.OK;
        }
    }

    @Command(
            name = "diff",
            description = "Compares the recorded topology with the one built by --topology (or read"
                    + " from --topology-file): the"
                    + " changes, and whether a rolling upgrade is safe (exit 0) or a savepoint restore or a reset is needed"
                    + " (exit 1).")
    static final class Diff implements Callable<Integer> {

        @Mixin
        AppOptions app;

        @Mixin
        TopologyOptions topology;

        @Override
        public Integer call() {
            TopologyDescription next = topology.description(app.id); // bad options fail before the cluster is asked
            TopologyDescription recorded = recorded(app);
            TopologyDiff diff = TopologyDiff.between(recorded, next);
            app.out().print(diff.report());
            return diff.verdict() == TopologyDiff.Verdict.SAFE ? Weir.OK : Weir.FAILED;
        }
    }

    /** The recorded description, or a one-line failure saying why there is none. */
    static TopologyDescription recorded(AppOptions options) {
        String app = options.id;
        WeirConfig config = options.config();
        String topic = InternalTopic.TOPOLOGY.of(app);
        try (Admin admin = options.admin(config)) {
            Set<String> topics = KafkaCalls.get(
                    admin.listTopics().names(), ClusterOptions.TIMEOUT, "reach Kafka at " + config.bootstrapServers());
            if (!topics.contains(topic)) {
                throw new CommandFailedException("no topology recorded for " + app + ": topic " + topic
                        + " does not exist on " + config.bootstrapServers() + " (instances record it when they start)");
            }
        }
        try {
            return TopologyRecord.read(config.consumerOverrides(), app, ClusterOptions.TIMEOUT)
                    .orElseThrow(() -> new CommandFailedException(
                            "no topology recorded for " + app + ": topic " + topic + " is empty"));
        } catch (ClusterException | IllegalStateException | IllegalArgumentException e) {
            throw new CommandFailedException(
                    "cannot read the recorded topology of " + app + " from " + topic + ": " + e.getMessage(), e);
        }
    }
}
