package io.weir.testkit;

import io.weir.common.internal.Worker;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.jar.JarFile;
import org.slf4j.LoggerFactory;

/**
 * A real schema registry for tests, started like the child-process brokers: Apicurio Registry
 * (module {@code test-registry}, built from Maven Central into one jar) in its own JVM, with
 * in-memory storage, on a free loopback port. {@link #url()} is its Confluent-compatible API, the
 * address a registry serde is given.
 *
 * <p>Guarantees: {@link #start()} returns once the registry answers ready; the process never
 * outlives the test JVM; {@link #close()} stops it. The jar is {@value #JAR_PROPERTY} when that property is
 * set, else {@code test-registry/target/quarkus-app/quarkus-run.jar} of the repository; a missing jar fails with a
 * message saying how to build it.
 */
public final class SchemaRegistryServer implements AutoCloseable {

    /** The system property naming the registry's runnable jar. */
    public static final String JAR_PROPERTY = "weir.test.registry.jar";

    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private final ChildJvm process;
    private final int port;

    private SchemaRegistryServer(ChildJvm process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * One registry for the whole test JVM, started on first use and stopped when the JVM exits
     * (as every child process is): test classes that use unique subjects share it and pay its
     * start-up (about 10 s) once.
     */
    public static SchemaRegistryServer shared() {
        return Shared.SERVER;
    }

    /** Started on first use of {@link #shared()}. */
    private static final class Shared {
        static final SchemaRegistryServer SERVER = start();
    }

    /** Starts a registry and waits until it is ready. */
    public static SchemaRegistryServer start() {
        Path jar = jar();
        return FreePorts.retryIfTaken("schema registry", () -> start(jar, FreePorts.pick(1)[0]));
    }

    private static SchemaRegistryServer start(Path jar, int port) {
        ChildJvm jvm = ChildJvm.builder(mainClass(jar))
                // ParentWatch (which keeps the child from outliving this JVM) needs Weir's common
                // classes and SLF4J's API beside the registry's own.
                .classpath(String.join(
                        File.pathSeparator, jar.toString(), codeSource(Worker.class), codeSource(LoggerFactory.class)))
                // C1 only and a small heap: it holds a few schemas, and starts faster so.
                .jvmOptions("-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")
                .systemProperty("quarkus.http.port", Integer.toString(port))
                .systemProperty("quarkus.http.host", "127.0.0.1")
                .systemProperty("quarkus.log.level", "WARN")
                .systemProperty("quarkus.log.category.\"io.apicurio\".level", "WARN")
                .start();
        SchemaRegistryServer server = new SchemaRegistryServer(jvm, port);
        HttpProbe probe = HttpProbe.localhost(port);
        try {
            Await.until(START_TIMEOUT, () -> "schema registry ready on port " + port, () -> {
                if (!jvm.isAlive()) {
                    throw new Await.GiveUp(
                            "the registry exited (" + jvm.exitCode() + "); output tail:\n" + jvm.outputTail(30));
                }
                return probe.status("/health/ready") == 200;
            });
        } catch (RuntimeException e) {
            jvm.close();
            throw e;
        }
        return server;
    }

    /** The Confluent-compatible API, {@code http://127.0.0.1:<port>/apis/ccompat/v7}. */
    public String url() {
        return "http://127.0.0.1:" + port + "/apis/ccompat/v7";
    }

    @Override
    public void close() {
        process.close();
    }

    private static String mainClass(Path jar) {
        try (JarFile f = new JarFile(jar.toFile())) {
            return f.getManifest().getMainAttributes().getValue("Main-Class");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the manifest of " + jar, e);
        }
    }

    private static String codeSource(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static Path jar() {
        String given = System.getProperty(JAR_PROPERTY);
        if (given != null && !given.isBlank()) {
            Path p = Path.of(given);
            if (!Files.isRegularFile(p)) {
                throw new IllegalStateException(JAR_PROPERTY + "=" + given + " is not a file");
            }
            return p;
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Optional<Path> found = runner(dir.resolve("test-registry/target"));
            if (found.isPresent()) {
                return found.get();
            }
        }
        throw new IllegalStateException("no test schema registry jar: build it with"
                + " `mvn -B -pl test-registry package` (or set " + JAR_PROPERTY + ")");
    }

    private static Optional<Path> runner(Path target) {
        Path jar = target.resolve("quarkus-app/quarkus-run.jar");
        return Files.isRegularFile(jar) ? Optional.of(jar) : Optional.empty();
    }
}
