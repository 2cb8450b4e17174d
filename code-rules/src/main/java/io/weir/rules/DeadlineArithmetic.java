package io.weir.rules;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Rule {@link Rule#R1} over source text: the bytecode of {@code System.nanoTime() + timeout} is an
 * {@code ladd} that could as well be any sum, so this rule reads the sources. It finds
 * {@code nanoTime()} added to (or added to something), on one line or across a line break; a value
 * of the clock first kept in a variable and added later is beyond it.
 */
final class DeadlineArithmetic {

    /** The one class that adds to the clock, so that nothing else has to. */
    private static final String DEADLINE = "io/weir/common/internal/Deadline.java";

    private static final Pattern CLOCK_PLUS = Pattern.compile("\\bnanoTime\\s*\\(\\s*\\)\\s*\\+(?![+=])");
    private static final Pattern PLUS_CLOCK =
            Pattern.compile("(?<![+])\\+\\s*(?:System\\s*\\.\\s*)?nanoTime\\s*\\(\\s*\\)");

    private DeadlineArithmetic() {}

    /** The violations in the {@code .java} files under {@code sourceRoot} (none if it does not exist). */
    static List<Violation> find(Path sourceRoot) {
        if (!Files.isDirectory(sourceRoot)) {
            return List.of();
        }
        List<Violation> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sourceRoot)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String relative = sourceRoot.relativize(file).toString().replace('\\', '/');
                found.addAll(find(relative, Files.readString(file, StandardCharsets.UTF_8)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the sources under " + sourceRoot, e);
        }
        return found;
    }

    /** The violations in {@code source}, the text of the file at {@code relativePath} under a source root. */
    static List<Violation> find(String relativePath, String source) {
        if (relativePath.equals(DEADLINE)) {
            return List.of();
        }
        String code = CodeText.of(source);
        SortedMap<Integer, Violation> byLine = new TreeMap<>(); // one per line, if both patterns match
        for (Pattern p : List.of(CLOCK_PLUS, PLUS_CLOCK)) {
            Matcher m = p.matcher(code);
            while (m.find()) {
                if (p == PLUS_CLOCK && concatenates(code, m.start())) {
                    continue;
                }
                int line = lineOf(source, m.start());
                byLine.putIfAbsent(line, violation(relativePath, source, line));
            }
        }
        return List.copyOf(byLine.values());
    }

    /** Whether the {@code +} at {@code plus} follows a string literal: text, not arithmetic. */
    private static boolean concatenates(String code, int plus) {
        int i = plus - 1;
        while (i >= 0 && Character.isWhitespace(code.charAt(i))) {
            i--;
        }
        return i >= 0 && code.charAt(i) == '"';
    }

    private static int lineOf(String source, int offset) {
        return 1
                + (int) source.substring(0, offset)
                        .chars()
                        .filter(c -> c == '\n')
                        .count();
    }

    private static Violation violation(String relativePath, String source, int line) {
        String className = relativePath.replaceAll("\\.java$", "").replace('/', '.');
        String fileName = relativePath.substring(relativePath.lastIndexOf('/') + 1);
        String text = source.lines().skip(line - 1).findFirst().orElse("").strip();
        return new Violation(Rule.R1, className, fileName, line, text);
    }
}
