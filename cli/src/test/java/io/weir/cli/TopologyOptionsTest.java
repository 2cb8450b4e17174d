package io.weir.cli;

import static io.weir.cli.WeirTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.WeirTest.Outcome;
import io.weir.internal.config.WeirVersion;
import io.weir.internal.topology.TopologyAccess;
import io.weir.internal.topology.TopologyDescription;
import io.weir.testing.CountingApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --topology CLASS} or {@code --topology-file FILE}: one of them, and the file only where
 * the command needs the topology's shape, not its code. Nothing here reaches a cluster: the
 * options are checked first.
 */
class TopologyOptionsTest {

    @TempDir
    Path dir;

    @Test
    void bothTheClassAndTheFileAreAUsageError() throws Exception {
        Outcome o = runOnApp(
                "topology diff",
                "--topology",
                CountingApp.class.getName(),
                "--topology-file",
                description("a").toString());
        assertThat(o.code()).isEqualTo(Weir.USAGE);
        assertThat(o.err()).contains("give --topology CLASS or --topology-file FILE, not both");
    }

    @Test
    void aClasspathWithTheFileIsAUsageError() throws Exception {
        Outcome o = runOnApp(
                "savepoint restore",
                "--id",
                "x",
                "--topology-file",
                description("a").toString(),
                "--classpath",
                dir.toString());
        assertThat(o.code()).isEqualTo(Weir.USAGE);
        assertThat(o.err()).contains("--classpath goes with --topology CLASS");
    }

    @Test
    void aMissingFileIsOneLineNamingIt() {
        Outcome o = runOnApp(
                "topology diff", "--topology-file", dir.resolve("none.json").toString());
        assertThat(o.code()).isEqualTo(Weir.FAILED);
        assertThat(o.err()).contains("cannot read --topology-file " + dir.resolve("none.json"));
    }

    @Test
    void aFileThatIsNotADescriptionIsOneLineNamingIt() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.json"), "{\"hello\": 1}");
        Outcome o = runOnApp("topology diff", "--topology-file", bad.toString());
        assertThat(o.code()).isEqualTo(Weir.FAILED);
        assertThat(o.err()).contains("--topology-file " + bad + ": not a topology description");
    }

    /** {@code topics plan} takes the topology as a mixin, {@code describe} as an optional group. */
    @ParameterizedTest
    @ValueSource(strings = {"topics plan", "describe"})
    void aCommandThatNeedsTheCodeRefusesTheFile(String command) throws Exception {
        Outcome o = runOnApp(command, "--topology-file", description("a").toString());
        assertThat(o.code()).isEqualTo(Weir.USAGE);
        assertThat(o.err()).contains("this command needs the topology's code: give --topology CLASS");
    }

    @Test
    void theFileDescribesTheSameTopologyAsTheClassForAnyApplication() throws Exception {
        TopologyOptions fromFile = new TopologyOptions();
        fromFile.file = description("written-for-another");
        TopologyOptions fromClass = new TopologyOptions();
        fromClass.className = CountingApp.class.getName();
        TopologyDescription expected = fromClass.description("a");
        assertThat(fromFile.description("a").subtopologies()).isEqualTo(expected.subtopologies());
        assertThat(fromFile.description("a").stores()).isEqualTo(expected.stores());
        assertThat(fromFile.model("a").stores().keySet()).containsExactly("counts");
    }

    @Test
    void theHelpOfDiffAndRestoreNamesTheFileOption() {
        picocli.CommandLine weir = Weir.commandLine();
        assertThat(weir.getSubcommands()
                        .get("topology")
                        .getSubcommands()
                        .get("diff")
                        .getUsageMessage())
                .contains("--topology-file=FILE");
        assertThat(weir.getSubcommands()
                        .get("savepoint")
                        .getSubcommands()
                        .get("restore")
                        .getUsageMessage())
                .contains("--topology-file=FILE");
    }

    /** {@code command} (its words) on application {@code a} of a cluster never reached, with {@code options}. */
    private static Outcome runOnApp(String command, String... options) {
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.addAll(List.of("--app", "a", "-b", "localhost:1"));
        args.addAll(List.of(options));
        return run(args.toArray(String[]::new));
    }

    /** What CountingApp writes with run.mode=describe when its application id is {@code app}. */
    private Path description(String app) throws Exception {
        TopologyDescription d =
                TopologyDescription.of(TopologyAccess.model(CountingApp.topology(), app), app, WeirVersion.current());
        return Files.writeString(dir.resolve(app + ".json"), d.toJson());
    }
}
