package io.weir.deploy.kubernetes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a program with a time-out and returns its exit status and output (stdout and stderr together). */
final class CommandLine {

    /** What a program returned. */
    record Result(int exitCode, String output) {
        Result requireSuccess(String what) {
            if (exitCode != 0) {
                throw new IllegalStateException(what + " failed with exit status " + exitCode + ":\n" + output.strip());
            }
            return this;
        }
    }

    private CommandLine() {
    }

    /** Runs {@code command} with {@code env} added; killed after {@code timeout} and reported as status -1. */
    static Result run(List<String> command, Duration timeout, Map<String, String> env) {
        try {
            Path out = Files.createTempFile("weir-kube-", ".log");
            try {
                ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
                pb.environment().putAll(env);
                Process p = pb.start();
                boolean done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
                if (!done) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
                String output = Files.readString(out, StandardCharsets.UTF_8);
                return new Result(done ? p.exitValue() : -1,
                        done ? output : output + "\n[killed after " + timeout.toSeconds() + " s: " + command + "]");
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
