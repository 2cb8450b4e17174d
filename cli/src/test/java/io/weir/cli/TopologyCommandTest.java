package io.weir.cli;

import static io.weir.cli.WeirTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.WeirTest.Outcome;
import org.junit.jupiter.api.Test;

/** {@code weir topology}'s arguments; the commands against a broker are in {@code TopologyCommandIT}. */
class TopologyCommandTest {

    @Test
    void withoutASubcommandPrintsTheUsageAndExitsTwo() {
        Outcome o = run("topology");
        assertThat(o.code()).isEqualTo(Weir.USAGE);
        assertThat(o.err()).contains("Usage: weir topology", "show", "diff");
    }

    @Test
    void showWithoutAppIsAUsageError() {
        Outcome o = run("topology", "show", "--bootstrap-servers", "localhost:1");
        assertThat(o.code()).isEqualTo(Weir.USAGE);
        assertThat(o.err()).contains("Missing required option: '--app=ID'");
    }

    @Test
    void diffWithoutTopologyIsAUsageError() {
        Outcome o = run("topology", "diff", "--app", "wc", "--bootstrap-servers", "localhost:1");
        assertThat(o.code()).isEqualTo(Weir.USAGE);
        assertThat(o.err()).contains("give the topology: --topology CLASS or --topology-file FILE");
    }

    @Test
    void anUnknownOptionIsAUsageError() {
        Outcome o = run("topology", "show", "--app", "wc", "--frobnicate");
        assertThat(o.code()).isEqualTo(Weir.USAGE);
        assertThat(o.err()).contains("Unknown option: '--frobnicate'");
    }

    @Test
    void withoutBootstrapServersTheSettingIsNamedAndExitsTwo() {
        WeirTest.Outcome o = run("topology", "show", "--app", "wc");
        // WEIR_BOOTSTRAP_SERVERS may be set where the tests run; only assert when it is not.
        if (System.getenv("WEIR_BOOTSTRAP_SERVERS") == null && System.getenv("WEIR_CONFIG_FILE") == null) {
            assertThat(o.code()).isEqualTo(Weir.USAGE);
            assertThat(o.err()).contains("bootstrap.servers");
        }
    }

    @Test
    void helpListsTheTopologyCommand() {
        assertThat(run("--help").out()).contains("topology");
    }
}
