package io.weir.docs.check;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Regions of source files, tagged as Asciidoctor tags them: a line containing
 * {@code tag::name[]} opens the region {@code name}, one containing {@code end::name[]} closes it,
 * in any comment syntax ({@code // tag::name[]}, {@code <!-- tag::name[] -->}). Tag lines are never
 * part of a region, so regions may nest.
 */
final class Regions {

    private static final Pattern ANY_TAG = Pattern.compile(".*\\b(?:tag|end)::[\\w.-]+\\[\\].*");

    private Regions() {}

    /** A region that cannot be read: the file or the region is missing, or the region is not closed. */
    static final class RegionException extends Exception {
        private static final long serialVersionUID = 1L;

        RegionException(String message) {
            super(message);
        }
    }

    /**
     * The lines of region {@code name} of {@code file}, without its tag lines, without leading and
     * trailing blank lines, and shifted left by the indentation of its least indented line.
     */
    static List<String> read(Path file, String name) throws RegionException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new RegionException("cannot read " + file + ": " + e);
        }
        String open = "tag::" + name + "[]";
        String close = "end::" + name + "[]";
        int start = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(open)) {
                if (start >= 0) {
                    throw new RegionException("region '" + name + "' is tagged twice in " + file);
                }
                start = i;
            }
        }
        if (start < 0) {
            throw new RegionException("no region '" + name + "' (a line with " + open + ") in " + file);
        }
        List<String> region = new ArrayList<>();
        for (int i = start + 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.contains(close)) {
                return trim(region);
            }
            if (!ANY_TAG.matcher(line).matches()) {
                region.add(line.stripTrailing());
            }
        }
        throw new RegionException("region '" + name + "' of " + file + " is not closed (no line with " + close + ")");
    }

    /** Leading and trailing blank lines removed, then the common indentation. */
    static List<String> trim(List<String> lines) {
        int from = 0;
        int to = lines.size();
        while (from < to && lines.get(from).isBlank()) {
            from++;
        }
        while (to > from && lines.get(to - 1).isBlank()) {
            to--;
        }
        List<String> kept = lines.subList(from, to);
        int indent = kept.stream()
                .filter(l -> !l.isBlank())
                .mapToInt(Regions::indentation)
                .min()
                .orElse(0);
        return kept.stream().map(l -> l.isBlank() ? "" : l.substring(indent)).toList();
    }

    private static int indentation(String line) {
        int n = 0;
        while (n < line.length() && Character.isWhitespace(line.charAt(n))) {
            n++;
        }
        return n;
    }
}
