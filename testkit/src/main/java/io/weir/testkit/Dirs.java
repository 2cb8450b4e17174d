package io.weir.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** File helpers for the temporary directories brokers and child JVMs write to. */
final class Dirs {

    private Dirs() {}

    static Path createTemp(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a temporary directory", e);
        }
    }

    /** Deletes {@code dir} and everything below it; a missing directory is not an error. */
    static void deleteRecursively(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(Dirs::deleteQuietly);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + dir, e);
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // A file still held by a dying process: leave it for the OS temp cleaner rather than
            // failing a test's tear-down.
        }
    }
}
