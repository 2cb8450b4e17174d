package io.weir.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;

/**
 * Maven run by a test the way a user runs it, for the tests that build a project of the repository
 * (the starter, the tutorial's service) as a copy in a new directory, against this build's Weir.
 *
 * <p>The nested builds share one local repository of their own, under the test's work directory:
 * its {@code io/weir} is its own, every other group directory is a symbolic link into the local
 * repository of the build running the test. What {@link #installWeir} installs stays there, what
 * the builds download lands in the shared repository as in any build (Kafka and the plugins are not
 * downloaded again), and the {@code io.weir} snapshots in the user's local repository stay as they
 * were, whatever other builds on the same machine install meanwhile. (Maven 3.9's {@code
 * maven.repo.local.tail} does this properly; this works with Maven 3.8 too.) Deleting the work
 * directory deletes the links, not what they point to; {@link #close()} deletes them first, so that
 * JUnit's {@code @TempDir} does not warn about each.
 *
 * <p>The build's configuration, given to the test JVM as system properties (the failsafe
 * configuration of the modules that use this class passes them): {@code weir.maven.home}, the
 * running Maven's home (else {@code MAVEN_HOME} or {@code M2_HOME}, else {@code mvn} on the {@code
 * PATH}); {@code weir.maven.localRepository}, the shared local repository (else {@code
 * ~/.m2/repository}). Every build runs with the JDK of the test, in batch mode, with a deadline;
 * its output goes to {@code <work>/<name>.log}, whose end a failure shows. They run online even
 * when the outer build is offline ({@code settings.offline} reaches Failsafe as a Boolean, which
 * its system properties refuse); with every artifact in the shared repository they download
 * nothing.
 *
 * <p>Not thread-safe: one test's builds, one after the other; closed when they are done.
 */
public final class NestedMaven implements AutoCloseable {

    private static final int LOG_LINES_SHOWN = 120;

    private final Path work;
    private final Path repository;

    private NestedMaven(Path work, Path repository) {
        this.work = work;
        this.repository = repository;
    }

    /** Builds that log to {@code work} and install into {@code work/repository} (made here, as described above). */
    public static NestedMaven isolated(Path work) {
        try {
            Path repository = work.resolve("repository");
            Path shared = sharedLocalRepository();
            Files.createDirectories(repository.resolve("io"));
            linkAllBut(shared, repository, "io");
            linkAllBut(shared.resolve("io"), repository.resolve("io"), "weir");
            return new NestedMaven(work, repository);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a local repository in " + work, e);
        }
    }

    /** The local repository the builds install into. */
    public Path repository() {
        return repository;
    }

    /**
     * Installs the Weir of the repository at {@code root} into {@link #repository()} as
     * docs/getting-started.md tells users to get it, limited to what a service and its image need: {@code mvn
     * install -DskipTests -pl framework,testkit,cli -am}. In a {@code verify} of the whole
     * project those modules are already compiled and packaged, so it only installs them.
     *
     * @return how long it took
     */
    public Duration installWeir(Path root, Duration deadline) {
        Duration took = run(
                "install-weir",
                root,
                deadline,
                "-q",
                "install",
                // Not maven.test.skip: the CLI depends on the framework's test-jar (its test
                // applications), which that would not build.
                "-DskipTests",
                "-pl",
                "framework,testkit,cli",
                "-am");
        if (!Files.isDirectory(repository.resolve("io/weir/weir-framework"))) {
            throw new AssertionError("install-weir installed no weir-framework in " + repository);
        }
        return took;
    }

