package io.weir.docs.check;

import io.weir.internal.config.SettingNames;
import io.weir.internal.config.SettingsTable;
import io.weir.internal.metrics.MetricsTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites the generated parts of the guide: every marked code block of README.md and docs/*.md
 * from its source region ({@link Snippets}), the settings table of docs/configuration.md from
 * {@link SettingsTable}, the meters table of docs/operating.md from {@link MetricsTable}, and the
 * Helm chart's list of setting names from {@link SettingNames}. Run it after changing a snippet's
 * source, a setting, a meter or the Kafka clients:
 *
 * <pre>{@code mvn -B -q -pl docs -am process-test-classes -Pupdate-docs}</pre>
 *
 * <p>The argument, if any, is the repository root; without it the root is found above the working
 * directory. Exits 1, listing them, if some blocks could not be rewritten (a missing file or region).
 */
public final class UpdateDocs {

    /** The line right before the settings table of docs/configuration.md. */
    static final String SETTINGS_TABLE_MARKER = "<!-- generated: io.weir.internal.config.SettingsTable -->";

    static final String CONFIGURATION_PAGE = "docs/configuration.md";

    /** The line right before the meters table of docs/operating.md. */
    static final String METRICS_TABLE_MARKER = "<!-- generated: io.weir.internal.metrics.MetricsTable -->";

    static final String OPERATING_PAGE = "docs/operating.md";

    private UpdateDocs() {}

    public static void main(String[] args) throws IOException {
        Path root = args.length > 0 ? Path.of(args[0]).toAbsolutePath().normalize() : Guide.root();
        List<String> problems = new ArrayList<>();
        for (Path path : Guide.pages(root)) {
            problems.addAll(Snippets.update(root, Page.read(path)));
        }
        problems.addAll(updateTable(root.resolve(CONFIGURATION_PAGE), SETTINGS_TABLE_MARKER, SettingsTable.markdown()));
        problems.addAll(updateTable(root.resolve(OPERATING_PAGE), METRICS_TABLE_MARKER, MetricsTable.markdown()));
        Files.writeString(root.resolve(SettingNames.CHART_FILE), SettingNames.chartFile());
        if (!problems.isEmpty()) {
            problems.forEach(System.err::println);
            System.exit(1);
        }
        System.out.println("Updated the code blocks and the generated tables of the guide, and "
                + SettingNames.CHART_FILE + ", in " + root);
    }

    /** Replaces the table after the line {@code marker} of {@code page} with {@code table}. */
    static List<String> updateTable(Path page, String marker, String table) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(page));
        int at = lines.indexOf(marker);
        if (at < 0) {
            return List.of(page + ": no line " + marker + " before its generated table");
        }
        int end = at + 1;
        while (end < lines.size() && lines.get(end).startsWith("|")) {
            end++;
        }
        lines.subList(at + 1, end).clear();
        lines.addAll(at + 1, table.lines().toList());
        Files.write(page, lines);
        return List.of();
    }
}
