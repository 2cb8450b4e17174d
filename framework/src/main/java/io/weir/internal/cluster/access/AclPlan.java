package io.weir.internal.cluster.access;

import io.weir.config.WeirConfig;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.TopologyModel;
import io.weir.sink.DeliveryGuarantee;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The smallest set of ACLs an application needs on a cluster with an authorizer, derived from what
 * its instances do: read the inputs, write the outputs, own every topic named {@code <app>-...}
 * (it creates, reads, writes, purges and checks the configs of its changelog, repartition,
 * dead-letter, late-records, liveness, topology, control and savepoints topics), join the group
 * {@code <app>}, and under exactly-once use the transactional ids {@code <app>-<instance>-<thread>}.
 * The start-up check ({@link AccessCheck}) verifies the same list, and {@code weir acls plan}
 * prints it, so the two cannot disagree.
 *
 * <p>No cluster-level ACL is planned: the idempotent producer needs {@code IdempotentWrite} on the
 * cluster only on brokers before 2.8 (KIP-679: {@code Write} on a topic implies it since), and
 * Weir creates only topics under its prefix, which the prefixed {@code All} covers.
 */
public final class AclPlan {

    private AclPlan() {}

    /**
     * The topics an application reads and writes besides its own.
     *
     * @param inputs       topics it consumes: stream and table sources, global tables
     * @param configReads  inputs whose configs it reads (a table's source topic: is it compacted?)
     * @param outputs      topics it writes to (Weir reads their {@code max.message.bytes})
     * @param windowStores true if it has window or session stores (late records may go to a topic)
     */
    public record Topics(Set<String> inputs, Set<String> configReads, Set<String> outputs, boolean windowStores) {

        public Topics {
            inputs = Set.copyOf(inputs);
            configReads = Set.copyOf(configReads);
            outputs = Set.copyOf(outputs);
        }

        /** The fixed topics of {@code model}; topics matched by a pattern source are not known here. */
        public static Topics of(TopologyModel model) {
            Set<String> inputs = new LinkedHashSet<>(model.sourceTopics());
            model.globalTables().values().forEach(g -> inputs.add(g.topic()));
            Set<String> configReads = new LinkedHashSet<>();
            model.stores().values().stream()
                    .filter(StoreSpec::changelogIsSource)
                    .forEach(s -> configReads.add(s.sourceTopic()));
            boolean windowed = model.stores().values().stream().anyMatch(s -> s.kind() != StoreSpec.Kind.KEY_VALUE);
            return new Topics(inputs, configReads, model.sinkTopics(), windowed);
        }

        /** These topics and {@code moreInputs}, {@code moreOutputs}. */
        public Topics plus(Collection<String> moreInputs, Collection<String> moreOutputs) {
            Set<String> in = new LinkedHashSet<>(inputs);
            in.addAll(moreInputs);
            Set<String> out = new LinkedHashSet<>(outputs);
            out.addAll(moreOutputs);
            return new Topics(in, configReads, out, windowStores);
        }
    }

