package io.weir.deploy.chart;

import static io.weir.deploy.chart.StatefulSetTest.weirProperties;
import static io.weir.deploy.chart.WeirChart.chart;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.weir.internal.config.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Settings reach Weir as it reads them: byte settings as whole numbers, only names Weir accepts as
 * {@code WEIR_*} variables (it would ignore the others), and nothing in extraEnv that the chart sets
 * or checks behind the checks' back. The names come from the chart's files/settings.yaml, which the
 * framework's SettingNamesTest keeps equal to what Weir accepts.
 */
class ChartSettingsTest {

    private static void failsWith(WeirChart chart, String... messageParts) {
        assertThatThrownBy(chart::template)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContainingAll(messageParts);
    }

    @TempDir
    Path tmp;

    /**
     * extraEnv: [{name, value}], from a values file: {@code --set} would make "20000" a number, which
     * is no EnvVar value.
     */
    private WeirChart withEnv(WeirChart chart, String name, String value) {
        try {
            Path file = Files.createTempFile(tmp, "extra-env", ".yaml");
            Files.writeString(file, "extraEnv:\n  - { name: \"%s\", value: \"%s\" }\n".formatted(name, value));
            return chart.values(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void memoryQuantitiesOfByteSettingsAreWrittenAsWholeBytes() {
        var properties = weirProperties(chart().set("resources.limits.memory", "2Gi")
                .set("config.rocksdb\\.memory\\.bytes", "512Mi")
                .set("config.state\\.cache\\.max\\.bytes", "1.5Mi")
                .set("config.producer\\.batch\\.size", "64Ki")
                .set("config.restore\\.consumer\\.fetch\\.max\\.bytes", "1G")
                .set("config.send\\.buffer\\.bytes", "-1")
                .set("config.store\\.read\\.cache\\.bytes", 0)
                .set("config.num\\.stream\\.threads", 2)
                .render());

        // Weir parses these with Long.parseLong: "512Mi" failed the start although the memory check passed it.
        assertThat(properties)
                .containsEntry("rocksdb.memory.bytes", "536870912")
                .containsEntry("state.cache.max.bytes", "1572864")
                .containsEntry("producer.batch.size", "65536")
                .containsEntry("restore.consumer.fetch.max.bytes", "1000000000")
                .containsEntry("send.buffer.bytes", "-1") // the OS default, as written
                .containsEntry("store.read.cache.bytes", "0")
                .containsEntry("num.stream.threads", "2");
        assertThat(Settings.ROCKSDB_MEMORY_BYTES.parse(properties.getProperty("rocksdb.memory.bytes")))
                .isEqualTo(512L << 20);
    }

    @Test
    void theMemoryCheckCountsRocksDbMemoryGivenAsAQuantity() {
        failsWith(
                chart().set("config.rocksdb\\.memory\\.bytes", "512Mi"),
                "RocksDB (rocksdb.memory.bytes = 512Mi)",
                "= 1664Mi");
    }

    @Test
    void aSecretConfigNameWeirWouldIgnoreFails() {
        failsWith(
                chart().set("secretConfig.sasl\\.jaas\\.confg.secretName", "kafka")
                        .set("secretConfig.sasl\\.jaas\\.confg.key", "jaas"),
                "secretConfig.sasl.jaas.confg: not a Weir or Kafka client setting, so Weir would ignore"
                        + " WEIR_SASL_JAAS_CONFG; the names Weir accepts are in the chart's files/settings.yaml");
        failsWith(
                chart().set("secretConfig.restore\\.consumer\\.linger\\.ms.secretName", "s")
                        .set("secretConfig.restore\\.consumer\\.linger\\.ms.key", "k"),
                "secretConfig.restore.consumer.linger.ms: not a Weir or Kafka client setting");
        // Prefixed client settings and Weir's own secrets are names Weir maps.
        assertThat(chart().set("secretConfig.producer\\.ssl\\.key\\.password.secretName", "tls")
                        .set("secretConfig.producer\\.ssl\\.key\\.password.key", "password")
                        .set("secretConfig.sasl\\.jaas\\.config.secretName", "kafka")
                        .set("secretConfig.sasl\\.jaas\\.config.key", "jaas")
                        .render()
                        .kinds())
                .contains("StatefulSet");
    }

    @Test
    void secretConfigNamesAllowOnlyWhatTheWeirMappingCarries() {
        // WEIR_SSL_KEY-PASSWORD is not a variable Weir maps: '-' and '_' cannot come back from WEIR_<NAME>.
        failsWith(
                chart().set("secretConfig.ssl\\.key-password.secretName", "s")
                        .set("secretConfig.ssl\\.key-password.key", "k"),
                "secretConfig: Does not match pattern");
        failsWith(
                chart().set("secretConfig.ssl_key.secretName", "s").set("secretConfig.ssl_key.key", "k"),
                "secretConfig: Does not match pattern");
    }

    @Test
    void settingsTheChartChecksCannotComeFromASecret() {
        failsWith(
                chart().set("secretConfig.shutdown\\.timeout\\.ms.secretName", "s")
                        .set("secretConfig.shutdown\\.timeout\\.ms.key", "k"),
                "secretConfig.shutdown.timeout.ms: the chart checks shutdown.timeout.ms against"
                        + " terminationGracePeriodSeconds and cannot read a Secret; set config.shutdown.timeout.ms");
    }

    @Test
    void extraEnvCannotSetWhatTheChartSets() {
        failsWith(
                withEnv(chart(), "WEIR_STATE_DIR", "/tmp/x"),
                "extraEnv WEIR_STATE_DIR: the chart sets state.dir; set persistence.mountPath instead");
        failsWith(withEnv(chart(), "WEIR_APPLICATION_ID", "other"), "the chart sets application.id; set applicationId");
        failsWith(
                withEnv(chart(), "WEIR_BOOTSTRAP_SERVERS", "k:9092"),
                "the chart sets bootstrap.servers; set kafka.bootstrapServers");
        failsWith(withEnv(chart(), "WEIR_INSTANCE_ID", "x"), "extraEnv WEIR_INSTANCE_ID: the chart sets instance.id");
        failsWith(withEnv(chart(), "WEIR_HTTP_PORT", "9090"), "the chart sets http.port; set http.port");
        failsWith(
                withEnv(chart(), "WEIR_CONSUMER_SESSION_TIMEOUT_MS", "10000"),
                "the chart sets consumer.session.timeout.ms; set kafka.sessionTimeoutMs");
        failsWith(withEnv(chart(), "WEIR_SESSION_TIMEOUT_MS", "10000"), "set kafka.sessionTimeoutMs");
        failsWith(
                withEnv(chart(), "WEIR_SHUTDOWN_LEAVE_GROUP", "true"),
                "the chart sets shutdown.leave.group; set scaleIn.enabled=false to set it yourself");
        failsWith(
                withEnv(chart().values("tls.yaml"), "WEIR_SSL_TRUSTSTORE_LOCATION", "/x"),
                "the chart sets ssl.truststore.location; set tls.truststoreKey");
        failsWith(
                withEnv(chart(), "WEIR_CONFIG_FILE", "/x.properties"),
                "extraEnv WEIR_CONFIG_FILE: the chart sets it to the properties file of its ConfigMap");
        // Without scale-in the chart leaves shutdown.leave.group alone.
        assertThat(withEnv(chart().set("scaleIn.enabled", false), "WEIR_SHUTDOWN_LEAVE_GROUP", "true")
                        .render()
                        .kinds())
                .contains("StatefulSet");
    }

    @Test
    void extraEnvWeirWouldIgnoreOrThatRepeatsConfigFails() {
        failsWith(
                withEnv(chart(), "WEIR_NUM_STREAM_THREAD", "2"),
                "extraEnv WEIR_NUM_STREAM_THREAD: not WEIR_<NAME> of a Weir or Kafka client setting");
        failsWith(
                withEnv(chart(), "WEIR_num_stream_threads", "2"), "not WEIR_<NAME> of a Weir or Kafka client setting");
        failsWith(
                withEnv(chart().values("sasl.yaml"), "WEIR_NUM_STREAM_THREADS", "4"),
                "extraEnv WEIR_NUM_STREAM_THREADS: num.stream.threads is also in config or secretConfig; set it in"
                        + " one place");
        failsWith(
                withEnv(chart(), "WEIR_PRODUCER_BATCH_SIZE", "64Ki"),
                "extraEnv WEIR_PRODUCER_BATCH_SIZE (64Ki): Weir reads a number of bytes from a variable;"
                        + " set config.producer.batch.size");
        // Other variables, and WEIR_* of settings nobody else sets, pass.
        assertThat(withEnv(chart(), "WEIR_NUM_STREAM_THREADS", "4").render().kinds())
                .contains("StatefulSet");
        assertThat(withEnv(chart(), "TZ", "UTC").render().kinds()).contains("StatefulSet");
    }

    @Test
    void theGracePeriodCheckSeesTheShutdownTimeoutOfExtraEnv() {
        failsWith(
                withEnv(chart(), "WEIR_SHUTDOWN_TIMEOUT_MS", "60000"),
                "terminationGracePeriodSeconds (45) must exceed shutdown.timeout.ms (60000 ms)");
        failsWith(
                withEnv(chart(), "WEIR_SHUTDOWN_TIMEOUT_MS", "30s"),
                "extraEnv WEIR_SHUTDOWN_TIMEOUT_MS: the chart checks shutdown.timeout.ms against"
                        + " terminationGracePeriodSeconds, so it needs a whole number as value (not valueFrom)");
        failsWith(
                chart().set("extraEnv[0].name", "WEIR_SHUTDOWN_TIMEOUT_MS")
                        .set("extraEnv[0].valueFrom.configMapKeyRef.name", "timeouts")
                        .set("extraEnv[0].valueFrom.configMapKeyRef.key", "shutdown"),
                "needs a whole number as value (not valueFrom); or set config.shutdown.timeout.ms");

        // The preStop hook waits that timeout plus 5 s.
        StatefulSet statefulSet =
                withEnv(chart(), "WEIR_SHUTDOWN_TIMEOUT_MS", "20000").render().only(StatefulSet.class);
        List<String> preStop = statefulSet
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getLifecycle()
                .getPreStop()
                .getExec()
                .getCommand();
        assertThat(preStop).last().isEqualTo("25");
    }

    @Test
    void theMemoryCheckSeesRocksDbMemoryOfExtraEnv() {
        failsWith(
                withEnv(chart(), "WEIR_ROCKSDB_MEMORY_BYTES", "536870912"),
                "RocksDB (rocksdb.memory.bytes = 512Mi)",
                "= 1664Mi");
    }
}
