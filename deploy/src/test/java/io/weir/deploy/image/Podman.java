package io.weir.deploy.image;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code podman} the way it works on our machines (runc as the runtime, explicit ulimits, the
 * host's network), every call bounded by a time-out. Output (stdout and stderr together) is
 * returned, never streamed, so a failed assertion can show it.
 *
 * <p>Thread-safe: it holds no state beyond the runtime flag.
 */
final class Podman {

    /** What a call returned: its exit status and its combined output. */
    record Result(int exitCode, String output) {
        Result requireSuccess(String what) {
            if (exitCode != 0) {
                throw new AssertionError(what + " failed with exit status " + exitCode + ":\n" + output);
            }
            return this;
        }
    }

    /** Limits for containers: the defaults podman asks for are refused here (see deploy/containers/lib.sh). */
    static final List<String> ULIMITS = List.of("--ulimit", "nofile=20000:20000", "--ulimit", "nproc=4096:4096");

    private final List<String> globalFlags;

    private Podman(List<String> globalFlags) {
        this.globalFlags = globalFlags;
    }

    /** With runc when it is installed (crun, podman's default, is refused here), as lib.sh does. */
    static Podman withRuncWhenPresent() {
        return new Podman(Files.isExecutable(Path.of("/usr/sbin/runc"))
                ? List.of("--runtime", "/usr/sbin/runc") : List.of());
    }

    Result run(Duration timeout, String... args) {
        List<String> command = new ArrayList<>();
        command.add("podman");
        command.addAll(globalFlags);
        command.addAll(List.of(args));
        return exec(command, timeout);
    }

    /** Runs any command, bounded by {@code timeout} (then killed, and reported as exit status -1). */
    static Result exec(List<String> command, Duration timeout) {
        try {
            Path out = Files.createTempFile("weir-podman-", ".log");
            try {
                Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
                boolean done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
                if (!done) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
                String output = Files.readString(out, StandardCharsets.UTF_8);
                return new Result(done ? p.exitValue() : -1, done ? output
                        : output + "\n[killed after " + timeout.toSeconds() + " s: " + String.join(" ", command) + "]");
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
