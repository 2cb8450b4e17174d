package io.weir.rules;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CodeRulesTest {

    @Test
    void theRulesModuleFollowsItsOwnRules() {
        CodeRules.checkModule(Path.of(""));
    }

    @Test
    void reportsEachViolationOnOneLineUnderItsRulesReasonAndRemedy(@TempDir Path module) throws IOException {
        copy("target/test-classes", "io/weir/rules/fixture/Sleeper.class", module.resolve("target/classes"));
        copy("src/test/java", "io/weir/rules/fixture/LoopsUntilADeadline.java", module.resolve("src/main/java"));

        assertThatThrownBy(() -> CodeRules.checkModule(module))
                .isInstanceOf(AssertionError.class)
                .hasMessage("""
                        4 violation(s) of Weir's code rules (io.weir.rules.CodeRules) in %s:

                        R1 %s
                          why: %s
                          fix: %s
                          io.weir.rules.fixture.LoopsUntilADeadline (LoopsUntilADeadline.java:9): long end = System.nanoTime() + timeout.toNanos();
                          io.weir.rules.fixture.LoopsUntilADeadline (LoopsUntilADeadline.java:14): return timeout.toNanos() + System.nanoTime();

                        R2 %s
                          why: %s
                          fix: %s
                          io.weir.rules.fixture.Sleeper (Sleeper.java:9): Thread.sleep in pause
                          io.weir.rules.fixture.Sleeper (Sleeper.java:15): TimeUnit.sleep in loop
                        """.formatted(
                                module.getFileName(),
                                Rule.R1.title(),
                                Rule.R1.why(),
                                Rule.R1.fix(),
                                Rule.R2.title(),
                                Rule.R2.why(),
                                Rule.R2.fix()));
    }

    @Test
    void anExemptionLetsItsClassBreakItsRuleOnly(@TempDir Path module) throws IOException {
        copy("target/test-classes", "io/weir/rules/fixture/Sleeper.class", module.resolve("target/classes"));
        copy("src/test/java", "io/weir/rules/fixture/LoopsUntilADeadline.java", module.resolve("src/main/java"));
        Exemption sleeper = new Exemption("R2", "io.weir.rules.fixture.Sleeper", "a fixture that must sleep");

        assertThatThrownBy(() -> CodeRules.checkModule(module, sleeper))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("2 violation(s)")
                .hasMessageContaining("LoopsUntilADeadline")
                .hasMessageNotContaining("Sleeper");
    }

    @Test
    void anExemptionThatCoversNothingFailsTheCheck(@TempDir Path module) throws IOException {
        copy("target/test-classes", "io/weir/rules/fixture/Sleeper.class", module.resolve("target/classes"));
        Exemption stale = new Exemption("R3", "io.weir.rules.fixture.Sleeper", "it once made a mapper");

        assertThatThrownBy(() -> CodeRules.checkModule(
                        module,
                        new Exemption("R2", "io.weir.rules.fixture.Sleeper", "a fixture that must sleep"),
                        stale))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("match no violation")
                .hasMessageContaining("it once made a mapper");
    }

    @Test
    void anExemptionNeedsAKnownRuleAndAReason() {
        assertThatThrownBy(() -> new Exemption("R9", "a.B", "why")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Exemption("R2", "a.B", " "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a reason");
    }

    @Test
    void refusesAModuleThatWasNotCompiled(@TempDir Path module) {
        assertThatThrownBy(() -> CodeRules.checkModule(module))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no compiled main classes");
    }

    private static void copy(String fromRoot, String relative, Path toRoot) throws IOException {
        Path target = toRoot.resolve(relative);
        Files.createDirectories(target.getParent());
        Files.copy(Path.of(fromRoot, relative), target);
    }
}
