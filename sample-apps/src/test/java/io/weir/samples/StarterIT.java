package io.weir.samples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/**
 * The starter ({@code starter/} at the top of the repository) as a team uses it: copied to a new
 * directory and built there with plain Maven, against the Weir artifacts of this build, its unit
 * test and its integration test passing.
 *
 * <p>How the copy gets this build's artifacts: a nested {@code mvn install -Dmaven.test.skip=true
 * -pl framework,testkit -am} from the repository root, the way docs/getting-started.md tells users
 * to get Weir. In a {@code verify} of the whole project those modules are already compiled and packaged,
 * so it only installs them (a few seconds). It installs into a local repository of this test's own
 * that shares every other artifact with the build's local repository through symbolic links:
 * Kafka and the plugins are not downloaded again, and the {@code io.weir} snapshots in the user's
 * local repository stay as they were, whatever other builds on the same machine install meanwhile.
 * (Maven 3.9's {@code maven.repo.local.tail} does this properly; this works with Maven 3.8 too.)
 *
 * <p>Maven is found through {@code weir.maven.home} (the failsafe configuration passes the running
 * Maven's home), then {@code MAVEN_HOME} or {@code M2_HOME}, then {@code PATH}. Both builds run
 * with the JDK of this test and with {@code -o} when this build is offline, each with a deadline;
 * their output goes to a file whose end the failure message shows (the temporary directory is
 * kept when the test fails).
 *
 * <p>Tagged {@code full}: a nested build of its own, run by {@code mvn verify -Pfull}.
 */
@Tag("full")
class StarterIT {

    private static final Duration INSTALL_DEADLINE = Duration.ofMinutes(5);
    private static final Duration BUILD_DEADLINE = Duration.ofMinutes(5);
    private static final int LOG_LINES_SHOWN = 120;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path work;

    @Test
    void copiedStarterBuildsAgainstThisBuildAndPassesItsUnitAndIntegrationTests() throws Exception {
        Path root = repositoryRoot();
        Path repository = isolatedLocalRepository(sharedLocalRepository(), work.resolve("repository"));

        maven(
                "install-weir",
                root,
                repository,
                INSTALL_DEADLINE,
                "-q",
                "install",
                "-Dmaven.test.skip=true",
                "-pl",
                "framework,testkit",
                "-am");
        assertThat(repository.resolve("io/weir/weir-framework"))
                .as("Weir installed in the test's repository")
                .isDirectory();
        Path service = work.resolve("my-service");
        copyStarter(root.resolve("starter"), service);
        maven("verify-starter", service, repository, BUILD_DEADLINE, "verify");

        assertPassed(service.resolve("target/surefire-reports"), "unit tests");
        assertPassed(service.resolve("target/failsafe-reports"), "integration tests");
        assertThat(service.resolve("target/my-weir-service.jar"))
                .as("the packaged service")
                .isRegularFile();
    }

    // ---- the builds --------------------------------------------------------------------------

    private void maven(String name, Path dir, Path repository, Duration deadline, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(mvn(), "-B", "-Dmaven.repo.local=" + repository));
        command.addAll(List.of(args));
        Path log = work.resolve(name + ".log");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        long started = System.nanoTime();
        Process process = builder.start();
        if (!process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
            // Maven's forked test JVMs first, so none outlives the test.
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            fail("%s did not finish within %d s: %s%n%s", name, deadline.toSeconds(), command, tail(log));
        }
        if (process.exitValue() != 0) {
            fail("%s exited with %d: %s%n%s", name, process.exitValue(), command, tail(log));
        }
        System.out.printf(Locale.ROOT, "StarterIT: %s took %.1f s%n", name, (System.nanoTime() - started) / 1e9);
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
        List<String> lines = Files.readAllLines(log);
        return "---- last " + LOG_LINES_SHOWN + " lines of " + log + System.lineSeparator()
                + String.join(
                        System.lineSeparator(),
                        lines.subList(Math.max(0, lines.size() - LOG_LINES_SHOWN), lines.size()));
    }

    // ---- the local repository ----------------------------------------------------------------

    /** The local repository of the build running this test (the failsafe configuration says which). */
    private static Path sharedLocalRepository() {
        String configured = System.getProperty("weir.maven.localRepository");
        return configured != null && !configured.isBlank()
                ? Path.of(configured)
                : Path.of(System.getProperty("user.home"), ".m2", "repository");
    }

    /**
     * A local repository at {@code dir} whose {@code io/weir} is its own and whose every other
     * group directory is a symbolic link into {@code shared}: what the nested builds install stays
     * here, what they download lands in {@code shared} as in any build. JUnit deletes the links
     * with the temporary directory, not what they point to.
     */
    private static Path isolatedLocalRepository(Path shared, Path dir) throws IOException {
        Files.createDirectories(dir.resolve("io"));
        linkAllBut(shared, dir, "io");
        linkAllBut(shared.resolve("io"), dir.resolve("io"), "weir");
        return dir;
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

    // ---- the starter and its results ---------------------------------------------------------

    private static Path repositoryRoot() {
        Path module = Path.of(System.getProperty("basedir", "")).toAbsolutePath(); // failsafe sets basedir
        Path root = module.getParent();
        assertThat(root.resolve("starter/pom.xml"))
                .as("the starter, from %s", module)
                .isRegularFile();
        return root;
    }

    /** Copies the starter as {@code cp -r} would, without the output of a build run inside it. */
    private static void copyStarter(Path starter, Path copy) throws IOException {
        try (Stream<Path> files = Files.walk(starter)) {
            for (Path from : files.filter(p -> !starter.relativize(p).startsWith("target"))
                    .toList()) {
                Path to = copy.resolve(starter.relativize(from).toString());
                if (Files.isDirectory(from)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(from, to);
                }
            }
        }
    }

    /** Asserts that the JUnit XML reports in {@code dir} hold at least one test and no failure. */
    private static void assertPassed(Path dir, String what) throws Exception {
        assertThat(dir).as("%s reports", what).isDirectory();
        int tests = 0;
        int failed = 0;
        List<String> suites = new ArrayList<>();
        try (Stream<Path> reports = Files.list(dir)) {
            for (Path report : reports.filter(p -> p.getFileName().toString().matches("TEST-.*\\.xml"))
                    .toList()) {
                Element suite = DocumentBuilderFactory.newInstance()
                        .newDocumentBuilder()
                        .parse(report.toFile())
                        .getDocumentElement();
                int suiteTests = count(suite, "tests");
                int suiteFailed = count(suite, "failures") + count(suite, "errors") + count(suite, "skipped");
                tests += suiteTests;
                failed += suiteFailed;
                suites.add(suite.getAttribute("name") + " " + suiteTests + " run, " + suiteFailed + " not passed");
            }
        }
        assertThat(tests).as("%s run: %s", what, suites).isPositive();
        assertThat(failed)
                .as("%s failed, in error or skipped: %s", what, suites)
                .isZero();
    }

    private static int count(Element suite, String attribute) {
        String value = suite.getAttribute(attribute);
        return value.isEmpty() ? 0 : Integer.parseInt(value);
    }
}
