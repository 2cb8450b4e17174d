package io.weir.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildJvmIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private static ChildJvm startReady() {
        return ChildJvm.builder(ChildMain.class)
                .args("ready")
                .systemProperty("weir.test.property", "p1")
                .env("WEIR_TEST_ENV", "e1")
                .jvmOptions("-Xmx64m")
                .start();
    }

    @Test
    void passesPropertiesAndEnvironmentAndCapturesBothStreams() {
        try (ChildJvm child = startReady()) {
            child.awaitOutput("ready", TIMEOUT);
            assertThat(child.isAlive()).isTrue();
            assertThat(child.exitCode()).isEmpty();
            assertThat(child.output()).contains("property=p1", "env=e1", "to stderr");
            assertThat(child.outputTail(1)).isEqualTo("ready");
        }
    }

    @Test
    void killSendsSigkillSoShutdownHooksDoNotRun() {
        ChildJvm child = startReady();
        child.awaitOutput("ready", TIMEOUT);
        assertThat(child.kill()).isEqualTo(137);
        assertThat(child.isAlive()).isFalse();
        assertThat(child.output()).doesNotContain("shutdown hook ran");
    }

    @Test
    void terminateSendsSigtermSoShutdownHooksRun() {
        ChildJvm child = startReady();
        child.awaitOutput("ready", TIMEOUT);
        assertThat(child.terminate(TIMEOUT)).isEqualTo(143);
        assertThat(child.output()).contains("shutdown hook ran");
    }

    @Test
    void suspendFreezesTheProcessAndResumeThawsIt() throws Exception {
        try (ChildJvm child = startReady()) {
            child.awaitOutput("ready", TIMEOUT);
            child.suspend();
            Awaitility.await().atMost(TIMEOUT).until(() -> schedulerState(child) == 'T');
            child.resume();
            Awaitility.await().atMost(TIMEOUT).until(() -> schedulerState(child) != 'T');
            assertThat(child.terminate(TIMEOUT)).isEqualTo(143);
            assertThat(child.output()).contains("shutdown hook ran");
        }
    }

    @Test
    void aSuspendedProcessCanBeKilled() {
        ChildJvm child = startReady();
        child.awaitOutput("ready", TIMEOUT);
        child.suspend();
        assertThat(child.kill()).isEqualTo(137);
        assertThatThrownBy(child::resume)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("exited");
    }

    /** The state letter of {@code /proc/<pid>/stat} (Linux): {@code T} while stopped by a signal. */
    private static char schedulerState(ChildJvm child) throws java.io.IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(child.pid()), "stat"));
        return stat.charAt(stat.lastIndexOf(')') + 2);
    }

    @Test
    void reportsExitCodeAndFailsAwaitingOutputOfAnExitedProcess() {
        ChildJvm child = ChildJvm.builder(ChildMain.class).args("exit", "3").start();
        assertThat(child.awaitExit(TIMEOUT)).isEqualTo(3);
        assertThat(child.exitCode()).hasValue(3);
        assertThatThrownBy(() -> child.awaitOutput("never printed", TIMEOUT))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("exited with 3")
                .hasMessageContaining("exiting with 3");
    }

    @Test
    void awaitOutputFailsAtTheDeadlineWithTheOutputTail() {
        try (ChildJvm child = startReady()) {
            child.awaitOutput("ready", TIMEOUT);
            assertThatThrownBy(() -> child.awaitOutput("never printed", Duration.ofMillis(200)))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("within 200 ms")
                    .hasMessageContaining("ready");
        }
    }

    @Test
    void latersChildrenMapAnArchiveOfTheJarsTheFirstOneLoaded(@TempDir Path archives) {
        try (ChildJvm first = startReady(archives)) {
            first.awaitOutput("ready", TIMEOUT);
        }
        try (ChildJvm second = startReady(archives)) {
            second.awaitOutput("ready", TIMEOUT);
        }
        Awaitility.await("an archive dumped from the first child's classes")
                .atMost(Duration.ofMinutes(3))
                .until(() -> {
                    try (var files = Files.list(archives)) {
                        return files.anyMatch(f -> f.toString().endsWith(".jsa"));
                    }
                });
        // -Xshare:on: the JVM refuses to start when it cannot map the archive on this classpath
        // (the jars first, the test classes' directory after them).
        try (ChildJvm third = ChildJvm.builder(ChildMain.class)
                .args("ready")
                .classDataDirectory(archives)
                .jvmOptions("-Xshare:on")
                .start()) {
            third.awaitOutput("ready", TIMEOUT);
            assertThat(third.output()).contains("ready").doesNotContain("Error");
        }
    }

    private static ChildJvm startReady(Path archives) {
        return ChildJvm.builder(ChildMain.class)
                .args("ready")
                .classDataDirectory(archives)
                .start();
    }
}
