package io.weir.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class QuietLoggingTest {

    @Test
    void writesWarnLevelConfigurationsForBothFrameworks() throws Exception {
        assertThat(Files.readString(QuietLogging.logbackConfigFile())).contains("<root level=\"WARN\">");
        assertThat(Files.readString(QuietLogging.log4j2ConfigFile())).contains("<Root level=\"WARN\">");
        assertThat(QuietLogging.jvmOptions())
                .containsExactly(
                        "-Dlogback.configurationFile=" + QuietLogging.logbackConfigFile(),
                        "-Dlog4j2.configurationFile=" + QuietLogging.log4j2ConfigFile());
    }

    @Test
    void leavesOutTheRepeatedMessageFilterWhenWeirFrameworkIsNotOnTheClassPath() throws Exception {
        // The testkit's own tests run without weir-framework, as a child JVM of theirs would.
        String logback = Files.readString(QuietLogging.logbackConfigFile());
        assertThat(logback).doesNotContain("turboFilter").doesNotContain("REPEATED_MESSAGE_FILTER");
        assertThat(Files.readString(QuietLogging.log4j2ConfigFile())).contains("<BurstFilter");
    }
}
