package io.weir.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads a table out of a docs page, for the tests that hold a generated table against the page. */
public final class MarkdownTables {

    private MarkdownTables() {}

    /**
     * The lines of the first table in {@code section} (a heading line, e.g. {@code "## Settings"})
     * of {@code page} whose first column header is {@code firstHeader}: header, separator and rows,
     * up to the first line that is not a table row. Fails naming the page when there is none.
     */
    public static List<String> table(Path page, String section, String firstHeader) throws IOException {
        List<String> lines = Files.readAllLines(page);
        int start = lines.indexOf(section);
        assertThat(start).as("section '" + section + "' of " + page).isNotNegative();
        String header = "\\|\\s*" + java.util.regex.Pattern.quote(firstHeader) + "\\s*\\|.*";
        List<String> table = new ArrayList<>();
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
            String line = lines.get(i);
            if (table.isEmpty() && line.matches(header)) {
                table.add(line);
            } else if (!table.isEmpty() && line.startsWith("|")) {
                table.add(line);
            } else if (!table.isEmpty()) {
                break;
            }
        }
        assertThat(table)
                .as("a table with first column '" + firstHeader + "' in section '" + section + "' of " + page)
                .isNotEmpty();
        return table;
    }
}
