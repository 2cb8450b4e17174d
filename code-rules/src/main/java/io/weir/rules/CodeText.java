package io.weir.rules;

/**
 * Java source with its comments and the contents of its string, text-block and character literals
 * blanked out: a pattern then matches code only ({@code // nanoTime() + x} in a comment is not
 * code), and an offset into the result is still the offset into the source, line breaks included.
 * The quotes stay, so that a match can tell a string concatenation from arithmetic.
 */
final class CodeText {

    private CodeText() {}

    static String of(String source) {
        StringBuilder code = new StringBuilder(source);
        int i = 0;
        while (i < source.length()) {
            if (source.startsWith("//", i)) {
                i = blank(code, i, endOf(source, i, "\n", false));
            } else if (source.startsWith("/*", i)) {
                i = blank(code, i, endOf(source, i + 2, "*/", false) + 2);
            } else if (source.startsWith("\"\"\"", i)) {
                i = blank(code, i + 3, endOf(source, i + 3, "\"\"\"", true)) + 3;
            } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
                String quote = String.valueOf(source.charAt(i));
                i = blank(code, i + 1, endOf(source, i + 1, quote, true)) + 1;
            } else {
                i++;
            }
        }
        return code.toString();
    }

    /** Where {@code close} next starts from {@code from} (skipping escaped characters in literals), or the end. */
    private static int endOf(String source, int from, String close, boolean escapes) {
        int i = from;
        while (i < source.length() && !source.startsWith(close, i)) {
            i += escapes && source.charAt(i) == '\\' ? 2 : 1;
        }
        return Math.min(i, source.length());
    }

    /** Replaces {@code [from, to)} with spaces, keeping line breaks; returns {@code to}. */
    private static int blank(StringBuilder code, int from, int to) {
        int end = Math.min(to, code.length());
        for (int i = from; i < end; i++) {
            if (code.charAt(i) != '\n') {
                code.setCharAt(i, ' ');
            }
        }
        return end;
    }
}
