package io.weir.deploy.kubernetes.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The README's results are the runs' own figures, with their spread, and nothing else is touched. */
class ScenarioResultsTest {

    private static final List<String> RUN_1 = List.of(
            "{\"t\":1.0,\"event\":\"create Pod weir-0\",\"source\":\"statefulset-controller\",\"object\":\"weir\"}",
            "{\"t\":9.5,\"step\":\"helm install\",\"seconds_to_all_ready\":12.5,\"pods\":[\"weir-0\"],"
                    + "\"real\":\"the chart\",\"runner\":\"the controller\"}",
            "{\"t\":40.0,\"step\":\"kubectl delete pod weir-1\",\"outcome\":\"its tasks moved\","
                    + "\"seconds_output_paused\":7.5,\"seconds_each_pod_away\":{\"weir-1\":6.1}}");
    private static final List<String> RUN_2 = List.of(
            "{\"t\":8.0,\"step\":\"helm install\",\"seconds_to_all_ready\":9.0}",
            "{\"t\":30.0,\"step\":\"kubectl delete pod weir-1\",\"outcome\":\"came back and kept its tasks\","
                    + "\"seconds_output_paused\":5.2,\"seconds_each_pod_away\":{\"weir-1\":4.0}}");
    private static final List<String> FAILED = List.of(
            "{\"t\":8.0,\"step\":\"helm install\",\"seconds_to_all_ready\":30.25}",
            "{\"t\":99.0,\"failure\":\"Condition with alias 'weir-1 back' didn't complete within 3 minutes\"}");

    @Test
    void eachFigureHasAColumnPerRunAndItsSpread() {
        String section = ScenarioResults.section("2026-12-05T2100Z", List.of(RUN_1, RUN_2));

        assertThat(section)
                .contains("| seconds to all ready | 12.5 | 9.0 | 9 to 12.5 |")
                .contains("| outcome | its tasks moved | came back and kept its tasks |  |")
                .contains("| seconds output paused | 7.5 | 5.2 | 5.2 to 7.5 |")
                .contains("| seconds each pod away | weir-1 6.1 | weir-1 4.0 |  |")
                .contains("- run 1: every step passed")
                .doesNotContain("the chart")
                .doesNotContain("create Pod");
    }

    @Test
    void aFailedRunIsReportedWithItsFailureAndEmptyCellsAfterIt() {
        String section = ScenarioResults.section("x", List.of(RUN_1, FAILED));

        assertThat(section)
                .contains("- run 2: failed: Condition with alias 'weir-1 back' didn't complete within 3 minutes")
                .contains("| seconds to all ready | 12.5 | 30.25 | 12.5 to 30.25 |")
                .contains("| seconds output paused | 7.5 |  |  |");
    }

    @Test
    void onlyTheTextBetweenTheMarkersIsReplaced(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path readme = dir.resolve("README.md");
        Files.writeString(
                readme,
                "# Title\nbefore\n" + ScenarioResults.BEGIN + "\nold figures\n" + ScenarioResults.END + "\nafter\n");

        String updated = ScenarioResults.replaceSection(Files.readString(readme), "new figures\n");

        assertThat(updated)
                .isEqualTo("# Title\nbefore\n" + ScenarioResults.BEGIN + "\n\nnew figures\n\n" + ScenarioResults.END
                        + "\nafter\n");
        assertThatThrownBy(() -> ScenarioResults.replaceSection("# no markers\n", "x"))
                .hasMessageContaining(ScenarioResults.BEGIN);
    }

    @Test
    void theReadmeHasTheMarkers() throws IOException {
        Path readme = Path.of("kubernetes/README.md");
        assertThat(Files.readString(readme)).contains(ScenarioResults.BEGIN).contains(ScenarioResults.END);
    }
}
