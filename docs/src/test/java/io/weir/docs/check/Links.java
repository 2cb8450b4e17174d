package io.weir.docs.check;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The relative links of the guide: each must name a file of the repository, and its
 * {@code #anchor} a heading of the Markdown page it names (GitHub's anchors, see
 * {@link Page#anchors()}). External links (http, https, mailto, ftp) are not followed.
 */
final class Links {

    private final Path root;
    private final Map<Path, Set<String>> anchors = new HashMap<>();

    Links(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** One line per broken link of {@code page}, with the page, the line and why. */
    List<String> check(Page page) {
        List<String> problems = new ArrayList<>();
        for (Page.Link link : page.links()) {
            problem(page, link.target())
                    .ifPresent(p -> problems.add(Guide.relative(root, page.path()) + ":" + (link.line() + 1) + ": link "
                            + link.target() + ": " + p));
        }
        return problems;
    }

    private Optional<String> problem(Page page, String target) {
        if (target.matches("(?i)(https?|mailto|ftp):.*")) {
            return Optional.empty();
        }
        String[] parts = target.split("#", 2);
        Path file = parts[0].isEmpty()
                ? page.path().toAbsolutePath().normalize()
                : page.path().toAbsolutePath().getParent().resolve(parts[0]).normalize();
        if (!file.startsWith(root)) {
            return Optional.of("points outside the repository");
        }
        if (!Files.exists(file)) {
            return Optional.of(Guide.relative(root, file) + " does not exist");
        }
        if (parts.length < 2) {
            return Optional.empty();
        }
        if (Files.isDirectory(file) || !file.getFileName().toString().endsWith(".md")) {
            return Optional.of("an anchor into a file that is not a Markdown page cannot be checked");
        }
        if (!anchors.computeIfAbsent(file, f -> Page.read(f).anchors()).contains(parts[1])) {
            return Optional.of("no heading of " + Guide.relative(root, file) + " has the anchor #" + parts[1]);
        }
        return Optional.empty();
    }
}
