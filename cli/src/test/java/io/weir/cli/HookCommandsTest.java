package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.WeirTest.Outcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The calls {@code weir replay} and {@code weir cleanup} refuse before asking Kafka or Kubernetes
 * anything (no server is given here, so getting further would fail differently): each a usage
 * error naming the option.
 */
class HookCommandsTest {

    private static final String[] NOWHERE = {"-b", "localhost:1", "--kubernetes-server", "http://localhost:1"};

    private static Outcome run(String... args) {
        String[] all = new String[args.length + NOWHERE.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(NOWHERE, 0, all, args.length, NOWHERE.length);
        return WeirTest.run(all);
    }

    @Test
    void replayWantsExactlyOneOfToAndSavepoint() {
        Outcome neither = run("replay", "--app", "a", "--replay-id", "r1", "--record", "a-reset");
        Outcome both = run(
                "replay",
                "--app",
                "a",
                "--replay-id",
                "r1",
                "--record",
                "a-reset",
                "--to",
                "earliest",
                "--savepoint",
                "sp");

        assertThat(neither.code()).isEqualTo(Weir.USAGE);
        assertThat(neither.err()).contains("give exactly one of --to and --savepoint");
        assertThat(both.code()).isEqualTo(Weir.USAGE);
    }

    @Test
    void replayRefusesABadIdPositionAndTimeout() {
        Outcome id = run("replay", "--app", "a", "--replay-id", "no spaces", "--record", "r", "--to", "earliest");
        Outcome to = run("replay", "--app", "a", "--replay-id", "r1", "--record", "r", "--to", "yesterday");
        Outcome timeout =
                run("replay", "--app", "a", "--replay-id", "r1", "--record", "r", "--to", "1h", "--stop-timeout", "0");
        Outcome savepointWithoutTopology =
                run("replay", "--app", "a", "--replay-id", "r1", "--record", "r", "--savepoint", "sp-1");

        assertThat(id.err()).contains("--replay-id must be 1 to 63 letters");
        assertThat(to.err()).contains("--to: 'yesterday' is not earliest, latest");
        assertThat(timeout.err()).contains("--stop-timeout must be positive");
        assertThat(savepointWithoutTopology.code()).isEqualTo(Weir.USAGE);
        assertThat(savepointWithoutTopology.err()).contains("--topology");
        assertThat(List.of(id.code(), to.code(), timeout.code())).containsOnly(Weir.USAGE);
    }

    @Test
    void cleanupRefusesVolumesWithoutTheStatefulSetAndANegativeWait() {
        Outcome volumes = run("cleanup", "--app", "a", "--delete-volumes");
        Outcome wait = run("cleanup", "--app", "a", "--wait", "-1");

        assertThat(volumes.code()).isEqualTo(Weir.USAGE);
        assertThat(volumes.err()).contains("--delete-volumes needs --statefulset");
        assertThat(wait.code()).isEqualTo(Weir.USAGE);
        assertThat(wait.err()).contains("--wait must not be negative");
    }
}
