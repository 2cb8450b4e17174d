package io.weir.docs.check;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Markdown page, read as lines, with what the checks need from it: its fenced code blocks, its
 * links and its headings' anchors. Only the Markdown this guide uses is understood: fences of
 * backticks or tildes, inline links and reference definitions, ATX headings ({@code ## Title}).
 */
record Page(Path path, List<String> lines) {

    private static final Pattern FENCE = Pattern.compile("^(\\s*)(`{3,}|~{3,})\\s*([^`\\s]*).*$");
    private static final Pattern MARKER = Pattern.compile("^\\s*<!--\\s*snippet:\\s*([^#\\s]+)#(\\S+)\\s*-->\\s*$");
    private static final Pattern HEADING = Pattern.compile("^\\s{0,3}(#{1,6})\\s+(.*?)(?:\\s+#+)?\\s*$");
    private static final Pattern INLINE_LINK = Pattern.compile("\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE_DEFINITION =
            Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s.*)?$");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1");
    private static final Pattern LINK_TEXT = Pattern.compile("!?\\[([^\\]]*)\\]\\([^)]*\\)");

    /** A fenced code block: the lines of its opening and closing fences (0-based), and the marker before it. */
    record Fence(int open, int close, String indent, String language, Optional<SnippetRef> snippet) {

        /** The lines between the fences. */
        List<String> body(List<String> lines) {
            return lines.subList(open + 1, close);
        }
    }

    /** A snippet marker: a file relative to the repository root, and a region tagged in it. */
    record SnippetRef(String file, String region) {

        @Override
        public String toString() {
            return file + "#" + region;
        }
    }

    /** A link's target as written, and the line it is on (0-based). */
    record Link(int line, String target) {}

    static Page read(Path path) {
        try {
            return new Page(path, Files.readAllLines(path));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every fenced code block, in order. An unclosed fence runs to the end of the page. */
    List<Fence> fences() {
        List<Fence> fences = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher open = FENCE.matcher(lines.get(i));
            if (!open.matches()) {
                continue;
            }
            String fence = open.group(2);
            int close = i + 1;
            while (close < lines.size() && !closes(lines.get(close), fence)) {
                close++;
            }
            Optional<SnippetRef> snippet = Optional.empty();
            if (i > 0) {
                Matcher marker = MARKER.matcher(lines.get(i - 1));
                if (marker.matches()) {
                    snippet = Optional.of(new SnippetRef(marker.group(1), marker.group(2)));
                }
            }
            fences.add(new Fence(i, close, open.group(1), open.group(3).toLowerCase(Locale.ROOT), snippet));
            i = close;
        }
        return fences;
    }

    /** Every snippet marker outside code blocks, by line (0-based), whether or not a fence follows it. */
    Map<Integer, SnippetRef> markers() {
        Map<Integer, SnippetRef> markers = new HashMap<>();
        boolean[] inCode = inCode();
        for (int i = 0; i < lines.size(); i++) {
            Matcher marker = MARKER.matcher(lines.get(i));
            if (!inCode[i] && marker.matches()) {
                markers.put(i, new SnippetRef(marker.group(1), marker.group(2)));
            }
        }
        return markers;
    }

    /** Inline links and reference definitions outside code blocks and code spans. */
    List<Link> links() {
        List<Link> links = new ArrayList<>();
        boolean[] inCode = inCode();
        for (int i = 0; i < lines.size(); i++) {
            if (inCode[i]) {
                continue;
            }
            String line = CODE_SPAN
                    .matcher(lines.get(i))
                    .replaceAll(m -> " ".repeat(m.group().length()));
            Matcher reference = REFERENCE_DEFINITION.matcher(line);
            if (reference.matches()) {
                links.add(new Link(i, reference.group(1)));
                continue;
            }
            Matcher inline = INLINE_LINK.matcher(line);
            while (inline.find()) {
                links.add(new Link(i, inline.group(1)));
            }
        }
        return links;
    }

    /**
     * The anchors of the page's headings as GitHub makes them: the heading's text in lower case,
     * every character but letters, digits, {@code -}, {@code _} and spaces removed, each space made
     * {@code -}; a repeated anchor gets {@code -1}, {@code -2}, ...
     */
    Set<String> anchors() {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean[] inCode = inCode();
        for (int i = 0; i < lines.size(); i++) {
            Matcher heading = HEADING.matcher(lines.get(i));
            if (inCode[i] || !heading.matches()) {
                continue;
            }
            String slug = slug(heading.group(2));
            int n = seen.merge(slug, 1, Integer::sum) - 1;
            anchors.add(n == 0 ? slug : slug + "-" + n);
        }
        return anchors;
    }

    /** GitHub's anchor of a heading whose Markdown text is {@code heading}. */
    static String slug(String heading) {
        String text = LINK_TEXT.matcher(heading).replaceAll(m -> Matcher.quoteReplacement(m.group(1)));
        return text.toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]", "")
                .replace(' ', '-');
    }

    /** Which lines belong to a fenced code block, fences included. */
    private boolean[] inCode() {
        boolean[] inCode = new boolean[lines.size()];
        for (Fence f : fences()) {
            for (int i = f.open(); i <= Math.min(f.close(), lines.size() - 1); i++) {
                inCode[i] = true;
            }
        }
        return inCode;
    }

    private static boolean closes(String line, String fence) {
        String trimmed = line.strip();
        return trimmed.length() >= fence.length() && trimmed.chars().allMatch(c -> c == fence.charAt(0));
    }
}
