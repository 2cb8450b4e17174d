package io.weir.deploy.chart;

import static io.weir.deploy.chart.WeirChart.bare;
import static io.weir.deploy.chart.WeirChart.chart;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Bad values fail `helm install` and `helm template` with a message that says what to change: the
 * schema's for single values, the templates' (_helpers.tpl) where two values must agree.
 */
class BadValuesTest {

    private static void failsWith(WeirChart chart, String... messageParts) {
        assertThatThrownBy(chart::template)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContainingAll(messageParts);
    }

    @Test
    void negativeReplicasFailTheSchema() {
        failsWith(
                chart().set("replicaCount", -1),
                "values don't meet the specifications of the schema",
                "replicaCount: Must be greater than or equal to 0");
    }

    @Test
    void unknownKeysFailTheSchema() {
        failsWith(chart().set("replicas", 3), "Additional property replicas is not allowed");
        failsWith(chart().set("persistence.sizee", "1Gi"), "persistence: Additional property sizee is not allowed");
    }

    @Test
    void aBadPortFailsTheSchema() {
        failsWith(chart().set("http.port", 70000), "http.port: Must be less than or equal to 65535");
        failsWith(chart().set("http.port", 0), "http.port: Must be greater than or equal to 1");
    }

    @Test
    void aMissingImageFailsNamingTheValue() {
        failsWith(
                bare().set("applicationId", "orders").set("kafka.bootstrapServers", "kafka:9092"),
                "image.repository is required: the image of your Weir application");
        failsWith(chart().set("image.repository", ""), "image.repository is required");
    }

    @Test
    void aMissingApplicationIdOrBootstrapServersFailsNamingTheValue() {
        failsWith(chart().set("applicationId", ""), "applicationId is required: Weir's application.id");
        failsWith(chart().set("kafka.bootstrapServers", ""), "kafka.bootstrapServers is required");
        failsWith(chart().set("applicationId", "orders app"), "applicationId: Does not match pattern");
    }

    @Test
    void kedaMaxAbovePartitionsFailsNamingBothValues() {
        failsWith(
                chart().values("keda.yaml").set("keda.maxReplicas", 13),
                "keda.maxReplicas (13) must not exceed keda.inputPartitions (12)");
        failsWith(
                chart().values("keda.yaml").set("keda.inputPartitions", 0),
                "keda.inputPartitions is required with keda.enabled");
        failsWith(
                chart().values("keda.yaml").set("keda.minReplicas", 5).set("keda.maxReplicas", 4),
                "keda.minReplicas (5) must not exceed keda.maxReplicas (4)");
    }

    @Test
    void aGracePeriodShorterThanTheShutdownTimeoutFails() {
        failsWith(
                chart().set("terminationGracePeriodSeconds", 30),
                "terminationGracePeriodSeconds (30) must exceed shutdown.timeout.ms (30000 ms)");
        failsWith(
                chart().set("config.shutdown\\.timeout\\.ms", 60000),
                "terminationGracePeriodSeconds (45) must exceed shutdown.timeout.ms (60000 ms)");
    }

    @Test
    void settingsTheChartOwnsCannotBeSetThroughConfig() {
        failsWith(
                chart().set("config.state\\.dir", "/tmp/x"),
                "config.state.dir: the chart sets state.dir; set persistence.mountPath instead");
        failsWith(
                chart().set("config.http\\.port", 9090),
                "config.http.port: the chart sets http.port; set http.port instead");
        failsWith(chart().set("config.session\\.timeout\\.ms", 9000), "set kafka.sessionTimeoutMs instead");
        failsWith(chart().set("config.application\\.id", "x"), "set applicationId instead");
        failsWith(chart().set("config.Bad_Name", "x"), "Does not match pattern");
        failsWith(
                chart().values("sasl.yaml").set("config.sasl\\.jaas\\.config", "x"),
                "config.sasl.jaas.config: also in secretConfig");
    }
}
