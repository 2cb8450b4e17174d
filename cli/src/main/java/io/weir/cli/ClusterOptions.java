package io.weir.cli;

import io.weir.config.WeirConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Option;

/**
 * How a command reaches the cluster, from the same sources as an application: the deployment's
 * properties file ({@code --config FILE} or {@code WEIR_CONFIG_FILE}), {@code WEIR_*} variables,
 * then {@code --bootstrap-servers} and {@code -X name=value}, which win. Kafka client settings
 * (security, SASL, TLS) pass through as in an application: unprefixed, or with {@code admin.},
 * {@code consumer.} or {@code producer.}.
 */
final class ClusterOptions {

    /** The application id of commands that do not work on one application (diff). */
    static final String NO_APPLICATION = "weir-cli";

    /** How long a command waits for the cluster to answer one request. */
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Option(
            names = {"-b", "--bootstrap-servers"},
            paramLabel = "HOST:PORT[,...]",
            description = "Kafka brokers (default: bootstrap.servers of --config or WEIR_BOOTSTRAP_SERVERS)")
    String bootstrapServers;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "properties file with the application's settings (default: WEIR_CONFIG_FILE)")
    Path configFile;

    @Option(names = "-X", paramLabel = "NAME=VALUE", description = "any Weir or Kafka client setting")
    Map<String, String> settings = new java.util.LinkedHashMap<>();

    /** The environment to read {@code WEIR_*} from; tests replace it. */
    Map<String, String> environment = System.getenv();

    /**
     * The settings of {@code applicationId} as the application itself would read them.
     *
     * @throws io.weir.errors.ConfigException naming a missing or invalid setting (exit 2)
     */
    WeirConfig config(String applicationId) {
        WeirConfig.Builder b = WeirConfig.builder().environment(environment);
        if (configFile != null) {
            b.configFile(configFile);
        }
        Properties p = new Properties();
        p.putAll(settings);
        b.setAll(p);
        if (bootstrapServers != null) {
            b.bootstrapServers(bootstrapServers);
        }
        return b.applicationId(applicationId).build();
    }

    /** An admin client with the application's admin settings; the caller closes it. */
    Admin admin(WeirConfig config) {
        return KafkaClients.admin(config);
    }
}
