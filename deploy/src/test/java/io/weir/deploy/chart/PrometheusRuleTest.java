package io.weir.deploy.chart;

import static io.weir.deploy.chart.WeirChart.chart;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.weir.deploy.compose.DashboardQueries;
import io.weir.deploy.compose.PromQl;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PrometheusRule: the alerts an on-call engineer needs, each on series Weir exports, each
 * documented in the chart's README with what to do.
 *
 * <p>"Series Weir exports" is checked against the Grafana dashboard of docker-compose.yml, whose
 * every metric DashboardMetricsIT finds on a running instance's /metrics: an alert may query only
 * what the dashboard queries, plus Prometheus' own {@code up}. The expressions are parsed by
 * Prometheus' promtool where it is installed (Debian's package prometheus).
 */
class PrometheusRuleTest {

    static final List<String> ALERTS = List.of(
            "WeirInstanceDown",
            "WeirInstanceNotReady",
            "WeirInstanceStalled",
            "WeirConsumerLagGrowing",
            "WeirCommitsStopped",
            "WeirRecordsDeadLettered",
            "WeirRestoreRunningLong");
    private static final Set<String> FROM_PROMETHEUS = Set.of("up");
    private static final Set<String> LABELS = Set.of("namespace", "application", "instance", "store");
    private static final Pattern DURATION = Pattern.compile("([0-9]+(ms|s|m|h|d|w|y))+");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @TempDir
    Path tmp;