    /**
     * Runs {@code mvn -B -Dmaven.repo.local=<repository> args...} in {@code dir}; fails with
     * the end of its output when it exits with a status other than 0, or when it is still running
     * at {@code deadline} (then it and the JVMs it forked are killed).
     *
     * @param name names the log file and the failure
     * @return how long it took
     */
    public Duration run(String name, Path dir, Duration deadline, String... args) {
        List<String> command = new ArrayList<>(List.of(mvn(), "-B", "-Dmaven.repo.local=" + repository));
        command.addAll(List.of(args));
        Path log = work.resolve(name + ".log");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        long started = System.nanoTime();
        try {
            Process process = builder.start();
            if (!process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
                // Maven's forked test JVMs first, so none outlives the test.
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                throw new AssertionError(String.format(
                        Locale.ROOT,
                        "%s did not finish within %d s: %s%n%s",
                        name,
                        deadline.toSeconds(),
                        command,
                        tail(log)));
            }
            if (process.exitValue() != 0) {
                throw new AssertionError(String.format(
                        Locale.ROOT, "%s exited with %d: %s%n%s", name, process.exitValue(), command, tail(log)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + name, e);
        }
        return Duration.ofNanos(System.nanoTime() - started);
    }

    /**
     * Deletes the repository's links into the shared one (never what they point to); the builds'
     * logs, outputs and installed {@code io/weir} stay.
     */
    @Override
    public void close() {
        try {
            for (Path dir : List.of(repository, repository.resolve("io"))) {
                try (Stream<Path> entries = Files.list(dir)) {
                    for (Path link : entries.filter(Files::isSymbolicLink).toList()) {
                        Files.delete(link);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the links of " + repository, e);
        }
    }

    /**
     * Copies the project at {@code project} to {@code copy} (which must not exist yet) as {@code
     * cp -r} would, without the output of a build run inside it ({@code target/}).
     *
     * @return {@code copy}
     */
    public static Path copyProject(Path project, Path copy) {
        try (Stream<Path> files = Files.walk(project)) {
            for (Path from : files.filter(p -> !project.relativize(p).startsWith("target"))
                    .toList()) {
                Path to = copy.resolve(project.relativize(from).toString());
                if (Files.isDirectory(from)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(from, to);
                }
            }
            return copy;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + project + " to " + copy, e);
        }
    }

    /**
     * Asserts that the JUnit XML reports in {@code reports} (Surefire's or Failsafe's) hold at least
     * one test, that none failed, errored or was skipped, and that each of {@code suites} (a test
     * class, by its simple or its qualified name) ran at least one test.
     */
    public static void assertPassed(Path reports, String... suites) {
        if (!Files.isDirectory(reports)) {
            throw new AssertionError("no test reports in " + reports);
        }
        List<String> summary = new ArrayList<>();
        List<String> ran = new ArrayList<>();
        int tests = 0;
        int notPassed = 0;
        try (Stream<Path> files = Files.list(reports)) {
            for (Path report : files.filter(p -> p.getFileName().toString().matches("TEST-.*\\.xml"))
                    .sorted()
                    .toList()) {
                Element suite = DocumentBuilderFactory.newInstance()
                        .newDocumentBuilder()
                        .parse(report.toFile())
                        .getDocumentElement();
                String name = suite.getAttribute("name");
                int suiteTests = count(suite, "tests");
                int suiteNotPassed = count(suite, "failures") + count(suite, "errors") + count(suite, "skipped");
                tests += suiteTests;
                notPassed += suiteNotPassed;
                summary.add(name + " " + suiteTests + " run, " + suiteNotPassed + " not passed");
                if (suiteTests > 0) {
                    ran.add(name);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the reports in " + reports, e);
        } catch (Exception e) {
            throw new AssertionError("unreadable test report in " + reports, e);
        }
        if (tests == 0 || notPassed > 0) {
            throw new AssertionError(
                    reports + ": " + tests + " test(s) run, " + notPassed + " failed, in error or skipped: " + summary);
        }
        for (String expected : suites) {
            if (ran.stream().noneMatch(n -> n.equals(expected) || n.endsWith("." + expected))) {
                throw new AssertionError(reports + " has no report of " + expected + ": " + summary);
            }
        }
    }

    private static int count(Element suite, String attribute) {
        String value = suite.getAttribute(attribute);
        return value.isEmpty() ? 0 : Integer.parseInt(value);
    }

    /** The running Maven's {@code bin/mvn}, else Maven of {@code MAVEN_HOME}/{@code M2_HOME}, else {@code PATH}'s. */
    private static String mvn() {
        String script =
                System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("windows") ? "mvn.cmd" : "mvn";
        for (String home : new String[] {
            System.getProperty("weir.maven.home"), System.getenv("MAVEN_HOME"), System.getenv("M2_HOME")
        }) {
            if (home != null && !home.isBlank() && Files.isExecutable(Path.of(home, "bin", script))) {
                return Path.of(home, "bin", script).toString();
            }
        }
        return script; // resolved through PATH by ProcessBuilder
    }

    /** The end of a build's output, for the failure message. */
    private static String tail(Path log) throws IOException {
        // Decoded leniently: a test's output may hold bytes that are not UTF-8.
        List<String> lines = new String(Files.readAllBytes(log), StandardCharsets.UTF_8)
                .lines()
                .toList();
        return "---- last " + LOG_LINES_SHOWN + " lines of " + log + System.lineSeparator()
                + String.join(
                        System.lineSeparator(),
                        lines.subList(Math.max(0, lines.size() - LOG_LINES_SHOWN), lines.size()));
    }

    private static Path sharedLocalRepository() {
        String configured = System.getProperty("weir.maven.localRepository");
        return configured != null && !configured.isBlank()
                ? Path.of(configured)
                : Path.of(System.getProperty("user.home"), ".m2", "repository");
    }

    private static void linkAllBut(Path from, Path to, String excluded) throws IOException {
        if (!Files.isDirectory(from)) {
            return;
        }
        try (Stream<Path> entries = Files.list(from)) {
            for (Path entry : entries.toList()) {
                String name = entry.getFileName().toString();
                if (!name.equals(excluded)) {
                    Files.createSymbolicLink(to.resolve(name), entry.toAbsolutePath());
                }
            }
        }
    }
}
