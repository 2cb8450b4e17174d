package io.weir.rules;

import java.util.Comparator;

/**
 * One breach of a {@link Rule}, at a line of a source file when it has one ({@code file} null and
 * {@code line} 0 when it is the module's, such as a second factory class); {@code what} says what
 * the code does there. Ordered by rule, class and line.
 */
record Violation(Rule rule, String className, String file, int line, String what) implements Comparable<Violation> {

    private static final Comparator<Violation> ORDER = Comparator.comparing(Violation::rule)
            .thenComparing(Violation::className)
            .thenComparingInt(Violation::line)
            .thenComparing(Violation::what);

    /** A violation of the module as a whole. */
    static Violation ofModule(Rule rule, String what) {
        return new Violation(rule, "the module", null, 0, what);
    }

    /** The class and, when known, the source line: {@code io.weir.x.Foo (Foo.java:42)}. */
    String where() {
        return file == null ? className : className + " (" + file + ":" + line + ")";
    }

    @Override
    public int compareTo(Violation o) {
        return ORDER.compare(this, o);
    }

    @Override
    public String toString() {
        return rule + " " + where() + ": " + what;
    }
}