    /**
     * The ACLs of the application {@code config.applicationId()}, in a stable order: input topics,
     * output topics, the internal topics' prefix, a dead-letter or late-records topic named outside
     * it, the group, the transactional ids.
     *
     * @param tools also what the CLI's tools need on top when run with the application's principal:
     *              {@code weir reset}, {@code weir replay} and {@code weir savepoint restore} delete the
     *              group's offsets, {@code weir cleanup} deletes the group and must see the groups of
     *              applications whose id extends this one's; {@code weir dlq resend} has a group, writes
     *              and transactions of its own. What they do to the internal topics (delete them, read
     *              and write the savepoints, as {@code weir savepoint prune} does) the prefix covers.
     */
    public static List<Acl> of(Topics topics, WeirConfig config, boolean tools) {
        String app = config.applicationId();
        String prefix = app + "-";
        List<Acl> acls = new ArrayList<>();
        for (String t : new java.util.TreeSet<>(topics.inputs())) {
            acls.add(topic(t, AclOperation.READ, "input: consume"));
            acls.add(topic(t, AclOperation.DESCRIBE, "input: partitions and offsets"));
            if (topics.configReads().contains(t)) {
                acls.add(topic(t, AclOperation.DESCRIBE_CONFIGS, "table source: is it compacted (its changelog)?"));
            }
        }
        for (String t : new java.util.TreeSet<>(topics.outputs())) {
            acls.add(topic(t, AclOperation.WRITE, "output: produce"));
            acls.add(topic(t, AclOperation.DESCRIBE, "output: partitions"));
            acls.add(topic(t, AclOperation.DESCRIBE_CONFIGS, "output: max.message.bytes"));
        }
        acls.add(new Acl(
                ResourceType.TOPIC,
                prefix,
                PatternType.PREFIXED,
                AclOperation.ALL,
                tools
                        ? "internal topics: create, read, write, purge, check configs; weir reset, replay and"
                                + " cleanup delete them, weir savepoint create, restore and prune use the savepoints"
                        : "internal topics: create, read, write, purge, check configs"));
        List<String> ownTopics = new ArrayList<>(List.of(config.deadLetterTopic()));
        if (config.eventTime().lateRecordsToTopic() && topics.windowStores()) {
            ownTopics.add(config.eventTime().lateRecordsTopic());
        }
        for (String t : ownTopics) {
            if (!t.startsWith(prefix)) {
                for (AclOperation op : List.of(
                        AclOperation.CREATE,
                        AclOperation.WRITE,
                        AclOperation.DESCRIBE,
                        AclOperation.DESCRIBE_CONFIGS)) {
                    acls.add(topic(t, op, "dead letters or late records: created when missing, written"));
                }
            }
        }
        acls.add(new Acl(
                ResourceType.GROUP,
                app,
                PatternType.LITERAL,
                AclOperation.READ,
                "consumer group: join, commit offsets"));
        if (tools) {
            acls.add(new Acl(
                    ResourceType.GROUP,
                    app,
                    PatternType.LITERAL,
                    AclOperation.DELETE,
                    "weir reset, replay and savepoint restore: delete offsets; weir cleanup: delete the group"));
            // Listing groups shows only those the principal may describe, and the prefix's All lets it
            // delete the topics of an application named <app>-x: without this, weir cleanup would take
            // that application's changelogs for its own.
            acls.add(new Acl(
                    ResourceType.GROUP,
                    prefix,
                    PatternType.PREFIXED,
                    AclOperation.DESCRIBE,
                    "weir cleanup: see applications whose id extends this one's, to leave their topics alone"));
            acls.addAll(dlqResend(topics, config, prefix));
        }
        if (config.guarantee() == DeliveryGuarantee.EXACTLY_ONCE) {
            acls.add(new Acl(
                    ResourceType.TRANSACTIONAL_ID,
                    prefix,
                    PatternType.PREFIXED,
                    AclOperation.WRITE,
                    "exactly-once: transactions of every stream thread"));
            acls.add(new Acl(
                    ResourceType.TRANSACTIONAL_ID,
                    prefix,
                    PatternType.PREFIXED,
                    AclOperation.DESCRIBE,
                    "exactly-once: find the transaction coordinator"));
        }
        return List.copyOf(acls);
    }

    /**
     * What {@code weir dlq resend} needs beyond the application's own: its group (named after the
     * application unless {@code --group} says otherwise), Write on the inputs it sends dead letters
     * back to, Read on a dead-letter topic outside the prefix, and its transactional id when the
     * application's own transactional ids are not planned.
     */
    private static List<Acl> dlqResend(Topics topics, WeirConfig config, String prefix) {
        String resend = config.applicationId() + "-dlq-resend";
        List<Acl> acls = new ArrayList<>();
        acls.add(new Acl(
                ResourceType.GROUP,
                resend,
                PatternType.LITERAL,
                AclOperation.READ,
                "weir dlq resend: its position in the dead-letter topic (another --group needs its own)"));
        for (String t : new java.util.TreeSet<>(topics.inputs())) {
            acls.add(topic(t, AclOperation.WRITE, "weir dlq resend: dead letters back to their input"));
        }
        if (!config.deadLetterTopic().startsWith(prefix)) {
            acls.add(topic(config.deadLetterTopic(), AclOperation.READ, "weir dlq: read dead letters"));
        }
        if (config.guarantee() != DeliveryGuarantee.EXACTLY_ONCE) {
            for (AclOperation op : List.of(AclOperation.WRITE, AclOperation.DESCRIBE)) {
                acls.add(
                        new Acl(
                                ResourceType.TRANSACTIONAL_ID,
                                resend,
                                PatternType.PREFIXED,
                                op,
                                "weir dlq resend: its transactions (under exactly-once, the application's prefix covers them)"));
            }
        }
        return acls;
    }

    private static Acl topic(String name, AclOperation op, String why) {
        return new Acl(ResourceType.TOPIC, name, PatternType.LITERAL, op, why);
    }
}
