package io.weir.testkit;

import io.weir.common.internal.Deadline;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * A Java program started in its own JVM, for tests that need a real process: an application
 * instance to SIGKILL, a broker to bounce, a command-line tool to run.
 *
 * <p>Guarantees: the child runs {@code mainClass} on the current JVM's classpath unless another is
 * given; its stdout and stderr go to one file ({@link #outputFile()}), appended, so the output of a
 * previous process in the same file is kept but never matched by {@link #awaitOutput}; the child
 * never outlives this JVM, even when this JVM is SIGKILLed (it watches its parent); {@link #kill()}
 * and {@link #terminate()} return only after the process has exited; {@link #suspend()} and
 * {@link #resume()} freeze and thaw it (SIGSTOP, SIGCONT). Thread-safe.
 *
 * <pre>{@code
 * try (ChildJvm app = ChildJvm.builder(MyApp.class).args("--port", "0").systemProperty("x", "y").start()) {
 *     app.awaitOutput("started", Duration.ofSeconds(30));
 *     app.kill();
 * }
 * }</pre>
 */
public final class ChildJvm implements AutoCloseable {

    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(30);

    private final String mainClass;
    private final Process process;
    private final Path outputFile;
    private final long outputStart;

    private ChildJvm(String mainClass, Process process, Path outputFile, long outputStart) {
        this.mainClass = mainClass;
        this.process = process;
        this.outputFile = outputFile;
        this.outputStart = outputStart;
    }

    /** Options for a child JVM running {@code mainClass} (a fully qualified class name). */
    public static Builder builder(String mainClass) {
        return new Builder(mainClass);
    }

    /** Options for a child JVM running {@code mainClass}. */
    public static Builder builder(Class<?> mainClass) {
        return new Builder(mainClass.getName());
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The exit code, or empty while the process runs. */
    public OptionalInt exitCode() {
        return process.isAlive() ? OptionalInt.empty() : OptionalInt.of(process.exitValue());
    }

    /** Waits up to {@code timeout} for the process to exit by itself; returns its exit code. */
    public int awaitExit(Duration timeout) {
        if (!waitFor(timeout)) {
            throw new AssertionError(mainClass + " (pid " + pid() + ") still running after " + timeout.toMillis()
                    + " ms; output tail:\n" + outputTail(20));
        }
        return process.exitValue();
    }

    /**
     * Sends SIGKILL (no shutdown hooks, no flush, like {@code kill -9} or an OOM kill) and waits for
     * the process to be gone. Returns the exit code (137 on Linux). No-op on an exited process.
     */
    public int kill() {
        process.destroyForcibly();
        if (!waitFor(EXIT_TIMEOUT)) {
            throw new IllegalStateException(
                    mainClass + " (pid " + pid() + ") survived SIGKILL for " + EXIT_TIMEOUT.toSeconds() + " s");
        }
        return process.exitValue();
    }

    /**
     * Sends SIGSTOP: every thread of the process freezes at once while its sockets stay open, like
     * a long GC pause, a swapped-out process or a VM its host paused. Nothing answers until
     * {@link #resume()}; the process can still be killed. Returns once the signal was sent.
     */
    public void suspend() {
        signal("STOP");
    }

    /** Sends SIGCONT: a {@link #suspend() suspended} process runs on from where it stopped. */
    public void resume() {
        signal("CONT");
    }

    private void signal(String name) {
        if (!process.isAlive()) {
            throw new IllegalStateException(mainClass + " (pid " + pid() + ") has exited; cannot send SIG" + name);
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid()))
                    .redirectErrorStream(true)
                    .start();
            String said = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!kill.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + pid() + " failed: " + said);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run kill -" + name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while sending SIG" + name + " to " + mainClass, e);
        }
    }

    /** {@link #terminate(Duration)} with a 30 s timeout. */
    public int terminate() {
        return terminate(EXIT_TIMEOUT);
    }

    /**
     * Sends SIGTERM (shutdown hooks run, like {@code docker stop} or a Kubernetes pod deletion) and
     * waits up to {@code timeout}. If the process has not exited by then it is SIGKILLed and an
     * {@link AssertionError} is thrown: a graceful shutdown that hangs is a bug worth failing on.
     */
    public int terminate(Duration timeout) {
        process.destroy();
        if (!waitFor(timeout)) {
            kill();
            throw new AssertionError(mainClass + " (pid " + pid() + ") did not exit within " + timeout.toMillis()
                    + " ms of SIGTERM and was killed; output tail:\n" + outputTail(20));
        }
        return process.exitValue();
    }

    /** The file holding the child's stdout and stderr. */
    public Path outputFile() {
        return outputFile;
    }

    /** The last {@code lines} lines this process wrote (stdout and stderr interleaved). */
    public String outputTail(int lines) {
        String out = readOutput(1 << 20);
        String[] all = out.split("\r?\n", -1);
        int end = all.length > 0 && all[all.length - 1].isEmpty() ? all.length - 1 : all.length;
        return String.join("\n", Arrays.asList(all).subList(Math.max(0, end - lines), end));
    }

    /** This process's output so far (at most the last 16 MiB). */
    public String output() {
        return readOutput(16 << 20);
    }

    /**
     * Waits until this process has written {@code text}. Throws {@link AssertionError} with the
     * output tail if the deadline passes or the process exits without writing it.
     */
    public void awaitOutput(String text, Duration timeout) {
        Deadline deadline = Deadline.after(timeout);
        while (true) {
            boolean exited = !process.isAlive(); // read before the output, so no late line is missed
            if (output().contains(text)) {
                return;
            }
            if (exited) {
                throw new AssertionError(mainClass + " exited with " + process.exitValue() + " without printing '"
                        + text + "'; output tail:\n" + outputTail(30));
            }
            if (deadline.expired()) {
                throw new AssertionError(mainClass + " did not print '" + text + "' within " + timeout.toMillis()
                        + " ms; output tail:\n" + outputTail(30));
            }
            waitFor(Duration.ofMillis(50)); // the polling interval; returns early if the process exits
        }
    }

    /** SIGKILLs the process if it still runs. */
    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }

    @Override
    public String toString() {
        return "ChildJvm[" + mainClass + ", pid " + pid() + (isAlive() ? ", alive" : ", exited") + "]";
    }

    private boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for " + mainClass, e);
        }
    }

    private String readOutput(int maxBytes) {
        try (RandomAccessFile file = new RandomAccessFile(outputFile.toFile(), "r")) {
            long from = Math.max(outputStart, file.length() - maxBytes);
            byte[] bytes = new byte[(int) (file.length() - from)];
            file.seek(from);
            file.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + outputFile, e);
        }
    }

    /** Options for {@link ChildJvm}; each method returns this builder. */
    public static final class Builder {
        /** The system property holding options for every child JVM the build starts. */
        public static final String BUILD_OPTIONS_PROPERTY = "weir.test.child.jvm.options";

        private final String mainClass;
        private final List<String> args = new ArrayList<>();
        private final List<String> jvmOptions = new ArrayList<>();
        private final Map<String, String> systemProperties = new LinkedHashMap<>();
        private final Map<String, String> env = new LinkedHashMap<>();
        private String classpath = System.getProperty("java.class.path");
        private Path outputFile;
        private Path workingDirectory;
        private String classDataDirectory = System.getProperty(ChildClassData.DIRECTORY_PROPERTY, "");

        private Builder(String mainClass) {
            this.mainClass = mainClass;
        }

        /** Program arguments, appended. */
        public Builder args(String... args) {
            this.args.addAll(List.of(args));
            return this;
        }

        /** Program arguments, appended. */
        public Builder args(List<String> args) {
            this.args.addAll(args);
            return this;
        }

        /** {@code -Dkey=value}. */
        public Builder systemProperty(String key, String value) {
            systemProperties.put(key, value);
            return this;
        }

        /** An environment variable, added to the current environment. */
        public Builder env(String key, String value) {
            env.put(key, value);
            return this;
        }

        /** JVM options such as {@code -Xmx256m}, appended. */
        public Builder jvmOptions(String... options) {
            jvmOptions.addAll(List.of(options));
            return this;
        }

        /** Adds {@link QuietLogging#jvmOptions()}: WARN-level logback and log4j2 configurations. */
        public Builder quietLogging() {
            jvmOptions.addAll(QuietLogging.jvmOptions());
            return this;
        }

        /** Replaces the classpath (default: this JVM's {@code java.class.path}). */
        public Builder classpath(String classpath) {
            this.classpath = classpath;
            return this;
        }

        /** Where stdout and stderr go, appended (default: a temporary file deleted when this JVM exits). */
        public Builder outputFile(Path outputFile) {
            this.outputFile = outputFile;
            return this;
        }

        /** The child's working directory (default: this JVM's). */
        public Builder workingDirectory(Path workingDirectory) {
            this.workingDirectory = workingDirectory;
            return this;
        }

        /**
         * Where this child's class data sharing archive is kept (default: the build's,
         * {@value ChildClassData#DIRECTORY_PROPERTY}; see {@link ChildClassData}).
         */
        Builder classDataDirectory(Path directory) {
            this.classDataDirectory = directory.toString();
            return this;
        }

        /** Starts the process; returns at once (wait for readiness with {@link #awaitOutput}). */
        public ChildJvm start() {
            try {
                Path out = outputFile;
                if (out == null) {
                    out = Files.createTempFile("weir-child-" + simpleName(mainClass) + "-", ".log");
                    // A file the caller did not ask for: failures quote its tail, so it can go
                    // when this JVM exits instead of piling up in the temp directory.
                    out.toFile().deleteOnExit();
                }
                Files.createDirectories(out.toAbsolutePath().getParent());
                long outputStart = Files.exists(out) ? Files.size(out) : 0;
                ProcessBuilder pb = new ProcessBuilder(command())
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile()));
                if (workingDirectory != null) {
                    pb.directory(workingDirectory.toFile());
                }
                pb.environment().putAll(env);
                Process process = pb.start();
                ChildReaper.register(process);
                return new ChildJvm(mainClass, process, out, outputStart);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot start " + mainClass, e);
            }
        }

        private List<String> command() {
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            ChildClassData.Launch launch = ChildClassData.launch(withTestkit(classpath), classDataDirectory);
            cmd.addAll(buildOptions());
            cmd.addAll(launch.jvmOptions());
            cmd.addAll(jvmOptions);
            systemProperties.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
            cmd.add("-D" + ParentWatch.PARENT_PID_PROPERTY + "="
                    + ProcessHandle.current().pid());
            cmd.add("-cp");
            cmd.add(launch.classpath());
            cmd.add(ParentWatch.class.getName());
            cmd.add(mainClass);
            cmd.addAll(args);
            return cmd;
        }

        /**
         * The options the build gives every child JVM, from {@value #BUILD_OPTIONS_PROPERTY}
         * (space-separated), before the caller's own: the test build uses it for start-up flags that
         * would otherwise be repeated in every test (see the root pom).
         */
        private static List<String> buildOptions() {
            String options = System.getProperty(BUILD_OPTIONS_PROPERTY, "").trim();
            return options.isEmpty() ? List.of() : List.of(options.split("\\s+"));
        }

        /** The classpath plus testkit's own location, which holds {@link ParentWatch}. */
        private static String withTestkit(String classpath) {
            try {
                String self = Path.of(ParentWatch.class
                                .getProtectionDomain()
                                .getCodeSource()
                                .getLocation()
                                .toURI())
                        .toString();
                return classpath == null || classpath.isEmpty() ? self : classpath + File.pathSeparator + self;
            } catch (URISyntaxException | RuntimeException e) {
                return classpath; // no code source (unusual class loader): rely on the given classpath
            }
        }

        private static String simpleName(String className) {
            return className.substring(className.lastIndexOf('.') + 1).replace('$', '-');
        }
    }
}
