package io.weir.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Logging configurations that keep child JVMs quiet: WARN for everything, INFO for
 * {@code io.weir}, to stdout (which {@link ChildJvm} writes to its output file). A broker logs
 * thousands of INFO lines while starting; at WARN its log stays short enough to read when a test
 * fails, and writing it costs no CPU the test needs. Repeats cannot flood it: the logback file
 * uses Weir's {@code RepeatedMessageFilter} when weir-framework is on this JVM's class path (a
 * child gets the same class path), the log4j2 file a {@code BurstFilter}.
 *
 * <p>Guarantees: the files exist for the life of this JVM (written once to the temp directory,
 * deleted on exit); the options work whichever of logback or log4j2 is the child's SLF4J
 * binding (each framework ignores the other's property).
 */
public final class QuietLogging {

    private QuietLogging() {}

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
        return List.of(
                "-Dlogback.configurationFile=" + logbackConfigFile(),
                "-Dlog4j2.configurationFile=" + log4j2ConfigFile());
    }

    /** Lazy holder: the files are written on first use, once, thread-safely. */
    private static final class Holder {
        private static final String FILTER_CLASS = "io.weir.logging.RepeatedMessageFilter";
        private static final String NOISE_CLASS = "io.weir.logging.ExpectedKafkaNoise";
        private static final String FILTER_PLACEHOLDER = "<!--REPEATED_MESSAGE_FILTER-->";

        static final Path LOGBACK = copy("quiet-logback.xml");
        static final Path LOG4J2 = copy("quiet-log4j2.xml");

        private static Path copy(String resource) {
            try (InputStream in = QuietLogging.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("Missing resource " + resource + " in weir-testkit");
                }
                // Expected Kafka noise is dropped before it counts as a repeat.
                String filter = filterAvailable()
                        ? "<turboFilter class=\"" + NOISE_CLASS + "\"/>\n  <turboFilter class=\"" + FILTER_CLASS
                                + "\"/>"
                        : "";
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace(FILTER_PLACEHOLDER, filter);
                Path file = Files.createTempFile("weir-" + resource.replace(".xml", "-"), ".xml");
                Files.writeString(file, text);
                file.toFile().deleteOnExit();
                return file;
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write " + resource, e);
            }
        }

        /** Whether the filter can be loaded; logback reports a class it cannot load as a configuration error. */
        private static boolean filterAvailable() {
            try {
                Class.forName(FILTER_CLASS, false, QuietLogging.class.getClassLoader());
                return true;
            } catch (ClassNotFoundException | LinkageError e) {
                return false;
            }
        }
    }
}
