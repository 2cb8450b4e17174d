package io.weir.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeadlineArithmeticTest {

    @Test
    void findsTheClockAddedToAndAddedToSomething() {
        assertThat(lines(DeadlineArithmetic.find(Path.of("src/test/java/io/weir/rules/fixture"))))
                .containsExactly(
                        "R1 LoopsUntilADeadline (LoopsUntilADeadline.java:9): long end = System.nanoTime() + timeout.toNanos();",
                        "R1 LoopsUntilADeadline (LoopsUntilADeadline.java:14): return timeout.toNanos() + System.nanoTime();");
    }

    @Test
    void findsASumTheFormatterWrapped() {
        String source = """
                class Wrapped {
                    long end = System.nanoTime()
                            + timeout.toNanos();
                    long late = timeout.toNanos()
                            + nanoTime();
                }
                """;
        assertThat(lines(DeadlineArithmetic.find("Wrapped.java", source)))
                .containsExactly(
                        "R1 Wrapped (Wrapped.java:2): long end = System.nanoTime()",
                        "R1 Wrapped (Wrapped.java:5): + nanoTime();");
    }

    @Test
    void namesTheClassByItsPathUnderTheSourceRoot() {
        assertThat(lines(DeadlineArithmetic.find("io/weir/x/Loop.java", "class Loop {\n long e = nanoTime() + 5; }")))
                .containsExactly("R1 io.weir.x.Loop (Loop.java:2): long e = nanoTime() + 5; }");
    }

    @Test
    void ignoresCommentsStringsTextBlocksAndConcatenation() {
        String source = """
                class Fine {
                    // System.nanoTime() + 1
                    /* System.nanoTime() + 1 */
                    String a = "System.nanoTime() + 1";
                    String b = \"""
                        System.nanoTime() + 1
                        \""";
                    char c = '"';
                    String d = "took " + System.nanoTime();
                    long e = System.nanoTime() - start;
                    long f = nanoTime() + +1;
                }
                """;
        assertThat(lines(DeadlineArithmetic.find("Fine.java", source)))
                .containsExactly("R1 Fine (Fine.java:11): long f = nanoTime() + +1;");
    }

    @Test
    void allowsDeadlineItself() {
        assertThat(DeadlineArithmetic.find(
                        "io/weir/common/internal/Deadline.java", "long end = System.nanoTime() + timeout;"))
                .isEmpty();
    }

    private static List<String> lines(List<Violation> violations) {
        return violations.stream().map(Violation::toString).toList();
    }
}
