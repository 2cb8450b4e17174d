package io.weir.docs.check;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where the user guide is: README.md at the top of the repository and the pages docs/*.md.
 * Everything here is relative to the repository root, which the tests (run in docs/) and
 * {@link UpdateDocs} (run from anywhere below the root) find by walking up.
 */
final class Guide {

    /** The command that rewrites every generated part of the guide, for messages. */
    static final String UPDATE_COMMAND = "mvn -B -q -pl docs -am process-test-classes -Pupdate-docs";

    private Guide() {}

    /** The nearest directory at or above the working directory that holds docs/pom.xml and README.md. */
    static Path root() {
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("docs/pom.xml")) && Files.isRegularFile(dir.resolve("README.md"))) {
                return dir;
            }
        }
        throw new IllegalStateException(
                "no repository root (a directory with docs/pom.xml and README.md) at or above " + start);
    }

    /** README.md, then the Markdown files directly in docs/, by name. */
    static List<Path> pages(Path root) {
        List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.getFileName().toString().endsWith(".md") && Files.isRegularFile(p))
                    .sorted()
                    .forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }

    /** {@code path} relative to the root, with forward slashes, for messages and markers. */
    static String relative(Path root, Path path) {
        return root.relativize(path.toAbsolutePath().normalize()).toString().replace('\\', '/');
    }
}
