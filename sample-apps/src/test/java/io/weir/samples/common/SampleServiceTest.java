package io.weir.samples.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.TopologyBuilder;
import io.weir.config.WeirConfig;
import io.weir.errors.ConfigException;
import io.weir.serde.Serdes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SampleServiceTest {

    private static final ServedSample SAMPLE = new ServedSample(
            "copy",
            "copy-app",
            "in",
            "out",
            (in, out) -> {
                TopologyBuilder b = new TopologyBuilder();
                b.stream(Serdes.strings(), Serdes.strings(), in).to(out, Serdes.strings(), Serdes.strings());
                return b.build();
            },
            () -> (topic, ts) -> null);

    @TempDir
    Path dir;

    @Test
    void takesTheClusterInstanceAndStateFromTheEnvironment() {
        WeirConfig config = SampleService.config(
                SAMPLE,
                null,
                Map.of(
                        "WEIR_BOOTSTRAP_SERVERS",
                        "kafka:9092",
                        "WEIR_INSTANCE_ID",
                        "copy-1",
                        "WEIR_STATE_DIR",
                        "/var/lib/weir",
                        "WEIR_HTTP_PORT",
                        "8081"));
        assertThat(config.applicationId()).as("the sample's default").isEqualTo("copy-app");
        assertThat(config.bootstrapServers()).isEqualTo("kafka:9092");
        assertThat(config.instanceId()).contains("copy-1");
        assertThat(config.stateDir()).isEqualTo(Path.of("/var/lib/weir"));
        assertThat(config.http().port()).isEqualTo(8081);
    }

    @Test
    void theEnvironmentOverridesTheApplicationIdAndTheConfigFile() throws IOException {
        Path file = Files.writeString(
                dir.resolve("weir.properties"), "bootstrap.servers=from-file:9092\nnum.stream.threads=2\n");
        WeirConfig config = SampleService.config(
                SAMPLE, file, Map.of("WEIR_APPLICATION_ID", "copy-blue", "WEIR_NUM_STREAM_THREADS", "3"));
        assertThat(config.applicationId()).isEqualTo("copy-blue");
        assertThat(config.bootstrapServers()).isEqualTo("from-file:9092");
        assertThat(config.numStreamThreads()).isEqualTo(3);
    }

    @Test
    void withoutAClusterSaysWhichVariableToSet() {
        assertThatThrownBy(() -> SampleService.config(SAMPLE, null, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("bootstrap.servers")
                .hasMessageContaining("WEIR_BOOTSTRAP_SERVERS");
    }
}
