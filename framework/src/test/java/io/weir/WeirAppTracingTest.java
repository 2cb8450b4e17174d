package io.weir;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.OpenTelemetry;
import io.weir.config.WeirConfig;
import io.weir.errors.InstanceStateException;
import io.weir.serde.Serdes;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link WeirApp#openTelemetry}: taken at start, so giving it later is a mistake said at once. */
class WeirAppTracingTest {

    @TempDir
    Path dir;

    private WeirApp app() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in").to("out", Serdes.strings(), Serdes.strings());
        return WeirApp.create(
                b.build(),
                WeirConfig.builder()
                        .environment(Map.of())
                        .applicationId("traced")
                        .bootstrapServers("127.0.0.1:1")
                        .stateDir(dir)
                        .set("run.mode", "describe") // start() contacts nothing
                        .set("describe.file", dir.resolve("topology.json").toString())
                        .build());
    }

    @Test
    void anOpenTelemetryGivenAfterStartIsRefused() {
        WeirApp app = app().openTelemetry(OpenTelemetry.noop()).start();
        assertThatThrownBy(() -> app.openTelemetry(OpenTelemetry.noop()))
                .isInstanceOf(InstanceStateException.class)
                .hasMessageContaining("openTelemetry(...) must be called before start()");
    }

    @Test
    void aMissingOpenTelemetryIsRefused() {
        assertThatThrownBy(() -> app().openTelemetry(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("openTelemetry");
    }
}
