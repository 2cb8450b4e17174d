package io.weir.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The meters table of docs/operating.md cannot drift from {@link WeirMeter}: regenerate it
 * (docs/README.md, "Writing the docs") when a meter changes.
 */
class MetricsTableTest {

    private static final Path PAGE = Path.of("../docs/operating.md");
    private static final String SECTION = "## Metrics";
    private static final String REGENERATE = "the meters table of docs/operating.md differs from WeirMeter;"
            + " regenerate it with mvn -B -q -pl docs -am process-test-classes -Pupdate-docs";

    @Test
    void tableIsTheGeneratedOne() throws IOException {
        assertThat(String.join("\n", documentedTable()) + "\n").as(REGENERATE).isEqualTo(MetricsTable.markdown());
    }

    @Test
    void generatedTableHasOneRowPerMeterWithItsSeries() {
        assertThat(MetricsTable.markdown().lines())
                .hasSize(WeirMeter.values().length + 2)
                .contains("| `weir.records.in` | `weir_records_in_total` | counter | thread | records consumed |")
                .contains("| `weir.consumer.lag` | `weir_consumer_lag_records` | gauge, records | thread, task, topic,"
                        + " partition | records between the thread's position and the end of each input partition it"
                        + " owns (sampled once a second) |");
    }

    /** The lines of the table whose first header is "Meter" in the section {@link #SECTION}. */
    private static List<String> documentedTable() throws IOException {
        List<String> lines = Files.readAllLines(PAGE);
        int section = lines.indexOf(SECTION);
        assertThat(section).as("section '" + SECTION + "' of " + PAGE).isNotNegative();
        List<String> table = new ArrayList<>();
        for (int i = section + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
            String line = lines.get(i);
            if (table.isEmpty() && line.matches("\\|\\s*Meter\\s*\\|.*")) {
                table.add(line);
            } else if (!table.isEmpty() && line.startsWith("|")) {
                table.add(line);
            } else if (!table.isEmpty()) {
                break;
            }
        }
        assertThat(table)
                .as("a table with first column 'Meter' in section '" + SECTION + "' of " + PAGE)
                .isNotEmpty();
        return table;
    }
}
