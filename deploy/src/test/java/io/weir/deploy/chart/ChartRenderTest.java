package io.weir.deploy.chart;

import static io.weir.deploy.chart.WeirChart.chart;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.LintResult;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The chart lints, renders for every kind of installation, and renders only valid manifests. */
class ChartRenderTest {

    @Test
    void lintsCleanInStrictMode() {
        LintResult lint = WeirChart.helm().lint().strict().call();

        assertThat(lint.isFailed()).as("lint messages: %s", lint.getMessages()).isFalse();
        assertThat(lint.getMessages()).noneMatch(m -> m.contains("[ERROR]") || m.contains("[WARNING]"));
    }

    @Test
    void rendersTheDefaultsWithOnlyTheRequiredValues() {
        WeirChart.Manifests manifests = chart().render();

        assertThat(manifests.kinds())
                .containsExactlyInAnyOrder(
                        "ServiceAccount",
                        "ConfigMap",
                        "Service",
                        "StatefulSet",
                        "PodDisruptionBudget",
                        "Role",
                        "RoleBinding",
                        "NetworkPolicy",
                        "ConfigMap",
                        "Pod", // these two only for `helm test`
                        "ServiceAccount",
                        "Role",
                        "RoleBinding",
                        "ConfigMap",
                        "Job"); // these five only for `helm rollback` to this revision (the pre-rollback hook)
        assertThat(manifests.only(StatefulSet.class).getMetadata().getName()).isEqualTo(WeirChart.FULLNAME);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "persistence-off.yaml",
                "persistence-custom.yaml",
                "keda.yaml",
                "servicemonitor.yaml",
                "sasl.yaml",
                "tls.yaml",
                "monitoring.yaml",
                "production.yaml"
            })
    void rendersEveryValuesFileIntoStrictlyValidManifests(String valuesFile) {
        WeirChart.Manifests manifests = chart().values(valuesFile).render();

        assertThat(manifests.kinds()).contains("StatefulSet", "Service", "ConfigMap");
    }

    @Test
    void strictParsingRejectsAFieldTheModelDoesNotKnow() {
        String misspelt = """
        apiVersion: apps/v1
        kind: StatefulSet
        metadata: { name: x }
        spec:
          replica: 2
        """;

        assertThatThrownBy(() -> StrictManifests.parse(misspelt))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("replica");
    }

    @Test
    void strictParsingRejectsAnUnknownFieldDeepInThePodTemplate() {
        String misspelt = chart().template().replace("imagePullPolicy:", "imagePullPolicyy:");

        assertThatThrownBy(() -> StrictManifests.parse(misspelt))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("imagePullPolicyy");
    }

    @Test
    void strictParsingRejectsANumberOrABooleanWhereKubernetesWantsAString() {
        String unquoted = """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: x
          labels: { app.kubernetes.io/instance: 1234 }
        """;

        assertThatThrownBy(() -> StrictManifests.parse(unquoted))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("not a valid ConfigMap");
    }

    @Test
    void namesThatReadAsNumbersOrBooleansStayStrings() {
        // A release, Secrets and keys named like YAML numbers and booleans (yaml-types.yaml).
        WeirChart.Manifests manifests =
                chart().values("yaml-types.yaml").release("1234").render();

        StatefulSet statefulSet = manifests.only(StatefulSet.class);
        assertThat(statefulSet.getMetadata().getLabels()).containsEntry("app.kubernetes.io/instance", "1234");
        assertThat(statefulSet.getSpec().getSelector().getMatchLabels())
                .containsEntry("app.kubernetes.io/instance", "1234");
        var pod = statefulSet.getSpec().getTemplate().getSpec();
        var secretRef = pod.getContainers().get(0).getEnv().stream()
                .filter(e -> e.getName().equals("WEIR_SASL_JAAS_CONFIG"))
                .findFirst()
                .orElseThrow()
                .getValueFrom()
                .getSecretKeyRef();
        assertThat(secretRef.getName()).isEqualTo("true");
        assertThat(secretRef.getKey()).isEqualTo("1234");
        assertThat(pod.getImagePullSecrets()).extracting(r -> r.getName()).containsExactly("0755");
        assertThat(pod.getVolumes())
                .filteredOn(v -> v.getName().equals("tls"))
                .singleElement()
                .satisfies(v -> assertThat(v.getSecret().getSecretName()).isEqualTo("false"));
    }
}
