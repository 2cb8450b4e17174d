package io.weir.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Class data sharing for the child JVMs a test build starts: an AppCDS archive of the classes the
 * children load from jars (the Kafka clients and broker, RocksDB's binding, Jackson, Micrometer,
 * Weir's modules other than the one under test), made once per set of jars and mapped by every
 * later child instead of loaded and verified again. The build's time is CPU-bound on two cores and
 * its integration tests start hundreds of JVMs; a child that creates Kafka clients, opens RocksDB
 * and writes JSON spent 2.3 CPU-seconds starting without an archive and 1.6 with one (6 December
 * 2026).
 *
 * <p>Off unless the build names a directory ({@value #DIRECTORY_PROPERTY}; the root pom gives each
 * module's {@code target/child-cds}). Java 17 archives classes from jars only and refuses a
 * classpath holding a non-empty directory when it dumps, but maps an archive whose classpath is a
 * prefix of the child's: so a child's classpath lists its jars first, in their order, and the
 * directories (the module's own classes) after them. The first child of a set of jars records the
 * classes it loads ({@code -XX:DumpLoadedClassList}); a later start dumps the archive from that
 * list on a thread of its own, the children started after it use it. Dumping happens once per set
 * of jars across the module's test JVMs (a lock file), and a child never waits for it. An archive
 * the JVM cannot use (another JDK) is skipped by the JVM itself ({@code -Xshare:auto}) and its
 * warnings are silenced.
 */
final class ChildClassData {

    /** The system property naming the directory for class lists and archives. */
    static final String DIRECTORY_PROPERTY = "weir.test.child.cds.dir";

    private static final Duration DUMP_TIMEOUT = Duration.ofMinutes(3);

    /** A child's classpath, in the order the archive needs, and the options that use or make it. */
    record Launch(String classpath, List<String> jvmOptions) {}

    private ChildClassData() {}

    /**
     * How to start a child on {@code classpath} with its archive in {@code directory}: unchanged
     * when the directory is blank (the build asks for no archive).
     */
    static Launch launch(String classpath, String directory) {
        if (directory.isBlank()) {
            return new Launch(classpath, List.of());
        }
        List<String> jars = new ArrayList<>();
        List<String> others = new ArrayList<>();
        for (String entry : classpath.split(java.io.File.pathSeparator)) {
            if (entry.endsWith(".jar") && Files.isRegularFile(Path.of(entry))) {
                jars.add(entry);
            } else if (!entry.isEmpty()) {
                others.add(entry);
            }
        }
        if (jars.isEmpty()) {
            return new Launch(classpath, List.of());
        }
        String jarPath = String.join(java.io.File.pathSeparator, jars);
        List<String> ordered = new ArrayList<>(jars);
        ordered.addAll(others);
        String reordered = String.join(java.io.File.pathSeparator, ordered);
        try {
            Path dir = Files.createDirectories(Path.of(directory));
            String key = key(jars);
            Path archive = dir.resolve(key + ".jsa");
            if (Files.isRegularFile(archive)) {
                return new Launch(reordered, List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off"));
            }
            Path list = dir.resolve(key + ".classlist");
            if (Files.isRegularFile(list) && Files.size(list) > 0) {
                dumpInBackground(dir, key, list, archive, jarPath);
                return new Launch(reordered, List.of());
            }
            // The first child of these jars records what it loads; a later start archives it.
            try {
                Files.createFile(dir.resolve(key + ".recording"));
            } catch (FileAlreadyExistsException e) {
                return new Launch(reordered, List.of());
            }
            return new Launch(reordered, List.of("-XX:DumpLoadedClassList=" + list));
        } catch (IOException e) {
            return new Launch(classpath, List.of());
        }
    }

    /**
     * Dumps the archive from a copy of the list (the recording child may still be adding to it, its
     * last line unfinished) to a temporary file moved into place when complete, so a child sees
     * either no archive or a whole one.
     */
    private static void dumpInBackground(Path dir, String key, Path list, Path archive, String jarPath) {
        try {
            Files.createFile(dir.resolve(key + ".dumping"));
        } catch (IOException e) {
            return; // this or another test JVM of the module dumps it, or did
        }
        Thread dumper = new Thread(
                () -> {
                    try {
                        List<String> lines = Files.readAllLines(list, StandardCharsets.UTF_8);
                        if (!lines.isEmpty()) {
                            lines.remove(lines.size() - 1);
                        }
                        Path copy = dir.resolve(key + ".classlist.copy");
                        Files.write(copy, lines, StandardCharsets.UTF_8);
                        Path partial = dir.resolve(key + ".jsa.partial");
                        Command.Result dumped = Command.run(
                                List.of(
                                        Path.of(System.getProperty("java.home"), "bin", "java")
                                                .toString(),
                                        "-Xshare:dump",
                                        "-XX:SharedClassListFile=" + copy,
                                        "-XX:SharedArchiveFile=" + partial,
                                        "-cp",
                                        jarPath),
                                DUMP_TIMEOUT,
                                Map.of());
                        Files.writeString(dir.resolve(key + ".dump.log"), dumped.output());
                        if (dumped.exitCode() == 0 && Files.isRegularFile(partial)) {
                            Files.move(partial, archive, StandardCopyOption.ATOMIC_MOVE);
                        }
                    } catch (IOException | RuntimeException e) {
                        // No archive: children start as they would without one.
                    }
                },
                "child-class-data-dump");
        dumper.setDaemon(true);
        dumper.start();
    }

    /**
     * One archive per JDK build and list of jars, each as it is now: the JVM refuses an archive
     * whose jars changed since the dump (a snapshot rebuilt in place), so a changed jar is a new key.
     */
    private static String key(List<String> jars) throws IOException {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(System.getProperty("java.home").getBytes(StandardCharsets.UTF_8));
            digest.update(System.getProperty("java.vm.version").getBytes(StandardCharsets.UTF_8));
            for (String jar : jars) {
                Path path = Path.of(jar);
                digest.update((jar + "|" + Files.size(path) + "|"
                                + Files.getLastModifiedTime(path).toMillis() + "\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(digest.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
