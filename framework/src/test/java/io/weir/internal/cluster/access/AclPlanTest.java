package io.weir.internal.cluster.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.TopologyBuilder;
import io.weir.config.WeirConfig;
import io.weir.internal.topology.TopologyAccess;
import io.weir.serde.Serdes;
import io.weir.sink.DeliveryGuarantee;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AclPlanTest {

    private static WeirConfig.Builder config() {
        return WeirConfig.builder()
                .applicationId("orders")
                .bootstrapServers("b:9093")
                .environment(Map.of());
    }

    private static AclPlan.Topics countingTopics() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .groupByKey()
                .count("counts")
                .toStream()
                .to("out", Serdes.strings(), Serdes.longs());
        return AclPlan.Topics.of(TopologyAccess.model(b.build(), "orders"));
    }

    private static List<String> lines(List<Acl> acls) {
        return acls.stream()
                .map(a -> a.operationName() + " " + a.describeResource())
                .toList();
    }

    @Test
    void exactlyOnceNeedsInputsOutputsThePrefixTheGroupAndTheTransactionalIds() {
        List<Acl> plan = AclPlan.of(countingTopics(), config().build(), false);
        assertThat(lines(plan))
                .containsExactly(
                        "Read the topic 'in'",
                        "Describe the topic 'in'",
                        "Write the topic 'out'",
                        "Describe the topic 'out'",
                        "DescribeConfigs the topic 'out'",
                        "All the topic prefix 'orders-'",
                        "Read the group 'orders'",
                        "Write the transactional id prefix 'orders-'",
                        "Describe the transactional id prefix 'orders-'");
    }

    @Test
    void atLeastOnceNeedsNoTransactionalIdAndToolsAddDeletingTheGroup() {
        List<Acl> plan = AclPlan.of(
                countingTopics(),
                config().guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build(),
                true);
        assertThat(lines(plan))
                .doesNotContain("Write the transactional id prefix 'orders-'")
                .contains("Delete the group 'orders'");
    }

    @Test
    void toolsLetCleanupSeeTheGroupsOfApplicationsWhoseIdExtendsThisOnes() {
        assertThat(lines(AclPlan.of(countingTopics(), config().build(), true)))
                .contains("Describe the group prefix 'orders-'", "Delete the group 'orders'");
        assertThat(lines(AclPlan.of(countingTopics(), config().build(), false)))
                .doesNotContain("Describe the group prefix 'orders-'");
    }

    @Test
    void toolsAddWhatDlqResendNeedsItsTransactionalIdOnlyWhenTheApplicationHasNone() {
        assertThat(lines(AclPlan.of(countingTopics(), config().build(), true)))
                .contains("Read the group 'orders-dlq-resend'", "Write the topic 'in'")
                .doesNotContain("Write the transactional id prefix 'orders-dlq-resend'");
        assertThat(lines(AclPlan.of(
                        countingTopics(),
                        config().guarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                                .set("dead.letter.topic", "errors")
                                .build(),
                        true)))
                .contains(
                        "Write the transactional id prefix 'orders-dlq-resend'",
                        "Describe the transactional id prefix 'orders-dlq-resend'",
                        "Read the topic 'errors'");
        assertThat(lines(AclPlan.of(countingTopics(), config().build(), false)))
                .doesNotContain("Read the group 'orders-dlq-resend'", "Write the topic 'in'");
    }

    @Test
    void aDeadLetterTopicOutsideThePrefixGetsItsOwnAcls() {
        List<Acl> plan = AclPlan.of(
                countingTopics(), config().set("dead.letter.topic", "errors").build(), false);
        assertThat(lines(plan))
                .contains(
                        "Create the topic 'errors'", "Write the topic 'errors'", "DescribeConfigs the topic 'errors'");
    }

    @Test
    void givenTopicsAreAddedToTheTopologysOwn() {
        AclPlan.Topics topics =
                new AclPlan.Topics(Set.of(), Set.of(), Set.of(), false).plus(List.of("a"), List.of("b"));
        assertThat(lines(AclPlan.of(topics, config().build(), false)))
                .contains("Read the topic 'a'", "Write the topic 'b'");
    }

    @Test
    void kafkaAclsCommandsNameTheResourceAndPattern() {
        Acl prefix = new Acl(
                org.apache.kafka.common.resource.ResourceType.TRANSACTIONAL_ID,
                "orders-",
                org.apache.kafka.common.resource.PatternType.PREFIXED,
                org.apache.kafka.common.acl.AclOperation.WRITE,
                "eos");
        assertThat(prefix.kafkaAclsCommand("b:9093", "User:app"))
                .isEqualTo("kafka-acls.sh --bootstrap-server b:9093"
                        + " --add --allow-principal User:app --operation Write --transactional-id orders-"
                        + " --resource-pattern-type prefixed");
        assertThat(prefix.kafkaAclsCommand("b:9093", "<principal>")).contains("--allow-principal '<principal>'");
    }

    @Test
    void theStartUpMessageNamesEachMissingAclAndHowToAddIt() {
        WeirConfig config = config().build();
        Acl txn = AclPlan.of(countingTopics(), config, false).stream()
                .filter(a -> a.operationName().equals("Write")
                        && a.describeResource().contains("transactional"))
                .findFirst()
                .orElseThrow();
        String message = AccessCheck.message(
                config,
                List.of(
                        new AccessCheck.Missing(
                                txn,
                                "not authorized to Write the transactional id prefix 'orders-' (TransactionalIdAuthorizationException)")));
        assertThat(message)
                .startsWith("orders lacks ACLs on b:9093: not authorized to Write the transactional id"
                        + " prefix 'orders-' (TransactionalIdAuthorizationException). Add:\n  kafka-acls.sh")
                .contains(
                        "--operation Write --transactional-id orders- --resource-pattern-type prefixed",
                        "weir acls plan --app orders");
    }

    @Test
    void internalTopicNamesAreTheApplicationsOwn() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .groupByKey()
                .count("counts")
                .toStream()
                .to("out", Serdes.strings(), Serdes.longs());
        assertThat(AccessCheck.internalTopicNames(TopologyAccess.model(b.build(), "orders"), config().build()))
                .contains(
                        "orders-counts-changelog",
                        "orders-dlq",
                        "orders-topology",
                        "orders-control",
                        "orders-savepoints")
                .allMatch(t -> t.startsWith("orders-"));
    }
}
