package io.weir.deploy.chart;

import static io.weir.deploy.chart.WeirChart.chart;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Scale-in without annotations ({@code scaleIn}): the pods decide at SIGTERM with
 * {@code shutdown.leave.group=kubernetes_scale_in}, which reads the StatefulSet's desired replicas
 * through the Kubernetes API. The pods get the token and a Role that allows exactly that read, on
 * this release's StatefulSet only; switched off, they get neither and the preStop hook's
 * annotation path stays.
 */
class ScaleInTest {

    private static PodSpec pod(WeirChart.Manifests manifests) {
        return manifests.only(StatefulSet.class).getSpec().getTemplate().getSpec();
    }

    private static Optional<String> env(WeirChart.Manifests manifests, String name) {
        Container weir = pod(manifests).getContainers().get(0);
        return weir.getEnv().stream()
                .filter(e -> e.getName().equals(name))
                .map(EnvVar::getValue)
                .findFirst();
    }

    @Test
    void theRoleAllowsOnlyGetOnThisStatefulSetAndItsScale() {
        WeirChart.Manifests manifests = chart().render().release();
        StatefulSet statefulSet = manifests.only(StatefulSet.class);
        Role role = manifests.only(Role.class);

        assertThat(role.getMetadata().getNamespace()).isEqualTo(WeirChart.NAMESPACE);
        assertThat(role.getRules()).singleElement().satisfies(rule -> {
            assertThat(rule.getApiGroups()).containsExactly("apps");
            assertThat(rule.getResources()).containsExactlyInAnyOrder("statefulsets", "statefulsets/scale");
            assertThat(rule.getResourceNames())
                    .containsExactly(statefulSet.getMetadata().getName());
            assertThat(rule.getVerbs()).containsExactly("get");
            assertThat(rule.getNonResourceURLs()).isNullOrEmpty();
        });
        assertThat(role.getRules())
                .flatExtracting(PolicyRule::getResources)
                .noneMatch(r -> r.equals("*") || r.startsWith("pods") || r.startsWith("secrets"));
    }

    @Test
    void theRoleIsBoundToTheServiceAccountThePodsRunAs() {
        WeirChart.Manifests manifests = chart().render().release();
        RoleBinding binding = manifests.only(RoleBinding.class);

        assertThat(binding.getRoleRef().getApiGroup()).isEqualTo("rbac.authorization.k8s.io");
        assertThat(binding.getRoleRef().getKind()).isEqualTo("Role");
        assertThat(binding.getRoleRef().getName())
                .isEqualTo(manifests.only(Role.class).getMetadata().getName());
        assertThat(binding.getSubjects()).singleElement().satisfies(s -> {
            assertThat(s.getKind()).isEqualTo("ServiceAccount");
            assertThat(s.getName())
                    .isEqualTo(pod(manifests).getServiceAccountName())
                    .isEqualTo(
                            manifests.only(ServiceAccount.class).getMetadata().getName());
            assertThat(s.getNamespace()).isEqualTo(WeirChart.NAMESPACE);
        });
    }

    @Test
    void podsMountTheTokenAndLeaveTheGroupOnlyOnAScaleDown() {
        WeirChart.Manifests manifests = chart().render().release();

        assertThat(pod(manifests).getAutomountServiceAccountToken()).isTrue();
        assertThat(env(manifests, "WEIR_SHUTDOWN_LEAVE_GROUP")).contains("kubernetes_scale_in");
        // The StatefulSet's name is the pod name without its ordinal: what Weir derives from instance.id.
        assertThat(pod(manifests).getContainers().get(0).getEnv())
                .filteredOn(e -> e.getName().equals("WEIR_INSTANCE_ID"))
                .singleElement()
                .satisfies(e -> assertThat(e.getValueFrom().getFieldRef().getFieldPath())
                        .isEqualTo("metadata.name"));
        // The annotation path stays: a marked pod still leaves through the preStop hook.
        assertThat(pod(manifests)
                        .getContainers()
                        .get(0)
                        .getLifecycle()
                        .getPreStop()
                        .getExec()
                        .getCommand())
                .anyMatch(c -> c.endsWith("pre-stop.sh"));
    }

    @Test
    void theRoleFollowsTheStatefulSetsAndTheServiceAccountsNames() {
        WeirChart.Manifests manifests = chart().set("fullnameOverride", "payments")
                .set("serviceAccount.create", false)
                .set("serviceAccount.name", "team-apps")
                .render()
                .release();

        assertThat(manifests.only(Role.class).getRules().get(0).getResourceNames())
                .containsExactly("payments");
        assertThat(manifests.only(RoleBinding.class).getSubjects())
                .extracting(Subject::getName)
                .containsExactly("team-apps");
        assertThat(pod(manifests).getServiceAccountName()).isEqualTo("team-apps");
    }

    @Test
    void withoutRbacCreationThePodsStillDecideWithARoleBoundByTheAdmins() {
        WeirChart.Manifests manifests =
                chart().set("scaleIn.rbac.create", false).render().release();

        assertThat(manifests.kinds()).doesNotContain("Role", "RoleBinding");
        assertThat(pod(manifests).getAutomountServiceAccountToken()).isTrue();
        assertThat(env(manifests, "WEIR_SHUTDOWN_LEAVE_GROUP")).contains("kubernetes_scale_in");
    }

    @Test
    void switchedOffThePodsHoldNoTokenAndNoRole() {
        WeirChart.Manifests manifests =
                chart().set("scaleIn.enabled", false).render().release();

        assertThat(manifests.kinds()).doesNotContain("Role", "RoleBinding");
        assertThat(pod(manifests).getAutomountServiceAccountToken()).isFalse();
        assertThat(env(manifests, "WEIR_SHUTDOWN_LEAVE_GROUP")).isEmpty();
        assertThat(manifests.only(ServiceAccount.class).getAutomountServiceAccountToken())
                .isFalse();
        // The operator may then choose shutdown.leave.group itself.
        assertThat(StatefulSetTest.weirProperties(chart().set("scaleIn.enabled", false)
                        .set("config.shutdown\\.leave\\.group", true)
                        .render()))
                .containsEntry("shutdown.leave.group", "true");
    }

    @Test
    void badValuesFailNamingWhatToChange() {
        assertThatThrownBy(() ->
                        chart().set("config.shutdown\\.leave\\.group", true).template())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("config.shutdown.leave.group: the chart sets shutdown.leave.group; set"
                        + " scaleIn.enabled=false to set it yourself instead");
        assertThatThrownBy(() -> chart().values("sasl.yaml")
                        .set("secretConfig.shutdown\\.leave\\.group.secretName", "s")
                        .set("secretConfig.shutdown\\.leave\\.group.key", "k")
                        .template())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("secretConfig.shutdown.leave.group: the chart sets shutdown.leave.group");
        for (List<Object> bad : List.<List<Object>>of(
                List.of("scaleIn.enabled", "yes"),
                List.of("scaleIn.rbac.create", 1),
                List.of("scaleIn.rbac.enabled", true),
                List.of("scaleIn.statefulSet", "x"))) {
            assertThatThrownBy(
                            () -> chart().set((String) bad.get(0), bad.get(1)).template())
                    .as("%s=%s", bad.get(0), bad.get(1))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("values don't meet the specifications of the schema");
        }
    }
}
