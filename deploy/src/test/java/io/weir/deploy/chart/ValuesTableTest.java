package io.weir.deploy.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.deploy.kubernetes.helm.Release;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every value is described, exists and is in the schema, and the README's table is the generated one. */
class ValuesTableTest {

    private static final Path CHART = Release.chartDirectory();
    private final ValuesTable table = ValuesTable.of(CHART);

    @Test
    void everyValueHasADescription() {
        List<String> documented =
                table.params().stream().map(ValuesTable.Param::path).toList();
        assertThat(table.leaves())
                .as("values without a ## @param line (for them or a value containing them) in values.yaml")
                .allSatisfy(leaf -> assertThat(documented)
                        .as(leaf)
                        .anySatisfy(p -> assertThat(leaf.equals(p) || leaf.startsWith(p + "."))
                                .isTrue()));
    }

    @Test
    void everyDescribedValueExistsAndIsInTheSchema() {
        for (ValuesTable.Param p : table.params()) {
            assertThat(table.value(p.path())).as("values.yaml has %s", p.path()).isNotNull();
            assertThat(table.schemaOf(p.path()).isMissingNode())
                    .as("values.schema.json has %s", p.path())
                    .isFalse();
            assertThat(p.section()).as("%s's ## @section", p.path()).isNotEmpty();
        }
    }

    @Test
    void theReadmeTableIsTheGeneratedOne() throws IOException {
        String readme = Files.readString(CHART.resolve("README.md"));
        assertThat(readme)
                .as("helm/weir/README.md's parameters: run mvn -B -q -pl deploy -am test-compile -Pupdate-chart-readme")
                .isEqualTo(ValuesTable.replaceSection(readme, table.markdown()));
    }

    @Test
    void aSectionIsWrittenBetweenTheMarkersOnly() {
        String readme = "# x\n" + ValuesTable.BEGIN + "\nold\n" + ValuesTable.END + "\nrest\n";
        assertThat(ValuesTable.replaceSection(readme, "new\n"))
                .isEqualTo("# x\n" + ValuesTable.BEGIN + "\nnew\n\n" + ValuesTable.END + "\nrest\n");
    }
}
