package io.weir.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a program to its end, bounded by a time-out, and returns its exit status and output (stdout
 * and stderr together, collected in a file rather than streamed, so a failed check can show it).
 * For tools a test or runner calls once ({@code podman}, {@code keytool}, a script); a process that
 * lives beside the test is a {@link ChildJvm} or the test's own {@link ProcessBuilder}.
 *
 * <p>Thread-safe (stateless).
 */
public final class Command {

    /** What a program returned: its exit status ({@code -1} when killed at the time-out) and its output. */
    public record Result(int exitCode, String output) {

        /** This result when the status is 0; else fails naming {@code what}, the status and the output. */
        public Result requireSuccess(String what) {
            if (exitCode != 0) {
                throw new IllegalStateException(what + " failed with exit status " + exitCode + ":\n" + output.strip());
            }
            return this;
        }
    }

    private Command() {}

    /** Runs {@code command} with {@code env} added to this JVM's environment; killed after {@code timeout}. */
    public static Result run(List<String> command, Duration timeout, Map<String, String> env) {
        try {
            Path out = Files.createTempFile("weir-command-", ".log");
            try {
                ProcessBuilder pb =
                        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
                pb.environment().putAll(env);
                Process p = pb.start();
                boolean done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
                if (!done) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
                String output = Files.readString(out, StandardCharsets.UTF_8);
                return new Result(
                        done ? p.exitValue() : -1,
                        done
                                ? output
                                : output + "\n[killed after " + timeout.toSeconds() + " s: " + String.join(" ", command)
                                        + "]");
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        }
    }
}
