package io.weir.internal.config;

import java.util.stream.Collectors;

/**
 * The settings table of docs/configuration.md, generated from {@link Settings#ALL}: one row per
 * setting, in that order, with its documented default and documentation. Run {@link #main} and
 * paste its output into that page's section "Settings" (or let the docs module's updater do it, see
 * docs/README.md); {@code SettingsTableTest} fails while the two differ.
 */
public final class SettingsTable {

    /** The table's header and separator lines. */
    static final String HEADER = "| Setting | Default | Meaning |\n|---|---|---|";

    private SettingsTable() {}

    /** The whole table, header included, one line per row, ending in a newline. */
    public static String markdown() {
        return HEADER + "\n"
                + Settings.ALL.values().stream().map(SettingsTable::row).collect(Collectors.joining("\n")) + "\n";
    }

    /** A setting's row, for example {@code | `poll.ms` | `100` | longest a poll waits for records |}. */
    static String row(Setting<?> s) {
        return "| `" + s.name() + "` | " + s.documentedDefault() + " | " + s.doc() + " |";
    }

    /** Prints {@link #markdown()}. */
    public static void main(String[] args) {
        System.out.print(markdown());
    }
}
