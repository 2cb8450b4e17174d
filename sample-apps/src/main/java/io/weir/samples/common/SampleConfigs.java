package io.weir.samples.common;

import io.weir.config.WeirConfig;
import io.weir.sink.DeliveryGuarantee;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** The Weir configuration every sample runs with. */
public final class SampleConfigs {

    private SampleConfigs() {}

    /**
     * Exactly-once processing of {@code applicationId} against {@code bootstrapServers}, stores
     * under {@code stateDir}.
     *
     * <p>WeirConfig lets WEIR_* variables override the code; the samples' command line already
     * takes WEIR_BOOTSTRAP_SERVERS as the default of {@code --bootstrap-servers}, and an explicit
     * option must win over it, so that one variable is left out here.
     */
    public static WeirConfig.Builder exactlyOnce(String applicationId, String bootstrapServers, Path stateDir) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.remove("WEIR_BOOTSTRAP_SERVERS");
        return WeirConfig.builder()
                .applicationId(applicationId)
                .bootstrapServers(bootstrapServers)
                .guarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .stateDir(stateDir)
                .environment(env);
    }
}
