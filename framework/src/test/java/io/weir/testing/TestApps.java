package io.weir.testing;

import io.weir.Topology;
import io.weir.WeirApp;
import io.weir.config.WeirConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Factory for application instances in tests: fresh state directory, no WEIR_* environment. */
public final class TestApps {

    private TestApps() {}

    public static WeirConfig.Builder config(String bootstrap, String applicationId) {
        try {
            Path dir = Files.createTempDirectory("weir-test-");
            dir.toFile().deleteOnExit();
            return WeirConfig.builder()
                    .applicationId(applicationId)
                    .bootstrapServers(bootstrap)
                    .stateDir(dir)
                    .set("http.port", 0) // several instances share a test JVM
                    .environment(Map.of());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public static WeirApp start(Topology topology, WeirConfig config) {
        return WeirApp.create(topology, config).start();
    }
}
