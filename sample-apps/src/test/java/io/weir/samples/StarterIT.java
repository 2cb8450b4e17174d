package io.weir.samples;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.testkit.NestedMaven;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The starter ({@code starter/} at the top of the repository) as a team uses it: copied to a new
 * directory and built there with plain Maven, against the Weir artifacts of this build, its unit
 * test and its integration test passing.
 *
 * <p>How the copy gets this build's artifacts: {@link NestedMaven#installWeir} (a nested {@code mvn
 * install -DskipTests -pl framework,testkit,cli -am} from the repository root, the way
 * docs/getting-started.md tells users to get Weir) into a local repository of this test's own that
 * shares every other artifact with the build's (the failsafe configuration passes the running
 * Maven's home and local repository). The temporary directory, with the builds' logs, is kept when
 * the test fails.
 *
 * <p>Tagged {@code full}: a nested build of its own, run by {@code mvn verify -Pfull}.
 */
@Tag("full")
class StarterIT {

    private static final Duration INSTALL_DEADLINE = Duration.ofMinutes(5);
    private static final Duration BUILD_DEADLINE = Duration.ofMinutes(5);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path work;

    @Test
    void copiedStarterBuildsAgainstThisBuildAndPassesItsUnitAndIntegrationTests() {
        Path root = repositoryRoot();
        Path service = NestedMaven.copyProject(root.resolve("starter"), work.resolve("my-service"));
        try (NestedMaven maven = NestedMaven.isolated(work)) {
            figure("install-weir", maven.installWeir(root, INSTALL_DEADLINE));
            figure("verify-starter", maven.run("verify-starter", service, BUILD_DEADLINE, "verify"));
        }

        NestedMaven.assertPassed(service.resolve("target/surefire-reports"), "com.example.service.AlertServiceTest");
        NestedMaven.assertPassed(service.resolve("target/failsafe-reports"), "com.example.service.AlertServiceIT");
        assertThat(service.resolve("target/my-weir-service.jar"))
                .as("the packaged service")
                .isRegularFile();
    }

    private static Path repositoryRoot() {
        Path module = Path.of(System.getProperty("basedir", "")).toAbsolutePath(); // failsafe sets basedir
        Path root = module.getParent();
        assertThat(root.resolve("starter/pom.xml"))
                .as("the starter, from %s", module)
                .isRegularFile();
        return root;
    }

    private static void figure(String what, Duration took) {
        System.out.printf(Locale.ROOT, "FIGURE StarterIT %s: %.1f s%n", what, took.toMillis() / 1e3);
    }
}
