package io.weir.ported;

import io.weir.config.WeirConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Map;

/** Configuration of a port run on a real broker: a fresh state directory, no WEIR_* environment. */
final class Apps {

    private Apps() {}

    static WeirConfig.Builder config(String bootstrap, String applicationId) {
        try {
            return WeirConfig.builder()
                    .applicationId(applicationId)
                    .bootstrapServers(bootstrap)
                    .stateDir(Files.createTempDirectory("weir-ported-"))
                    .set("http.port", 0) // several apps share the test JVM
                    .set("http.bind.address", "127.0.0.1") // advertised for queries: reachable here
                    .environment(Map.of());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
