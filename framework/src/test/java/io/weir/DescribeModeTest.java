package io.weir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.weir.config.WeirConfig;
import io.weir.errors.ConfigException;
import io.weir.internal.config.WeirVersion;
import io.weir.internal.topology.TopologyDescription;
import io.weir.serde.Serdes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run.mode=describe}: starting the application writes the description of the topology it
 * would run (the one the CLI and the topology record compare) and stops, without Kafka: the
 * bootstrap servers here are a port nothing listens on, and the state directory is never made.
 */
class DescribeModeTest {

    @TempDir
    Path dir;

    private static Topology wordCount() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "lines")
                .flatMapValues(line -> List.of(line.split(" ")))
                .groupBy((k, word) -> word, Serdes.strings(), Serdes.strings())
                .count("word-counts")
                .toStream()
                .to("word-counts", Serdes.strings(), Serdes.longs());
        return b.build();
    }

    private WeirConfig.Builder config() {
        return WeirConfig.builder()
                .environment(Map.of())
                .applicationId("wc")
                .bootstrapServers("127.0.0.1:1")
                .stateDir(dir.resolve("state"))
                .set("run.mode", "describe");
    }

    @Test
    void writesTheDescriptionToTheFileAndStopsWithoutContactingKafka() {
        Path file = dir.resolve("topology.json");
        WeirApp app = WeirApp.create(
                wordCount(), config().set("describe.file", file.toString()).build());
        // runUntilShutdown returns at once, so a main ending with it exits 0.
        assertTimeoutPreemptively(Duration.ofSeconds(10), app::runUntilShutdown);
        assertThat(app.state()).isEqualTo(WeirApp.State.STOPPED);
        assertThat(app.failure()).isEmpty();
        assertThat(TopologyDescription.parse(readString(file))).isEqualTo(expected());
        assertThat(dir.resolve("state")).doesNotExist();
        assertThat(file.resolveSibling("topology.json.tmp")).doesNotExist();
    }

    /** A service's main, as teams write it: settings from WEIR_* variables, then runUntilShutdown(). */
    public static final class Service {
        public static void main(String[] args) throws Exception {
            WeirApp.create(wordCount(), WeirConfig.builder().build()).runUntilShutdown();
        }
    }

    @Test
    void aProcessStartedThisWayExitsZeroWithTheDescription() throws Exception {
        Path file = dir.resolve("process.json");
        ProcessBuilder pb = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        Service.class.getName())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("process.log").toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("WEIR_"));
        pb.environment()
                .putAll(Map.of(
                        "WEIR_RUN_MODE",
                        "describe",
                        "WEIR_DESCRIBE_FILE",
                        file.toString(),
                        "WEIR_APPLICATION_ID",
                        "wc",
                        "WEIR_BOOTSTRAP_SERVERS",
                        "127.0.0.1:1",
                        "WEIR_STATE_DIR",
                        dir.resolve("state").toString()));
        Process process = pb.start();
        boolean exited = process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly();
        }
        assertThat(exited)
                .as("exited; log: " + readString(dir.resolve("process.log")))
                .isTrue();
        assertThat(process.exitValue())
                .as(readString(dir.resolve("process.log")))
                .isZero();
        assertThat(TopologyDescription.parse(readString(file))).isEqualTo(expected());
        assertThat(dir.resolve("state")).doesNotExist();
    }

    @Test
    void printsTheDescriptionOnStdoutWithoutAFile() {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        WeirApp app;
        try {
            app = WeirApp.create(wordCount(), config().build()).start();
        } finally {
            System.setOut(stdout);
        }
        assertThat(app.state()).isEqualTo(WeirApp.State.STOPPED);
        assertThat(TopologyDescription.parse(captured.toString(StandardCharsets.UTF_8)))
                .isEqualTo(expected());
        assertThat(app.httpPort()).isEmpty();
    }

    @Test
    void aFileThatCannotBeWrittenFailsTheStartNamingTheSetting() throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("plain"), "x");
        WeirApp app = WeirApp.create(
                wordCount(),
                config().set(
                                "describe.file",
                                notADirectory.resolve("topology.json").toString())
                        .build());
        assertThatThrownBy(app::start)
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("describe.file")
                .hasMessageContaining("cannot write the topology description");
        assertThat(app.state()).isEqualTo(WeirApp.State.FAILED);
    }

    @Test
    void theFileSettingIsIgnoredByTheOtherModes() {
        WeirConfig c = config().set("run.mode", "streaming")
                .set("describe.file", "/tmp/x.json")
                .build();
        assertThat(c.describeOnly()).isFalse();
        assertThat(config().build().describeOnly()).isTrue();
    }

    private static TopologyDescription expected() {
        return TopologyDescription.of(TopologyModels.resolved(wordCount(), "wc"), "wc", WeirVersion.current());
    }

    private static String readString(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
