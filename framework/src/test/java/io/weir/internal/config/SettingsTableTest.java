package io.weir.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.testing.MarkdownTables;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The settings table of docs/configuration.md cannot drift from {@link Settings}: regenerate it
 * (docs/README.md, "Writing the docs") when a setting changes.
 */
class SettingsTableTest {

    private static final Path PAGE = Path.of("../docs/configuration.md");
    private static final String SECTION = "## Settings";
    private static final String REGENERATE = "the settings table of docs/configuration.md differs from Settings;"
            + " regenerate it with mvn -B -q -pl docs -am process-test-classes -Pupdate-docs";

    @Test
    void tableListsEverySettingInOrderWithItsDocumentedDefault() throws IOException {
        List<String[]> rows = rows(documentedTable());
        assertThat(rows)
                .extracting(r -> r[0])
                .as(REGENERATE)
                .containsExactlyElementsOf(
                        Settings.ALL.keySet().stream().map(n -> "`" + n + "`").toList());
        assertThat(rows)
                .extracting(r -> r[1])
                .as(REGENERATE)
                .containsExactlyElementsOf(Settings.ALL.values().stream()
                        .map(Setting::documentedDefault)
                        .toList());
    }

    @Test
    void tableIsTheGeneratedOne() throws IOException {
        assertThat(String.join("\n", documentedTable()) + "\n").as(REGENERATE).isEqualTo(SettingsTable.markdown());
    }

    @Test
    void generatedTableHasOneRowPerSetting() {
        assertThat(SettingsTable.markdown().lines())
                .hasSize(Settings.ALL.size() + 2)
                .contains("| `poll.ms` | `100` | longest a poll waits for records |");
    }

    /** The lines of the table whose first header is "Setting" in the section {@link #SECTION}. */
    private static List<String> documentedTable() throws IOException {
        return MarkdownTables.table(PAGE, SECTION, "Setting");
    }

    /** The cells of the data rows (header and separator skipped), trimmed. */
    private static List<String[]> rows(List<String> table) {
        List<String[]> rows = new ArrayList<>();
        for (String line : table.subList(2, table.size())) {
            String[] cells = line.substring(1, line.length() - 1).split("\\|", -1);
            for (int i = 0; i < cells.length; i++) {
                cells[i] = cells[i].trim();
            }
            rows.add(cells);
        }
        return rows;
    }
}
