package io.weir.deploy.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.deploy.compose.RepositoryFiles;
import io.weir.internal.metrics.WeirMeter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every {@code weir_*} series the chart's alerts and dashboard, the compose dashboard and the
 * guide name is one Weir exports: one its catalogue of meters ({@link WeirMeter}, whose
 * Prometheus names the framework checks against a real scrape) produces. A renamed meter fails
 * here, naming each file and series still using the old name, instead of leaving an alert that
 * never fires.
 */
class MetricNamesTest {

    /** A series name standing alone: not the tail of a longer identifier, nor a shell variable. */
    private static final Pattern SERIES = Pattern.compile("(?<![A-Za-z0-9_$]|\\$\\{)weir_[a-z0-9_]*[a-z0-9]");

    /**
     * Where series are named: the chart (alerts, dashboard, README), the compose stack, the
     * Kubernetes scenario (which reads pods' metrics) and the guide.
     */
    private static final List<String> TREES = List.of("helm/weir", "deploy/compose", "deploy/src/main/java");

    /** docs/benchmarks.md names fields of the benchmark reports ({@code weir_rps}), not series. */
    private static final Set<String> NOT_ABOUT_SERIES = Set.of("docs/benchmarks.md");

    @Test
    void everyWeirSeriesTheChartDashboardsAndDocsNameIsOneWeirExports() {
        Set<String> exported = Set.copyOf(WeirMeter.allPrometheusSeries());
        List<String> unknown = new ArrayList<>();
        for (Path file : files()) {
            Set<String> named = new TreeSet<>();
            Matcher m = SERIES.matcher(read(file));
            while (m.find()) {
                named.add(m.group());
            }
            named.stream().filter(n -> !exported.contains(n)).forEach(n -> unknown.add(relative(file) + ": " + n));
        }
        assertThat(unknown)
                .as("series no meter of io.weir.internal.metrics.WeirMeter exports (see docs/operating.md#metrics)")
                .isEmpty();
    }

    @Test
    void checksTheAlertsAndBothDashboards() {
        assertThat(files().stream().map(MetricNamesTest::relative))
                .contains(
                        "helm/weir/templates/prometheusrule.yaml",
                        "helm/weir/files/dashboards/weir.json",
                        "deploy/compose/grafana/dashboards/weir.json",
                        "docs/operating.md",
                        "README.md");
    }

    @Test
    void findsSeriesInPromQlAndProse() {
        assertThat(SERIES.matcher("max by (instance) (weir_instance_ready{job=\"x\"}) == 0")
                        .results()
                        .map(MatchResult::group))
                .containsExactly("weir_instance_ready");
        assertThat(SERIES.matcher("`weir_records_in_total`, ${weir_podman_flags}, my_weir_thing")
                        .results()
                        .map(MatchResult::group))
                .containsExactly("weir_records_in_total");
    }

    private static List<Path> files() {
        Path root = RepositoryFiles.root();
        List<Path> files = new ArrayList<>();
        for (String tree : TREES) {
            try (Stream<Path> walk = Files.walk(root.resolve(tree))) {
                walk.filter(Files::isRegularFile).forEach(files::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(f -> f.toString().endsWith(".md"))
                    .filter(f -> !NOT_ABOUT_SERIES.contains(relative(f)))
                    .forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        files.add(root.resolve("README.md"));
        return files;
    }

    private static String relative(Path file) {
        return RepositoryFiles.root().relativize(file).toString().replace('\\', '/');
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(file + " is not text", e);
        }
    }
}
