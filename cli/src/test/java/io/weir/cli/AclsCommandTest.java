package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.testing.CountingApp;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code weir acls plan}: what it prints for the CLI's counting application, without a cluster. */
class AclsCommandTest {

    private static final String TOPOLOGY = CountingApp.class.getName();

    /** {@code weir acls plan} with {@code options}. */
    private static WeirTest.Outcome plan(String... options) {
        List<String> args = new ArrayList<>(List.of("acls", "plan"));
        args.addAll(List.of(options));
        return WeirTest.run(args.toArray(String[]::new));
    }

    /** The plan of application {@code orders}, run by {@code User:orders}, from its topology. */
    private static WeirTest.Outcome planForOrders(String... more) {
        List<String> args = new ArrayList<>(
                List.of("--app", "orders", "--principal", "User:orders", "--topology", TOPOLOGY, "-b", "kafka:9093"));
        args.addAll(List.of(more));
        return plan(args.toArray(String[]::new));
    }

    @Test
    void tablePlansInputsOutputsInternalTopicsGroupAndTransactionalIds() {
        WeirTest.Outcome o = planForOrders();
        assertThat(o.code()).as(o.err()).isEqualTo(Weir.OK);
        assertThat(o.out())
                .containsPattern("RESOURCE\\s+NAME\\s+PATTERN\\s+OPERATION\\s+PRINCIPAL\\s+WHY")
                .containsPattern("topic\\s+" + CountingApp.INPUT + "\\s+literal\\s+Read\\s+User:orders")
                .containsPattern("topic\\s+" + CountingApp.OUTPUT + "\\s+literal\\s+Write\\s+User:orders")
                .containsPattern("topic\\s+orders-\\s+prefixed\\s+All\\s+User:orders")
                .containsPattern("group\\s+orders\\s+literal\\s+Read")
                .containsPattern("transactional id\\s+orders-\\s+prefixed\\s+Write")
                .doesNotContain("Delete");
    }

    @Test
    void kafkaAclsFormatPrintsOneCommandPerAcl() {
        WeirTest.Outcome o = planForOrders("--format", "kafka-acls", "--tools");
        assertThat(o.code()).as(o.err()).isEqualTo(Weir.OK);
        assertThat(o.out())
                .contains(
                        "kafka-acls.sh --bootstrap-server kafka:9093 --add --allow-principal User:orders --operation Read"
                                + " --topic " + CountingApp.INPUT + "\n",
                        "--operation All --topic orders- --resource-pattern-type prefixed\n",
                        "--operation Read --group orders\n",
                        "--operation Delete --group orders\n",
                        "--operation Describe --group orders- --resource-pattern-type prefixed\n",
                        "--operation Read --group orders-dlq-resend\n",
                        "--operation Write --topic counting-input\n",
                        "--operation Write --transactional-id orders- --resource-pattern-type prefixed\n");
        assertThat(o.out().lines().filter(l -> l.startsWith("kafka-acls.sh"))).hasSize(13);
    }

    @Test
    void toolsNameTheCommandThatNeedsEachAcl() {
        WeirTest.Outcome o = planForOrders("--tools");
        assertThat(o.code()).as(o.err()).isEqualTo(Weir.OK);
        assertThat(o.out())
                .containsPattern("group\\s+orders\\s+literal\\s+Delete\\s+User:orders\\s+weir reset, replay and"
                        + " savepoint restore: delete offsets; weir cleanup: delete the group")
                .containsPattern("group\\s+orders-\\s+prefixed\\s+Describe\\s+User:orders\\s+weir cleanup: see"
                        + " applications whose id extends this one's")
                .containsPattern("topic\\s+orders-\\s+prefixed\\s+All\\s+User:orders\\s+.*weir reset, replay and"
                        + " cleanup delete them, weir savepoint create, restore and prune use the savepoints")
                .containsPattern("group\\s+orders-dlq-resend\\s+literal\\s+Read\\s+User:orders\\s+weir dlq resend");
        assertThat(planForOrders().out()).doesNotContain("weir cleanup", "weir replay", "weir savepoint");
    }

    @Test
    void inputAndOutputOptionsServeWithoutATopologyAndAtLeastOnceNeedsNoTransactions() {
        WeirTest.Outcome o = plan(
                "--app",
                "a",
                "--principal",
                "User:a",
                "--input",
                "in",
                "--output",
                "out",
                "-b",
                "k:1",
                "-X",
                "processing.guarantee=at_least_once");
        assertThat(o.code()).as(o.err()).isEqualTo(Weir.OK);
        assertThat(o.out())
                .containsPattern("topic\\s+in\\s+literal\\s+Read")
                .containsPattern("topic\\s+out\\s+literal\\s+Write")
                .doesNotContain("transactional id");
    }

    @Test
    void withoutTopologyOrInputsOrWithABarePrincipalItIsAUsageError() {
        WeirTest.Outcome none = plan("--app", "a", "--principal", "User:a", "-b", "k:1");
        assertThat(none.code()).isEqualTo(Weir.USAGE);
        assertThat(none.err()).contains("--topology CLASS", "--input TOPIC");
        WeirTest.Outcome bare = plan("--app", "a", "--principal", "a", "--input", "x", "-b", "k:1");
        assertThat(bare.code()).isEqualTo(Weir.USAGE);
        assertThat(bare.err()).contains("User:a");
        WeirTest.Outcome format = plan("--app", "a", "--principal", "User:a", "--input", "x", "--format", "yaml");
        assertThat(format.code()).isEqualTo(Weir.USAGE);
        assertThat(format.err()).contains("'yaml' is not a format");
    }
}
