package io.weir.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Logging configurations that keep child JVMs quiet: WARN for everything, INFO for
 * {@code io.weir}, to stdout (which {@link ChildJvm} writes to its output file). A broker logs
 * thousands of INFO lines while starting; at WARN its log stays short enough to read when a test
 * fails, and writing it costs no CPU the test needs.
 *
 * <p>Guarantees: the files exist for the life of this JVM (written once to the temp directory,
 * deleted on exit); the options work whichever of logback or log4j2 is the child's SLF4J
 * binding (each framework ignores the other's property).
 */
public final class QuietLogging {

    private QuietLogging() {
    }

    /** A logback configuration file for {@code -Dlogback.configurationFile}. */
    public static Path logbackConfigFile() {
        return Holder.LOGBACK;
    }

    /** A log4j2 configuration file for {@code -Dlog4j2.configurationFile}. */
    public static Path log4j2ConfigFile() {
        return Holder.LOG4J2;
    }

    /** The JVM options that point a child at both files. */
    public static List<String> jvmOptions() {
        return List.of("-Dlogback.configurationFile=" + logbackConfigFile(),
                "-Dlog4j2.configurationFile=" + log4j2ConfigFile());
    }

    /** Lazy holder: the files are written on first use, once, thread-safely. */
    private static final class Holder {
        static final Path LOGBACK = copy("quiet-logback.xml");
        static final Path LOG4J2 = copy("quiet-log4j2.xml");

        private static Path copy(String resource) {
            try (InputStream in = QuietLogging.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("Missing resource " + resource + " in weir-testkit");
                }
                Path file = Files.createTempFile("weir-" + resource.replace(".xml", "-"), ".xml");
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                file.toFile().deleteOnExit();
                return file;
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write " + resource, e);
            }
        }
    }
}
