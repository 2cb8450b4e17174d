package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class WeirTest {

    /** What one command line printed and returned. */
    record Outcome(int code, String out, String err) {}

    static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Weir.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Outcome(code, out.toString(), err.toString());
    }

    /** {@link #run}, echoing the command line and what it printed into the test's output, for the ITs' reports. */
    static Outcome runShown(String... args) {
        Outcome o = run(args);
        System.out.println("$ weir " + String.join(" ", args) + "\n" + o.out() + o.err() + "(exit " + o.code() + ")");
        return o;
    }

    @Test
    void helpListsTheCommandsAndExitsZero() {
        Outcome o = run("--help");
        assertThat(o.code()).isEqualTo(Weir.OK);
        assertThat(o.out()).contains("Usage: weir", "help");
    }

    @Test
    void helpOnEveryCommandPrintsItsUsageAndExitsZero() {
        List<String> commands = new ArrayList<>();
        collect(Weir.commandLine(), commands);
        assertThat(commands).contains("weir topology diff", "weir savepoint restore", "weir stop", "weir acls plan");
        for (String command : commands) {
            List<String> args = new ArrayList<>(List.of(command.split(" ")).subList(1, command.split(" ").length));
            for (String help : List.of("--help", "-h")) {
                List<String> line = new ArrayList<>(args);
                line.add(help);
                Outcome o = run(line.toArray(String[]::new));
                assertThat(o.code()).as(line.toString()).isEqualTo(Weir.OK);
                assertThat(o.out()).as(line.toString()).contains("Usage: " + command + " ");
                assertThat(o.err()).as(line.toString()).isEmpty();
            }
        }
    }

    /** The qualified names of {@code cmd} and every command below it. */
    private static void collect(CommandLine cmd, List<String> names) {
        names.add(cmd.getCommandSpec().qualifiedName());
        cmd.getSubcommands().values().forEach(c -> collect(c, names));
    }

    @Test
    void versionNamesWeir() {
        Outcome o = run("--version");
        assertThat(o.code()).isEqualTo(Weir.OK);
        assertThat(o.out()).startsWith("weir ");
    }

    @Test
    void noCommandIsAUsageError() {
        Outcome o = run();
        assertThat(o.code()).isEqualTo(Weir.USAGE);
        assertThat(o.err()).contains("Usage: weir");
    }

    @Test
    void anUnknownOptionIsNamedAndExitsTwo() {
        Outcome o = run("--frobnicate");
        assertThat(o.code()).isEqualTo(Weir.USAGE);
        assertThat(o.err()).contains("weir: Unknown option: '--frobnicate'");
    }

    @Test
    void everyCommandIsListed() {
        assertThat(run("--help").out()).contains("describe", "topics", "reset", "diff");
    }

    @Test
    void aMissingAppIsNamedAndExitsTwo() {
        for (String[] args :
                new String[][] {{"describe"}, {"reset", "--to", "earliest"}, {"topics", "plan", "--topology", "x.Y"}}) {
            Outcome o = run(args);
            assertThat(o.code()).as(String.join(" ", args)).isEqualTo(Weir.USAGE);
            assertThat(o.err()).as(String.join(" ", args)).contains("Missing required option: '--app=ID'");
        }
    }

    @Test
    void anUnknownResetPositionIsNamedAndExitsTwo() {
        Outcome o = run("reset", "--app", "a", "--to", "yesterday", "-b", "localhost:1");
        assertThat(o.code()).isEqualTo(Weir.USAGE);
        assertThat(o.err()).contains("--to", "'yesterday' is not earliest, latest");
    }

    @Test
    void anUnknownDeserializerIsNamedAndExitsTwo() {
        Outcome o = run("diff", "--left", "a", "--right", "b", "--key-deserializer", "avro");
        assertThat(o.code()).isEqualTo(Weir.USAGE);
        assertThat(o.err()).contains("--key-deserializer", "'avro' is not one of string, long, bytes");
    }

    @Test
    void aClusterThatCannotBeReachedIsOneLineNamingTheRequestAndExitsOne() {
        Outcome o = run(
                "topology",
                "show",
                "--app",
                "wc",
                "-b",
                "localhost:1",
                "-X",
                "admin.default.api.timeout.ms=1000",
                "-X",
                "admin.request.timeout.ms=500");
        assertThat(o.code()).isEqualTo(Weir.FAILED);
        assertThat(o.err()).startsWith("weir topology show: cannot reach Kafka at localhost:1: ");
        assertThat(o.err().strip().lines()).hasSize(1);
    }

    @Test
    void topicsWithoutASubcommandIsAUsageError() {
        Outcome o = run("topics");
        assertThat(o.code()).isEqualTo(Weir.USAGE);
        assertThat(o.err()).contains("plan", "create");
    }
}
