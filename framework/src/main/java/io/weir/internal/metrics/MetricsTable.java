package io.weir.internal.metrics;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The meters table of docs/operating.md, generated from {@link WeirMeter}: one row per meter, in
 * the catalogue's order, with its Prometheus series. Run {@link #main} and paste its output into
 * that page's section "Metrics" (or let the docs module's updater do it, see docs/README.md);
 * {@code MetricsTableTest} fails while the two differ.
 */
public final class MetricsTable {

    /** The table's header and separator lines. */
    static final String HEADER = "| Meter | Prometheus series | Type | Tags | Meaning |\n|---|---|---|---|---|";

    /** Tags every meter has, which the table does not repeat. */
    private static final List<String> COMMON_TAGS = List.of("application", "instance");

    private MetricsTable() {}

    /** The whole table, header included, one line per row, ending in a newline. */
    public static String markdown() {
        return HEADER + "\n"
                + Stream.of(WeirMeter.values()).map(MetricsTable::row).collect(Collectors.joining("\n")) + "\n";
    }

    /** A meter's row, for example {@code | `weir.records.in` | `weir_records_in_total` | counter | thread | records consumed |}. */
    static String row(WeirMeter m) {
        return "| `" + m.meterName() + "` | " + code(m.prometheusSeries()) + " | " + type(m) + " | "
                + String.join(
                        ", ",
                        m.tags().stream().filter(t -> !COMMON_TAGS.contains(t)).toList()) + " | "
                + m.description() + (m.seeAlso().isEmpty() ? "" : " (" + m.seeAlso() + ")") + " |";
    }

    private static String type(WeirMeter m) {
        String kind = m.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ');
        return m.baseUnit().map(u -> kind + ", " + u).orElse(kind);
    }

    private static String code(List<String> names) {
        return names.stream().map(n -> "`" + n + "`").collect(Collectors.joining(", "));
    }

    /** Prints {@link #markdown()}. */
    public static void main(String[] args) {
        System.out.print(markdown());
    }
}
