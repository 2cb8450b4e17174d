package io.weir.samples.common;

import io.weir.WeirApp;
import io.weir.config.WeirConfig;
import io.weir.errors.ConfigException;
import java.nio.file.Path;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code serve} mode: a sample's topology run as a deployed service, the way a team runs its
 * own (the starter's {@code main}): no broker of its own, no input fed, no check; settings from
 * {@code WEIR_*} variables and {@code --config FILE}; until SIGTERM, which commits and stops while
 * keeping the static group membership, so a restart with the same {@code instance.id} moves no
 * task (see docs/operating.md, "Restarts, rollouts and scale-in").
 */
public final class SampleService {

    private static final Logger log = LoggerFactory.getLogger(SampleService.class);
    private static final String BOOTSTRAP_SERVERS = "bootstrap.servers";

    private SampleService() {}

    /**
     * The configuration {@code serve} runs with: the sample's application id as the default,
     * then the deployment's file ({@code configFile}, else {@code WEIR_CONFIG_FILE}), then the
     * {@code WEIR_*} variables of {@code env}. Everything else keeps Weir's defaults (exactly-once,
     * {@code http.port} 8080, {@code state.dir} as set by {@code WEIR_STATE_DIR}).
     *
     * @throws io.weir.errors.ConfigException naming the setting, e.g. {@code bootstrap.servers} when neither
     *     {@code WEIR_BOOTSTRAP_SERVERS} nor the file sets it
     */
    public static WeirConfig config(ServedSample sample, Path configFile, Map<String, String> env) {
        WeirConfig.Builder builder =
                WeirConfig.builder().applicationId(sample.applicationId()).environment(env);
        if (configFile != null) {
            builder.configFile(configFile);
        }
        try {
            return builder.build();
        } catch (ConfigException e) {
            if (BOOTSTRAP_SERVERS.equals(e.setting()) && !env.containsKey("WEIR_BOOTSTRAP_SERVERS")) {
                // A service has no broker of its own to fall back on: say where the cluster is set.
                throw new ConfigException(
                        BOOTSTRAP_SERVERS,
                        "is required: set WEIR_BOOTSTRAP_SERVERS" + " (or bootstrap.servers in --config FILE)");
            }
            throw e;
        }
    }

    /**
     * Runs {@code sample} reading {@code inputTopic} and writing {@code outputTopic} until SIGTERM
     * (or {@code POST /admin/leave}); returns once it has stopped gracefully.
     *
     * @throws IllegalStateException if the cluster cannot be reached, a topic is missing (the
     *     topics must exist before it starts) or the application failed
     */
    public static void run(ServedSample sample, String inputTopic, String outputTopic, WeirConfig config)
            throws InterruptedException {
        run(sample, ServedSample.DEFAULT_VARIANT, inputTopic, outputTopic, config);
    }

    /**
     * As {@link #run(ServedSample, String, String, WeirConfig)}, with the sample's topology {@code variant}.
     *
     * @throws IllegalArgumentException if the sample has no such variant
     */
    public static void run(
            ServedSample sample, String variant, String inputTopic, String outputTopic, WeirConfig config)
            throws InterruptedException {
        var topology = sample.variants().get(variant);
        if (topology == null) {
            throw new IllegalArgumentException(sample.name() + " has no variant " + variant + "; it has "
                    + sample.variants().keySet());
        }
        ServiceLogging.useServiceLevels();
        WeirApp app = WeirApp.create(topology.apply(inputTopic, outputTopic), config);
        log.info(
                "Serving {} {}: reading '{}', writing '{}' as application '{}' against {}",
                sample.name(),
                variant,
                inputTopic,
                outputTopic,
                config.applicationId(),
                config.bootstrapServers());
        app.runUntilShutdown();
    }
}
