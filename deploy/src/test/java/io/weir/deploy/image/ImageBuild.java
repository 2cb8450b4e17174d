package io.weir.deploy.image;

import io.weir.testkit.Command;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assertions;

/**
 * Builds the samples image with {@code deploy/containers/build-image.sh}, or a service project's
 * image with {@code build-project-image.sh} (both install Podman when missing and make the JRE base
 * from Debian's packages once per machine), and returns its image id. Its callers are container
 * tests of the {@code full} group, run only when asked for: when the prerequisites cannot be had
 * (not root, no apt-get) the calling test fails, saying why, rather than skipping (a skip would
 * pass a run, on CI or elsewhere, that checked nothing).
 */
final class ImageBuild {

    /** Includes making the base image on a machine's first run (about a minute) and installing Podman. */
    private static final Duration TIMEOUT = Duration.ofMinutes(12);

    private static final int EXIT_PREREQUISITES = 3;

    private ImageBuild() {}

    /** The repository root: Failsafe runs in the module's directory, deploy/. */
    static Path repositoryRoot() {
        Path root = Path.of("").toAbsolutePath().getParent();
        if (!Files.exists(root.resolve("Dockerfile"))) {
            throw new IllegalStateException("no Dockerfile in " + root + ": run from the deploy module");
        }
        return root;
    }

    /** The image built in this JVM: every test class of a run uses the same one, built once. */
    private static String built;

    /** Builds the image once per JVM and returns its id; fails, naming what is missing, when it cannot. */
    static synchronized String build() {
        if (built == null) {
            built = buildNow();
        }
        return built;
    }

    private static String buildNow() {
        return script("build-image.sh", List.of());
    }

    /**
     * Builds the image of a service project from its own Dockerfile, after its {@code mvn package},
     * on the same JRE base ({@code deploy/containers/build-project-image.sh}), tagged {@code tag};
     * returns its image id. Fails as {@link #build()} does.
     */
    static String buildProject(Path project, String tag) {
        return script("build-project-image.sh", List.of(project.toString(), tag));
    }

    /** Runs {@code deploy/containers/<name> args... --iidfile F} and returns the id of the image it built. */
    private static String script(String name, List<String> args) {
        Path root = repositoryRoot();
        try {
            Path iidFile = Files.createTempFile("weir-image-", ".iid");
            List<String> command = new ArrayList<>(
                    List.of("bash", root.resolve("deploy/containers/" + name).toString()));
            command.addAll(args);
            command.addAll(List.of("--iidfile", iidFile.toString()));
            Command.Result r = Command.run(command, TIMEOUT, Map.of());
            System.out.println(r.output()
                    .lines()
                    .filter(l -> !l.startsWith("STEP ") && !l.startsWith("--> "))
                    .reduce("", (a, b) -> a + b + "\n"));
            if (r.exitCode() == EXIT_PREREQUISITES) {
                String reason = "cannot run containers here: "
                        + r.output()
                                .lines()
                                .filter(l -> l.contains("ERROR"))
                                .findFirst()
                                .orElse("prerequisites missing");
                Assertions.fail(reason + " (a test of the full group: run it where " + name + " can install"
                        + " Podman and build the image, as root with apt-get)");
            }
            r.requireSuccess("deploy/containers/" + name);
            String id = Files.readString(iidFile).trim();
            Files.deleteIfExists(iidFile);
            return id;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
