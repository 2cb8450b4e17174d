package io.weir.internal.cluster.access;

import io.weir.common.internal.KafkaCalls;
import io.weir.config.WeirConfig;
import io.weir.errors.ClusterException;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.topology.NodeSpec;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.TopologyModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The start-up check of the application's ACLs: before it creates a topic or a client, an instance
 * asks the cluster which operations its principal may perform on each resource of its
 * {@link AclPlan} and fails with one {@link ClusterException} listing every missing ACL (the
 * operation, the resource, Kafka's error) and the {@code kafka-acls.sh} commands that add them.
 * Without the check, a missing ACL shows up later as a client error deep in a thread, or as an
 * input topic that "does not exist" (a topic the principal may not describe is left out of
 * listings).
 *
 * <p>The cluster answers with each resource's authorized operations ({@code includeAuthorizedOperations}),
 * so nothing is written and nothing is created. What cannot be asked this way is not checked: the
 * right to create a topic that does not exist yet (its creation fails naming it), and the right to
 * {@code Write} a transactional id beyond {@code Describe}, which the cluster reports only to a
 * producer. When the principal may do everything on the cluster (no authorizer, or a super user),
 * the check is one request.
 *
 * <p>The message holds resource names, operations and Kafka's error class names, never a setting's
 * value.
 */
public final class AccessCheck {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** The operations an {@code All} ACL on a topic stands for here: what Weir does with its own topics. */
    private static final Set<AclOperation> ALL_ON_TOPIC = Set.of(
            AclOperation.READ,
            AclOperation.WRITE,
            AclOperation.CREATE,
            AclOperation.DELETE,
            AclOperation.DESCRIBE,
            AclOperation.DESCRIBE_CONFIGS);
    /** Cluster operations only a principal without limits holds (no authorizer, or a super user). */
    private static final Set<AclOperation> UNLIMITED = Set.of(
            AclOperation.CLUSTER_ACTION,
            AclOperation.ALTER,
            AclOperation.ALTER_CONFIGS,
            AclOperation.CREATE,
            AclOperation.DESCRIBE_CONFIGS);

    private final Admin admin;
    private final WeirConfig config;

    private AccessCheck(Admin admin, WeirConfig config) {
        this.admin = admin;
        this.config = config;
    }

    /**
     * An ACL of the plan that the cluster says the principal lacks.
     *
     * @param reason for example {@code not authorized to Write the topic 'out' (TopicAuthorizationException)}
     */
    record Missing(Acl acl, String reason) {}

    /**
     * Checks the ACLs of {@code model}'s plan.
     *
     * @param transactionalId the transactional id of the instance's first stream thread
     * @throws ClusterException naming every missing ACL and how to add it
     */
    public static void require(Admin admin, WeirConfig config, TopologyModel model, String transactionalId) {
        List<Missing> missing = new AccessCheck(admin, config)
                .missing(
                        AclPlan.of(AclPlan.Topics.of(model), config, false),
                        internalTopicNames(model, config),
                        transactionalId);
        if (!missing.isEmpty()) {
            throw new ClusterException(message(config, missing));
        }
    }

    List<Missing> missing(List<Acl> plan, Set<String> internalTopics, String transactionalId) {
        Set<AclOperation> cluster = KafkaCalls.get(
                admin.describeCluster(new DescribeClusterOptions().includeAuthorizedOperations(true))
                        .authorizedOperations(),
                TIMEOUT,
                // The first request of a start: when nothing answers, say where it went.
                "reach Kafka at bootstrap.servers=" + config.bootstrapServers());
        if (cluster == null || cluster.containsAll(UNLIMITED)) {
            return List.of();
        }
        List<Missing> missing = new ArrayList<>(topics(plan, internalTopics));
        missing.addAll(group(plan));
        missing.addAll(transactionalIds(plan, transactionalId));
        return missing;
    }

    private List<Missing> topics(List<Acl> plan, Set<String> internalTopics) {
        // Each topic to ask about, with the ACLs of the plan that cover it.
        Map<String, List<Acl>> covering = new LinkedHashMap<>();
        for (Acl acl : plan) {
            if (acl.resourceType() != ResourceType.TOPIC) {
                continue;
            }
            if (acl.pattern() == PatternType.LITERAL) {
                covering.computeIfAbsent(acl.name(), t -> new ArrayList<>()).add(acl);
            } else {
                internalTopics.stream()
                        .filter(t -> t.startsWith(acl.name()))
                        .forEach(t -> covering.computeIfAbsent(t, x -> new ArrayList<>())
                                .add(acl));
            }
        }
        if (covering.isEmpty()) {
            return List.of();
        }
        Map<String, KafkaFuture<org.apache.kafka.clients.admin.TopicDescription>> described = admin.describeTopics(
                        covering.keySet(), new DescribeTopicsOptions().includeAuthorizedOperations(true))
                .topicNameValues();
        Set<Acl> reported = new LinkedHashSet<>();
        List<Missing> missing = new ArrayList<>();
        covering.forEach((topic, acls) -> {
            Answer answer = await(
                    described.get(topic).thenApply(d -> d.authorizedOperations()), "describe topic '" + topic + "'");
            for (Acl acl : acls) {
                // A prefix covers several topics: one line for it is enough.
                answer.missing(
                                acl,
                                acl.operation() == AclOperation.ALL ? ALL_ON_TOPIC : needed(acl),
                                "the topic '" + topic + "'")
                        .filter(m -> reported.add(acl))
                        .ifPresent(missing::add);
            }
        });
        return missing;
    }

    private List<Missing> group(List<Acl> plan) {
        List<Acl> acls = plan.stream()
                .filter(a -> a.resourceType() == ResourceType.GROUP)
                .toList();
        if (acls.isEmpty()) {
            return List.of();
        }
        Answer answer = await(
                admin.describeConsumerGroups(
                                List.of(config.applicationId()),
                                new DescribeConsumerGroupsOptions().includeAuthorizedOperations(true))
                        .all()
                        .thenApply(all -> all.get(config.applicationId()).authorizedOperations()),
                "describe the group '" + config.applicationId() + "'");
        return acls.stream()
                .flatMap(a -> answer.missing(a, needed(a), a.describeResource()).stream())
                .toList();
    }

    private List<Missing> transactionalIds(List<Acl> plan, String transactionalId) {
        List<Acl> acls = plan.stream()
                .filter(a -> a.resourceType() == ResourceType.TRANSACTIONAL_ID)
                .toList();
        if (acls.isEmpty()) {
            return List.of();
        }
        // Describing a transactional id needs Describe on it, which Write implies; an id that never
        // ran answers "not found", which is an answer.
        Answer answer = await(
                admin.describeTransactions(List.of(transactionalId)).all().thenApply(d -> (Set<AclOperation>) null),
                "describe the transactional id '" + transactionalId + "'");
        return acls.stream()
                .flatMap(a -> answer.missing(a, Set.of(), a.describeResource()).stream())
                .toList();
    }

    private static Set<AclOperation> needed(Acl acl) {
        // Creating a topic matters only while it does not exist; an existing one is not asked about.
        return acl.operation() == AclOperation.CREATE ? Set.of() : Set.of(acl.operation());
    }

    /**
     * What the cluster answered about one resource: its authorized operations, or an authorization
     * error; both null when it did not say (the resource does not exist yet, or a broker too old
     * to tell), which the steps that use the resource then find out.
     */
    private record Answer(Set<AclOperation> operations, AuthorizationException denied) {

        /** {@code acl}, if the answer shows it is missing; {@code resource} as the reason names it. */
        Optional<Missing> missing(Acl acl, Set<AclOperation> needed, String resource) {
            if (denied != null) {
                String operation = acl.pattern() == PatternType.PREFIXED && acl.resourceType() == ResourceType.TOPIC
                        ? "Describe"
                        : acl.operationName();
                return Optional.of(new Missing(
                        acl,
                        "not authorized to " + operation + " " + resource + " ("
                                + denied.getClass().getSimpleName() + ")"));
            }
            if (operations == null || operations.containsAll(needed)) {
                return Optional.empty();
            }
            List<String> lacking = needed.stream()
                    .filter(op -> !operations.contains(op))
                    .map(Acl::name)
                    .sorted()
                    .toList();
            return Optional.of(new Missing(acl, "not authorized to " + String.join(", ", lacking) + " " + resource));
        }
    }

    /**
     * The answer; an authorization error as such; a resource that does not exist yet or a broker
     * that cannot tell (an old one) as no objection, left to the steps that use the resource.
     */
    private static Answer await(KafkaFuture<Set<AclOperation>> future, String what) {
        try {
            return new Answer(KafkaCalls.get(future, TIMEOUT, what), null);
        } catch (ClusterException e) {
            if (e.getCause() instanceof AuthorizationException denied) {
                return new Answer(null, denied);
            }
            if (e.getCause() instanceof TimeoutException || e.getCause() instanceof InterruptedException) {
                throw e;
            }
            return new Answer(null, null);
        }
    }

    static String message(WeirConfig config, List<Missing> missing) {
        StringBuilder b = new StringBuilder(config.applicationId())
                .append(" lacks ACLs on ")
                .append(config.bootstrapServers())
                .append(": ");
        b.append(String.join("; ", missing.stream().map(Missing::reason).toList()))
                .append(". Add:");
        for (Missing m : missing) {
            b.append("\n  ").append(m.acl().kafkaAclsCommand(config.bootstrapServers(), "<principal>"));
        }
        return b.append("\n(weir acls plan --app ")
                .append(config.applicationId())
                .append(" prints every ACL the application needs)")
                .toString();
    }

    /**
     * The names of the topics the application creates for itself, without asking the cluster:
     * repartition and changelog topics, the dead-letter, late-records and per-application topics.
     */
    static Set<String> internalTopicNames(TopologyModel model, WeirConfig config) {
        Set<String> names = new LinkedHashSet<>();
        for (NodeSpec.Source s : model.internalSources()) {
            names.addAll(s.topics());
        }
        for (StoreSpec store : model.stores().values()) {
            if (store.logged() && !store.changelogIsSource()) {
                names.add(store.changelogTopic(config.applicationId()));
            }
        }
        names.add(config.deadLetterTopic());
        if (config.eventTime().lateRecordsToTopic() && AclPlan.Topics.of(model).windowStores()) {
            names.add(config.eventTime().lateRecordsTopic());
        }
        if (!config.failureDetection().isZero()) {
            names.add(InternalTopic.LIVENESS.of(config.applicationId()));
        }
        for (InternalTopic kind : List.of(InternalTopic.TOPOLOGY, InternalTopic.CONTROL, InternalTopic.SAVEPOINTS)) {
            names.add(kind.of(config.applicationId()));
        }
        return names;
    }
}
