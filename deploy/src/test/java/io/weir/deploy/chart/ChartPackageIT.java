package io.weir.deploy.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.deploy.kubernetes.helm.Release;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * The build's {@code helm package} (deploy/target/helm, made in the package phase before this runs)
 * holds the chart as users install it: named after the chart's version, with its schema, README,
 * scripts and every template, and nothing .helmignore leaves out.
 */
class ChartPackageIT {

    @Test
    void thePackageHoldsTheWholeChart() throws IOException {
        String version = Files.readAllLines(Release.chartDirectory().resolve("Chart.yaml")).stream()
                .filter(l -> l.startsWith("version:"))
                .map(l -> l.substring("version:".length()).trim())
                .findFirst()
                .orElseThrow();
        Path tgz = Path.of("target/helm/weir-" + version + ".tgz");
        assertThat(tgz).as("mvn package makes it").isRegularFile();

        List<String> entries = entries(tgz);
        assertThat(entries)
                .contains(
                        "weir/Chart.yaml",
                        "weir/values.yaml",
                        "weir/values.schema.json",
                        "weir/README.md",
                        "weir/files/pre-stop.sh",
                        "weir/files/helm-test.sh",
                        "weir/files/dashboards/weir.json",
                        "weir/templates/statefulset.yaml",
                        "weir/templates/_helpers.tpl");
        try (var templates = Files.list(Release.chartDirectory().resolve("templates"))) {
            templates
                    .filter(Files::isRegularFile)
                    .forEach(t -> assertThat(entries).contains("weir/templates/" + t.getFileName()));
        }
        assertThat(entries).noneMatch(e -> e.endsWith("~") || e.endsWith(".swp") || e.contains("/.git/"));
    }

    /** The names in a .tgz (POSIX ustar headers: name in the first 100 bytes, size in octal at 124). */
    private static List<String> entries(Path tgz) throws IOException {
        List<String> names = new ArrayList<>();
        try (InputStream in = new GZIPInputStream(Files.newInputStream(tgz))) {
            byte[] header = new byte[512];
            while (in.readNBytes(header, 0, 512) == 512 && header[0] != 0) {
                String name = new String(header, 0, 100, java.nio.charset.StandardCharsets.US_ASCII)
                        .trim()
                        .replace("\0", "");
                String prefix =
                        new String(header, 345, 155, java.nio.charset.StandardCharsets.US_ASCII).replace("\0", "");
                long size = Long.parseLong(
                        new String(header, 124, 11, java.nio.charset.StandardCharsets.US_ASCII).trim(), 8);
                names.add(prefix.isEmpty() ? name : prefix + "/" + name);
                in.skipNBytes((size + 511) / 512 * 512);
            }
        }
        return names;
    }
}
