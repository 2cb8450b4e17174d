package io.weir.samples.common;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Temporary state directories of a sample run. */
public final class StateDirs {

    private static final Logger log = LoggerFactory.getLogger(StateDirs.class);

    private StateDirs() {}

    /** A new empty directory {@code <tmp>/<prefix>...}. */
    public static Path createTemp(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary state directory", e);
        }
    }

    /** Deletes {@code dir} and everything in it; logs instead of failing. */
    public static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            log.warn("Could not delete {}: {}", dir, e.toString());
        }
    }
}
