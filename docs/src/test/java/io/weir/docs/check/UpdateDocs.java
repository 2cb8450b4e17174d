package io.weir.docs.check;

import io.weir.internal.config.SettingsTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites the generated parts of the guide: every marked code block of README.md and docs/*.md
 * from its source region ({@link Snippets}), and the settings table of docs/configuration.md from
 * {@link SettingsTable}. Run it after changing a snippet's source or a setting:
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

    private UpdateDocs() {}

    public static void main(String[] args) throws IOException {
        Path root = args.length > 0 ? Path.of(args[0]).toAbsolutePath().normalize() : Guide.root();
        List<String> problems = new ArrayList<>();
        for (Path path : Guide.pages(root)) {
            problems.addAll(Snippets.update(root, Page.read(path)));
        }
        problems.addAll(updateSettingsTable(root.resolve(CONFIGURATION_PAGE)));
        if (!problems.isEmpty()) {
            problems.forEach(System.err::println);
            System.exit(1);
        }
        System.out.println("Updated the code blocks and the settings table of the guide in " + root);
    }

    /** Replaces the table after {@link #SETTINGS_TABLE_MARKER} with {@link SettingsTable#markdown()}. */
    static List<String> updateSettingsTable(Path page) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(page));
        int marker = lines.indexOf(SETTINGS_TABLE_MARKER);
        if (marker < 0) {
            return List.of(page + ": no line " + SETTINGS_TABLE_MARKER + " before the settings table");
        }
        int end = marker + 1;
        while (end < lines.size() && lines.get(end).startsWith("|")) {
            end++;
        }
        lines.subList(marker + 1, end).clear();
        lines.addAll(marker + 1, SettingsTable.markdown().lines().toList());
        Files.write(page, lines);
        return List.of();
    }
}
