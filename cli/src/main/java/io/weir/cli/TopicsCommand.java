package io.weir.cli;

import io.weir.config.WeirConfig;
import io.weir.internal.cluster.topics.InternalTopics;
import io.weir.internal.json.Json;
import io.weir.internal.topology.TopologyAccess;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code weir topics plan|create}: the internal topics of an application, planned by the same code
 * the application runs at start ({@link InternalTopics}), so operators can create them ahead.
 */
@Command(
        name = "topics",
        description = "Plans or creates the internal topics of an application.",
        mixinStandardHelpOptions = true,
        subcommands = {TopicsCommand.Plan.class, TopicsCommand.Create.class})
final class TopicsCommand extends CommandGroup {

    /** What both subcommands take. */
    abstract static class Base implements Callable<Integer> {
        @Mixin
        AppOptions app;

        @Mixin
        TopologyOptions topology;
    }

    @Command(
            name = "plan",
            mixinStandardHelpOptions = true,
            description = "Prints the internal topics the application needs: name, kind, partitions (from its input"
                    + " topics on the cluster), replication and configs, as the application would create them.")
    static final class Plan extends Base {
        @Option(names = "--json", description = "print JSON")
        boolean json;

        @Override
        public Integer call() {
            WeirConfig config = app.config();
            io.weir.Topology t = topology.load();
            List<InternalTopics.Topic> plan;
            try (Admin admin = app.admin(config)) {
                plan = run(() -> InternalTopics.plan(TopologyAccess.model(t, config.applicationId()), config, admin));
            }
            PrintWriter out = app.out();
            if (json) {
                List<Object> topics = new ArrayList<>();
                plan.forEach(p -> topics.add(toJson(p, null)));
                out.println(Json.pretty(Map.of("application", app.id, "topics", topics)));
            } else {
                Table table = new Table("TOPIC", "KIND", "PARTITIONS", "REPLICATION", "CONFIGS");
                plan.forEach(p -> table.row(p.name(), kind(p), p.partitions(), replication(p), configs(p)));
                table.print(out);
            }
            return Weir.OK;
        }
    }

    @Command(
            name = "create",
            mixinStandardHelpOptions = true,
            description =
                    "Creates the internal topics that are missing; reports existing ones that differ from the plan"
                            + " in a way the application would refuse to start with (exit 1 then).")
    static final class Create extends Base {
        @Override
        public Integer call() {
            WeirConfig config = app.config();
            io.weir.Topology t = topology.load();
            InternalTopics.Report report;
            try (Admin admin = app.admin(config)) {
                report = run(
                        () -> InternalTopics.create(TopologyAccess.model(t, config.applicationId()), config, admin));
            }
            PrintWriter out = app.out();
            Table table = new Table("TOPIC", "KIND", "PARTITIONS", "REPLICATION", "CONFIGS", "STATUS");
            report.created()
                    .forEach(p -> table.row(p.name(), kind(p), p.partitions(), replication(p), configs(p), "created"));
            report.existing()
                    .forEach(p -> table.row(
                            p.name(),
                            kind(p),
                            p.partitions(),
                            replication(p),
                            configs(p),
                            report.problems().stream().anyMatch(m -> m.contains("'" + p.name() + "'"))
                                    ? "DIFFERS"
                                    : "exists"));
            table.print(out);
            out.printf(
                    "%d created, %d existed, %d differ%n",
                    report.created().size(),
                    report.existing().size(),
                    report.problems().size());
            if (!report.problems().isEmpty()) {
                PrintWriter err = app.err();
                report.problems().forEach(p -> err.println("weir topics create: " + p));
                return Weir.FAILED;
            }
            return Weir.OK;
        }
    }

    /**
     * Runs a framework call; its refusals (co-partitioning) become one-line failures, as its
     * {@code ClusterException}s (a missing input, an unreachable cluster) do in {@link Weir}.
     */
    static <T> T run(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (IllegalStateException e) {
            throw new CommandFailedException(e.getMessage(), e);
        }
    }

    static String kind(InternalTopics.Topic t) {
        return t.kind().label();
    }

    static String replication(InternalTopics.Topic t) {
        return t.replication().map(String::valueOf).orElse("default");
    }

    static String configs(InternalTopics.Topic t) {
        if (t.configs().isEmpty()) {
            return "-";
        }
        List<String> parts = new ArrayList<>();
        new TreeMap<>(t.configs()).forEach((k, v) -> parts.add(k + "=" + v));
        return String.join(" ", parts);
    }

    static Map<String, Object> toJson(InternalTopics.Topic t, String status) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", t.name());
        m.put("kind", kind(t));
        m.put("partitions", t.partitions());
        m.put("replication", t.replication().map(r -> (Object) r.intValue()).orElse("default"));
        m.put("configs", new TreeMap<>(t.configs()));
        if (status != null) {
            m.put("status", status);
        }
        return m;
    }
}
