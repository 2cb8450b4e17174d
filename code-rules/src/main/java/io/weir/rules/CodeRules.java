package io.weir.rules;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Weir's code rules, applied to the main code of one module by its {@code CodeRulesTest}:
 *
 * <ol>
 *   <li>R1: no deadline arithmetic on the monotonic clock ({@code System.nanoTime() + x}) outside
 *       {@code io.weir.common.internal.Deadline}; measuring elapsed time is fine.
 *   <li>R2: {@code Thread.sleep} (or {@code TimeUnit}'s) only in {@code io.weir.common.internal.Worker}
 *       and {@code Poll}.
 *   <li>R3: a Jackson mapper ({@code new ObjectMapper}, {@code JsonMapper.builder()}, ...) created
 *       only in a class named {@code Json}, one per module.
 *   <li>R4: {@code new KafkaConsumer}, {@code new KafkaProducer}, {@code Admin.create} and
 *       {@code AdminClient.create} only in a class named {@code KafkaClients}, one per module.
 * </ol>
 *
 * <p>R2 to R4 read the module's compiled main classes (ArchUnit, without the test classes and
 * without loading the classes they call: the rules match what is called by name); R1 reads its
 * main sources, since the bytecode of a sum does not say what was added. A failure lists every
 * violation, one line each with its class and source line, under its rule's reason and remedy.
 *
 * <p>Stateless; every call imports the classes anew.
 */
public final class CodeRules {

    private CodeRules() {}

    /**
     * Checks the module in {@code moduleDir} (its {@code target/classes} and {@code src/main/java});
     * a module's test passes {@code Path.of("")}, since Maven runs tests in the module's directory.
     * A violation an {@link Exemption} covers is let through; an exemption that covers none fails.
     *
     * @throws AssertionError listing the violations, if there are any
     * @throws IllegalStateException if the module has no compiled main classes
     */
    public static void checkModule(Path moduleDir, Exemption... exemptions) {
        Path classes = moduleDir.resolve("target/classes");
        if (!Files.isDirectory(classes)) {
            throw new IllegalStateException("no compiled main classes in " + classes.toAbsolutePath());
        }
        List<Violation> all = violations(importMain(classes), moduleDir.resolve("src/main/java"));
        List<Exemption> unused = Arrays.stream(exemptions)
                .filter(e -> all.stream().noneMatch(e::covers))
                .toList();
        if (!unused.isEmpty()) {
            throw new AssertionError("exemptions that match no violation any more (remove them): " + unused);
        }
        List<Violation> found = all.stream()
                .filter(v -> Arrays.stream(exemptions).noneMatch(e -> e.covers(v)))
                .toList();
        if (!found.isEmpty()) {
            throw new AssertionError(report(moduleName(moduleDir), found));
        }
    }

    static List<Violation> violations(JavaClasses classes, Path sourceRoot) {
        List<Violation> found = new ArrayList<>(DeadlineArithmetic.find(sourceRoot));
        found.addAll(ForbiddenCalls.find(classes));
        return found.stream().sorted().toList();
    }

    /** The classes under {@code classes}, their dependencies known by name only (fast, see the class comment). */
    private static JavaClasses importMain(Path classes) {
        return ArchConfiguration.withThreadLocalScope(config -> {
            config.setResolveMissingDependenciesFromClassPath(false);
            return new ClassFileImporter()
                    .withImportOption(new ImportOption.DoNotIncludeTests())
                    .importPath(classes);
        });
    }

    private static String report(String module, List<Violation> violations) {
        Map<Rule, List<Violation>> byRule = new TreeMap<>();
        violations.forEach(
                v -> byRule.computeIfAbsent(v.rule(), r -> new ArrayList<>()).add(v));
        StringBuilder out = new StringBuilder(violations.size()
                + " violation(s) of Weir's code rules (io.weir.rules.CodeRules) in " + module + ":\n");
        byRule.forEach((rule, list) -> {
            out.append('\n').append(rule).append(' ').append(rule.title()).append('\n');
            out.append("  why: ").append(rule.why()).append('\n');
            out.append("  fix: ").append(rule.fix()).append('\n');
            list.forEach(v -> out.append("  ")
                    .append(v.where())
                    .append(": ")
                    .append(v.what())
                    .append('\n'));
        });
        return out.toString();
    }

    private static String moduleName(Path moduleDir) {
        Path name = moduleDir.toAbsolutePath().normalize().getFileName();
        return name == null ? moduleDir.toString() : name.toString();
    }
}
