package io.weir.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.testing.MarkdownTables;
import java.io.IOException;
import java.nio.file.Path;
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
        return MarkdownTables.table(PAGE, SECTION, "Meter");
    }
}
