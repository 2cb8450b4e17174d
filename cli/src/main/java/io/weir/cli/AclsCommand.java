package io.weir.cli;

import io.weir.config.WeirConfig;
import io.weir.internal.cluster.access.Acl;
import io.weir.internal.cluster.access.AclPlan;
import io.weir.internal.topology.TopologyAccess;
import io.weir.internal.topology.TopologyModel;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code weir acls plan}: the ACLs an application needs on a cluster with an authorizer, computed
 * by the code its start-up check runs ({@link AclPlan}). It learns the input and output topics from
 * the topology ({@code --topology}, as {@code weir topics} does) and from {@code --input} and
 * {@code --output}, which add to it: the options alone serve applications whose topology cannot be
 * loaded here, and cover what a topology cannot say (the topics a pattern source matches). It
 * needs no cluster: the plan depends on names and settings only.
 */
@Command(
        name = "acls",
        description = "Plans the Kafka ACLs of an application.",
        mixinStandardHelpOptions = true,
        subcommands = {AclsCommand.Plan.class})
final class AclsCommand extends CommandGroup {

    /** How the plan is printed. */
    enum Format {
        table,
        kafka_acls;

        /** {@code kafka-acls} on the command line. */
        static Format parse(String value) {
            return valueOf(value.replace('-', '_'));
        }
    }

    @Command(
            name = "plan",
            mixinStandardHelpOptions = true,
            description = "Prints the minimal ACLs the application needs: Read on its inputs, Write on its outputs, All"
                    + " on its internal topics (prefix ID-), Read on its group, Write on its transactional ids (prefix"
                    + " ID-, exactly-once).")
    static final class Plan implements Callable<Integer> {
        @Mixin
        AppOptions app;

        @Option(
                names = "--principal",
                required = true,
                paramLabel = "PRINCIPAL",
                description = "who the ACLs allow, as Kafka names it: User:orders")
        String principal;

        @ArgGroup(exclusive = false)
        TopologyOptions topology;

        @Option(
                names = "--input",
                paramLabel = "TOPIC",
                description = "an input topic (repeat; adds to the topology's)")
        List<String> inputs = new ArrayList<>();

        @Option(
                names = "--output",
                paramLabel = "TOPIC",
                description = "an output topic (repeat; adds to the topology's)")
        List<String> outputs = new ArrayList<>();

        @Option(
                names = "--tools",
                description = "add what the CLI's tools need when run as the same principal: weir reset, replay"
                        + " and savepoint restore (Delete on the group: its offsets), weir cleanup (Delete on the"
                        + " group, Describe on the groups prefixed ID-), weir dlq resend (its group, Write on the"
                        + " inputs, its transactional ids); the internal topics' prefix already covers what they"
                        + " and weir savepoint create and prune do to those topics")
        boolean tools;

        @Option(
                names = "--format",
                paramLabel = "FORMAT",
                defaultValue = "table",
                converter = FormatConverter.class,
                description = "table (default) or kafka-acls (kafka-acls.sh commands)")
        Format format;

        @Override
        public Integer call() {
            if (topology == null && inputs.isEmpty()) {
                throw app.usage("give the topology (--topology CLASS) or the input topics (--input TOPIC)");
            }
            if (!principal.contains(":")) {
                throw app.usage("--principal '" + principal + "' needs a type, as in User:" + principal);
            }
            WeirConfig config = app.config();
            AclPlan.Topics topics =
                    new AclPlan.Topics(java.util.Set.of(), java.util.Set.of(), java.util.Set.of(), false);
            PrintWriter err = app.err();
            if (topology != null) {
                TopologyModel model = TopologyAccess.model(topology.load(), app.id);
                topics = AclPlan.Topics.of(model);
                if (model.subscriptionPattern() != null) {
                    err.println("weir acls plan: the topology reads topics by pattern; give the topics it matches"
                            + " with --input, or grant Read on a prefix by hand");
                }
            }
            List<Acl> plan = AclPlan.of(topics.plus(inputs, outputs), config, tools);
            print(plan, config, app.out());
            return Weir.OK;
        }

        private void print(List<Acl> plan, WeirConfig config, PrintWriter out) {
            if (format == Format.kafka_acls) {
                out.println("# On a secured cluster add --command-config FILE (the settings of a principal that may"
                        + " alter ACLs).");
                plan.forEach(a -> out.println(a.kafkaAclsCommand(config.bootstrapServers(), principal)));
                return;
            }
            Table table = new Table("RESOURCE", "NAME", "PATTERN", "OPERATION", "PRINCIPAL", "WHY");
            plan.forEach(a -> table.row(
                    a.resourceLabel(),
                    a.name(),
                    a.pattern().name().toLowerCase(java.util.Locale.ROOT),
                    a.operationName(),
                    principal,
                    a.why()));
            table.print(out);
            out.println("Read and Write imply Describe; IdempotentWrite on the cluster is needed only by brokers"
                    + " before Kafka 2.8.");
        }
    }

    /** Reads {@code table} and {@code kafka-acls}, naming both when neither is given. */
    static final class FormatConverter implements picocli.CommandLine.ITypeConverter<Format> {
        @Override
        public Format convert(String value) {
            try {
                return Format.parse(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(
                        "'" + value + "' is not a format; use table or kafka-acls");
            }
        }
    }
}