    static List<Map<String, Object>> rules(GenericKubernetesResource rule) {
        List<Map<String, Object>> groups = rule.get("spec", "groups");
        assertThat(groups).hasSize(1);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rules =
                (List<Map<String, Object>>) groups.get(0).get("rules");
        return rules;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> map(Object o) {
        return (Map<String, String>) o;
    }

    @Test
    void offByDefault() {
        assertThat(chart().render().kinds()).doesNotContain("PrometheusRule");
    }

    @Test
    void everyAlertHasASeverityASummaryAndARunbook() {
        GenericKubernetesResource rule =
                chart().values("monitoring.yaml").render().custom("PrometheusRule");

        assertThat(rule.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(rule.getMetadata().getNamespace()).isEqualTo(WeirChart.NAMESPACE);
        assertThat(rule.getMetadata().getLabels()).containsEntry("release", "prometheus");
        List<Map<String, Object>> rules = rules(rule);
        assertThat(rules).extracting(r -> r.get("alert")).containsExactlyElementsOf(ALERTS);
        for (Map<String, Object> alert : rules) {
            assertThat(alert.keySet()).containsExactlyInAnyOrder("alert", "expr", "for", "labels", "annotations");
            assertThat((String) alert.get("for")).matches(DURATION);
            assertThat(map(alert.get("labels")))
                    .containsEntry("team", "payments")
                    .hasEntrySatisfying("severity", s -> assertThat(s).isIn("warning", "critical"));
            assertThat(map(alert.get("annotations")))
                    .containsKeys("summary", "description")
                    .containsEntry(
                            "runbook_url",
                            "https://git.example.com/platform/weir/blob/main/helm/weir/README.md#"
                                    + ((String) alert.get("alert")).toLowerCase());
        }
    }

    @Test
    void alertsSelectTheReleasesSeriesAndUseTheThresholdsOfTheValues() {
        List<Map<String, Object>> rules = rules(chart().values("monitoring.yaml")
                .set("prometheusRule.lagRecords", 50000)
                .set("prometheusRule.commitAgeSeconds", 120)
                .set("prometheusRule.deadLettersPerSecond", 2)
                .set("prometheusRule.restoreLongerThan", "1h")
                .render()
                .custom("PrometheusRule"));

        for (Map<String, Object> alert : rules) {
            String expr = (String) alert.get("expr");
            if (alert.get("alert").equals("WeirInstanceDown")) {
                assertThat(expr).isEqualTo("up{namespace=\"streaming\", service=\"orders-weir\"} == 0");
            } else {
                assertThat(expr)
                        .contains("{namespace=\"streaming\", application=\"orders\"}")
                        .doesNotContain("{{")
                        .doesNotContain("}}");
            }
        }
        assertThat(expr(rules, "WeirConsumerLagGrowing")).contains(") > 50000 and ");
        assertThat(expr(rules, "WeirCommitsStopped")).endsWith(" > 120");
        assertThat(expr(rules, "WeirRecordsDeadLettered")).endsWith("[5m])) > 2");
        assertThat(rules)
                .filteredOn(r -> r.get("alert").equals("WeirRestoreRunningLong"))
                .singleElement()
                .satisfies(r -> assertThat(r.get("for")).isEqualTo("1h"));
        // Without a runbook URL the annotation is left out rather than pointing nowhere.
        assertThat(rules(chart().set("prometheusRule.enabled", true).render().custom("PrometheusRule")))
                .allSatisfy(r -> assertThat(map(r.get("annotations"))).doesNotContainKey("runbook_url"));
    }

    private static String expr(List<Map<String, Object>> rules, String alert) {
        return rules.stream()
                .filter(r -> r.get("alert").equals(alert))
                .map(r -> (String) r.get("expr"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void alertsQueryOnlyMetricsWeirExportsAndGroupByTheirLabels() throws IOException {
        Path dashboard = WeirChart.directory()
                .resolve("../../deploy/compose/grafana/dashboards/weir.json")
                .normalize();
        Set<String> exported = new HashSet<>(DashboardQueries.of(new ObjectMapper().readTree(dashboard.toFile()))
                .metricNames());
        exported.addAll(FROM_PROMETHEUS);
        Set<String> queried = new HashSet<>();

        for (Map<String, Object> alert :
                rules(chart().values("monitoring.yaml").render().custom("PrometheusRule"))) {
            String expr = (String) alert.get("expr");
            assertThat(PromQl.metricNames(expr)).as(expr).isNotEmpty().isSubsetOf(exported);
            assertThat(PromQl.groupingLabels(expr)).as(expr).isSubsetOf(LABELS);
            assertBalanced(expr);
            queried.addAll(PromQl.metricNames(expr));
        }
        assertThat(queried)
                .contains(
                        "weir_instance_ready",
                        "weir_instance_stalled",
                        "weir_consumer_lag_records",
                        "weir_time_since_last_commit_seconds",
                        "weir_records_dead_lettered_total",
                        "weir_restore_remaining_records");
    }

    private static void assertBalanced(String expr) {
        String pairs = "(){}[]";
        StringBuilder open = new StringBuilder();
        boolean quoted = false;
        for (char c : expr.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (!quoted && pairs.indexOf(c) >= 0) {
                int i = pairs.indexOf(c);
                if (i % 2 == 0) {
                    open.append(c);
                } else {
                    assertThat(open.length() > 0 && open.charAt(open.length() - 1) == pairs.charAt(i - 1))
                            .as("balanced brackets in %s", expr)
                            .isTrue();
                    open.setLength(open.length() - 1);
                }
            }
        }
        assertThat(open).as("unclosed brackets in %s", expr).isEmpty();
        assertThat(quoted).as("unclosed string in %s", expr).isFalse();
    }

    @Test
    void promtoolAcceptsTheRules() throws Exception {
        Path promtool = Path.of("/usr/bin/promtool");
        Assumptions.assumeTrue(Files.isExecutable(promtool), "promtool (Debian's package prometheus) is not installed");
        GenericKubernetesResource rule =
                chart().values("monitoring.yaml").render().custom("PrometheusRule");
        Path file = tmp.resolve("rules.yaml");
        YAML.writeValue(file.toFile(), Map.of("groups", rule.get("spec", "groups")));

        Process check = new ProcessBuilder(promtool.toString(), "check", "rules", file.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(check.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(check.exitValue()).as(output).isZero();
        assertThat(output).contains("SUCCESS: " + ALERTS.size() + " rules found");
    }

    @Test
    void theLagAlertSumsOnlyLagsThatAreKnown() {
        String lag = "weir_consumer_lag_records{namespace=\"streaming\", application=\"orders\"}";

        // Each partition's gauge is NaN until its end offset is known, and one NaN made the whole sum
        // NaN, which is never above the threshold: the alert could not fire while any partition was new.
        assertThat(expr(
                        rules(chart().values("monitoring.yaml").render().custom("PrometheusRule")),
                        "WeirConsumerLagGrowing"))
                .isEqualTo("sum by (namespace, application) (" + lag + " >= 0) > 10000"
                        + " and sum by (namespace, application) (deriv((" + lag + " >= 0)[10m:])) > 0");
    }

    @Test
    void promtoolFiresTheLagAlertWhileAPartitionsLagIsUnknown() throws Exception {
        Path promtool = Path.of("/usr/bin/promtool");
        Assumptions.assumeTrue(Files.isExecutable(promtool), "promtool (Debian's package prometheus) is not installed");
        // The expressions and labels as rendered; the annotations are left out (promtool would compare their text).
        List<Map<String, Object>> rules =
                rules(chart().values("monitoring.yaml").render().custom("PrometheusRule")).stream()
                        .map(r -> {
                            Map<String, Object> withoutAnnotations = new java.util.LinkedHashMap<>(r);
                            withoutAnnotations.remove("annotations");
                            return withoutAnnotations;
                        })
                        .toList();
        YAML.writeValue(
                tmp.resolve("rules.yaml").toFile(), Map.of("groups", List.of(Map.of("name", "weir", "rules", rules))));
        String known =
                "weir_consumer_lag_records{namespace=\"streaming\", application=\"orders\", instance=\"orders-weir-0\", partition=\"0\"}";
        String unknown = known.replace("orders-weir-0", "orders-weir-1").replace("partition=\"0\"", "partition=\"1\"");
        String nan = "NaN ".repeat(61).trim();
        // One partition 20,000 behind and 500 more each minute, another whose end is never known (NaN):
        // the alert fires. Then the same with a steady lag of 50,000: it does not.
        Files.writeString(tmp.resolve("test.yaml"), """
                rule_files: [rules.yaml]
                evaluation_interval: 1m
                tests:
                  - interval: 1m
                    input_series:
                      - { series: '%1$s', values: '20000+500x60' }
                      - { series: '%2$s', values: '%3$s' }
                    alert_rule_test:
                      - eval_time: 40m
                        alertname: WeirConsumerLagGrowing
                        exp_alerts:
                          - exp_labels: { namespace: streaming, application: orders, severity: warning, team: payments }
                  - interval: 1m
                    input_series:
                      - { series: '%1$s', values: '50000+0x60' }
                      - { series: '%2$s', values: '%3$s' }
                    alert_rule_test:
                      - eval_time: 40m
                        alertname: WeirConsumerLagGrowing
                        exp_alerts: []
                """.formatted(known, unknown, nan));

        Process test = new ProcessBuilder(promtool.toString(), "test", "rules", "test.yaml")
                .directory(tmp.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(test.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(test.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(test.exitValue()).as(output).isZero();
    }

    @Test
    void everyAlertIsDocumentedWithWhatToDo() throws IOException {
        String readme = Files.readString(WeirChart.directory().resolve("README.md"));

        for (String alert : ALERTS) {
            int heading = readme.indexOf("\n### " + alert + "\n");
            assertThat(heading).as("README.md has a section '### %s'", alert).isPositive();
            int next = readme.indexOf("\n#", heading + 1);
            String section = readme.substring(heading, next < 0 ? readme.length() : next);
            assertThat(section).as("what to do on %s", alert).contains("What to do");
        }
    }

    @Test
    void badThresholdsFailTheSchema() {
        assertThatThrownBy(() ->
                        chart().set("prometheusRule.stalledFor", "5 minutes").template())
                .hasMessageContaining("prometheusRule.stalledFor: Does not match pattern");
        assertThatThrownBy(() -> chart().set("prometheusRule.lagRecords", -1).template())
                .hasMessageContaining("prometheusRule.lagRecords: Must be greater than or equal to 0");
        assertThatThrownBy(() ->
                        chart().set("prometheusRule.runbookUrl", "README.md").template())
                .hasMessageContaining("prometheusRule.runbookUrl: Does not match pattern");
    }
}
