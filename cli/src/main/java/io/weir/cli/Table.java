package io.weir.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain text table: columns padded to their widest cell, two spaces apart. */
final class Table {

    private final List<String[]> rows = new ArrayList<>();

    Table(String... header) {
        rows.add(header);
    }

    Table row(Object... cells) {
        String[] r = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            r[i] = String.valueOf(cells[i]);
        }
        rows.add(r);
        return this;
    }

    boolean isEmpty() {
        return rows.size() == 1;
    }

    void print(PrintWriter out) {
        int columns = rows.get(0).length;
        int[] width = new int[columns];
        for (String[] r : rows) {
            for (int i = 0; i < columns; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                line.append(r[i]);
                if (i < columns - 1) {
                    line.append(" ".repeat(width[i] - r[i].length() + 2));
                }
            }
            out.println(line.toString().stripTrailing());
        }
    }
}
