package io.weir.deploy.chart;

import static io.weir.deploy.chart.WeirChart.FULLNAME;
import static io.weir.deploy.chart.WeirChart.NAMESPACE;
import static io.weir.deploy.chart.WeirChart.RELEASE;
import static io.weir.deploy.chart.WeirChart.chart;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code reset.*} and {@code cleanup.*}: off by default; on, a pre-install/pre-upgrade Job runs
 * {@code weir replay} (once per {@code reset.id}, recorded in {@code <fullname>-replay}) and a
 * post-delete Job runs {@code weir cleanup}, each with its own account and a Role limited to what
 * its command calls, the upgrade hooks' CLI image and resources, names within 63 characters.
 */
class ResetAndCleanupHooksTest {

    private static WeirChart reset() {
        return chart().set("reset.enabled", true).set("reset.id", "replay-1").set("reset.to", "earliest");
    }

    private static WeirChart cleanup() {
        return chart().set("cleanup.enabled", true);
    }

    private static List<HasMetadata> hooks(WeirChart.Manifests m, String hook) {
        return m.all(HasMetadata.class).stream()
                .filter(r -> r.getMetadata().getAnnotations() != null
                        && hook.equals(r.getMetadata().getAnnotations().get("helm.sh/hook")))
                .toList();
    }

    private static Container cli(Job job) {
        return job.getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    @Test
    void theResetHookRunsWeirReplayBeforeInstallsAndUpgradesBeforeTheUpgradeHook() {
        assertThat(hooks(chart().set("reset.enabled", false).render(), "pre-install,pre-upgrade"))
                .as("off by default")
                .isEmpty();
        WeirChart.Manifests m = reset().set("reset.topics[0]", "orders")
                .set("reset.topics[1]", "refunds")
                .render();
        String name = FULLNAME + "-reset";
        assertThat(hooks(m, "pre-install,pre-upgrade"))
                .extracting(r -> r.getKind() + "/" + r.getMetadata().getName())
                .containsExactlyInAnyOrder(
                        "ConfigMap/" + name,
                        "ServiceAccount/" + name,
                        "Role/" + name,
                        "RoleBinding/" + name,
                        "Job/" + name);
        for (HasMetadata h : hooks(m, "pre-install,pre-upgrade")) {
            Map<String, String> a = h.getMetadata().getAnnotations();
            assertThat(a.get("helm.sh/hook-delete-policy")).isEqualTo("before-hook-creation,hook-succeeded");
            assertThat(Integer.parseInt(a.get("helm.sh/hook-weight")))
                    .as(h.getKind())
                    .isLessThan(h instanceof Job ? 0 : -5); // before the upgrade hook (0); its needs before it
            assertThat(h.getMetadata().getNamespace()).isEqualTo(NAMESPACE);
            assertThat(h.getMetadata().getLabels())
                    .containsEntry("app.kubernetes.io/component", "reset")
                    .doesNotContainKey("app.kubernetes.io/name");
        }
        Job job = m.named(Job.class, name);
        assertThat(job.getSpec().getActiveDeadlineSeconds()).isEqualTo(900L);
        PodSpec pod = job.getSpec().getTemplate().getSpec();
        assertThat(pod.getServiceAccountName()).isEqualTo(name);
        assertThat(pod.getRestartPolicy()).isEqualTo("Never");
        assertThat(pod.getInitContainers()).isEmpty(); // reset.to needs no topology
        Container cli = cli(job);
        assertThat(cli.getImage())
                .isEqualTo(m.only(StatefulSet.class)
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getImage());
        assertThat(cli.getCommand()).containsExactly("weir");
        assertThat(cli.getArgs())
                .containsExactly(
                        "replay",
                        "--app",
                        "orders",
                        "--replay-id",
                        "replay-1",
                        "--record",
                        FULLNAME + "-replay",
                        "--record-label",
                        "app.kubernetes.io/instance=" + RELEASE,
                        "--record-label",
                        "app.kubernetes.io/component=reset",
                        "--statefulset",
                        FULLNAME,
                        "--revision",
                        "1",
                        "--stop-timeout",
                        "300",
                        "--to",
                        "earliest",
                        "--topics",
                        "orders,refunds");
        assertThat(cli.getResources().getLimits()).containsKey("memory");
        assertThat(cli.getVolumeMounts())
                .extracting(v -> v.getName() + ":" + v.getMountPath())
                .contains("work:/work", "tmp:/tmp", "config:/etc/weir/config");
        assertThat(m.named(ConfigMap.class, name)
                        .getData()
                        .get("weir.properties")
                        .strip())
                .isEqualTo(m.named(ConfigMap.class, FULLNAME)
                        .getData()
                        .get("weir.properties")
                        .strip());
    }

    @Test
    void aSavepointReplayDescribesTheNewVersionAndRestoresIntoIt() {
        WeirChart.Manifests m = chart().set("reset.enabled", true)
                .set("reset.id", "back-to-monday")
                .set("reset.savepoint", "sp-20261130")
                .set("upgrade.cli.image.repository", "registry.example.com/weir-cli")
                .set("upgrade.cli.image.tag", "1.2")
                .render();
        Job job = m.named(Job.class, FULLNAME + "-reset");
        PodSpec pod = job.getSpec().getTemplate().getSpec();
        Container describe = pod.getInitContainers().get(0);
        assertThat(describe.getImage()).startsWith("registry.example.com/orders-app:");
        assertThat(describe.getEnv()).anySatisfy(e -> assertThat(e.getName()).isEqualTo("WEIR_RUN_MODE"));
        assertThat(cli(job).getImage()).isEqualTo("registry.example.com/weir-cli:1.2");
        assertThat(cli(job).getArgs())
                .containsSequence("--savepoint", "sp-20261130", "--topology-file", "/work/topology.json")
                .doesNotContain("--to");
    }

    @Test
    void theResetRoleScalesTheStatefulSetAndWritesOnlyTheRecord() {
        WeirChart.Manifests m = reset().render();
        Role role = m.named(Role.class, FULLNAME + "-reset");
        assertThat(role.getRules())
                .extracting(r ->
                        r.getApiGroups() + " " + r.getResources() + " " + r.getResourceNames() + " " + r.getVerbs())
                .containsExactly(
                        "[apps] [statefulsets, statefulsets/scale] [" + FULLNAME + "] [get, patch]",
                        "[] [configmaps] [" + FULLNAME + "-replay] [get, patch]",
                        "[] [configmaps] [] [create]");
        RoleBinding binding = m.named(RoleBinding.class, FULLNAME + "-reset");
        assertThat(binding.getRoleRef().getName()).isEqualTo(FULLNAME + "-reset");
        assertThat(binding.getSubjects())
                .singleElement()
                .satisfies(s -> assertThat(s.getName()).isEqualTo(FULLNAME + "-reset"));
    }

    @Test
    void misusedResetValuesAreRefusedNamingTheValue() {
        assertThatThrownBy(() -> chart().set("reset.enabled", true)
                        .set("reset.to", "earliest")
                        .template())
                .hasMessageContaining("give reset.id");
        assertThatThrownBy(() ->
                        chart().set("reset.enabled", true).set("reset.id", "r").template())
                .hasMessageContaining("exactly one of reset.to");
        assertThatThrownBy(() -> reset().set("reset.savepoint", "sp-1").template())
                .hasMessageContaining("exactly one of reset.to");
        assertThatThrownBy(() -> reset().set("reset.to", "yesterday").template())
                .hasMessageContaining("reset.to: Does not match pattern");
        assertThatThrownBy(() -> reset().set("reset.id", "has space").template())
                .hasMessageContaining("reset.id: Does not match pattern");
        assertThatThrownBy(() -> reset().values("keda.yaml").template())
                .hasMessageContaining("reset.enabled cannot be used with keda.enabled");
        assertThatThrownBy(() -> reset().set("reset.unknown", 1).template())
                .hasMessageContaining("reset: Additional property unknown is not allowed");
        assertThatThrownBy(() -> cleanup().set("cleanup.deleteVolume", true).template())
                .hasMessageContaining("cleanup: Additional property deleteVolume is not allowed");
        for (String to : List.of("latest", "2026-05-01T10:00:00Z", "2026-05-01T12:00:00+02:00", "PT1H", "90m", "2d")) {
            assertThat(reset().set("reset.to", to).render().named(Job.class, FULLNAME + "-reset"))
                    .as(to)
                    .satisfies(j -> assertThat(cli(j).getArgs()).containsSequence("--to", to));
        }
    }

    @Test
    void theCleanupHookRunsWeirCleanupAfterDelete() {
        assertThat(hooks(chart().set("cleanup.enabled", false).render(), "post-delete"))
                .as("off by default")
                .isEmpty();
        WeirChart.Manifests m = cleanup().render();
        String name = FULLNAME + "-cleanup";
        assertThat(hooks(m, "post-delete"))
                .extracting(r -> r.getKind() + "/" + r.getMetadata().getName())
                .containsExactlyInAnyOrder(
                        "ConfigMap/" + name,
                        "ServiceAccount/" + name,
                        "Role/" + name,
                        "RoleBinding/" + name,
                        "Job/" + name);
        Job job = m.named(Job.class, name);
        assertThat(job.getMetadata().getAnnotations())
                .containsEntry("helm.sh/hook-delete-policy", "before-hook-creation,hook-succeeded")
                .containsEntry("helm.sh/hook-weight", "0");
        assertThat(job.getSpec().getActiveDeadlineSeconds()).isEqualTo(600L);
        assertThat(cli(job).getArgs())
                .containsExactly(
                        "cleanup",
                        "--app",
                        "orders",
                        "--statefulset",
                        FULLNAME,
                        "--wait",
                        "300",
                        "--record",
                        FULLNAME + "-replay");
        Role role = m.named(Role.class, name);
        assertThat(role.getRules()).noneMatch(r -> r.getResources().contains("persistentvolumeclaims"));
        assertThat(role.getRules()).allMatch(r -> !r.getResourceNames().isEmpty());
        // the release's volumes are kept unless asked
        assertThat(m.only(StatefulSet.class)
                        .getSpec()
                        .getPersistentVolumeClaimRetentionPolicy()
                        .getWhenDeleted())
                .isEqualTo("Retain");
    }

    @Test
    void volumesAndSavepointsAreDeletedOnlyWhenAsked() {
        WeirChart.Manifests m = cleanup()
                .set("cleanup.deleteVolumes", true)
                .set("cleanup.deleteSavepoints", true)
                .render();
        Job job = m.named(Job.class, FULLNAME + "-cleanup");
        assertThat(cli(job).getArgs())
                .contains("--savepoints", "--delete-volumes")
                .containsSequence("--volume-claim", "state")
                .containsSequence("--volume-label", "app.kubernetes.io/instance=" + RELEASE)
                .containsSequence("--volume-label", "app.kubernetes.io/name=weir");
        // the claims the StatefulSet makes carry those labels
        assertThat(m.only(StatefulSet.class).getSpec().getVolumeClaimTemplates())
                .singleElement()
                .satisfies(t -> {
                    assertThat(t.getMetadata().getName()).isEqualTo("state");
                    assertThat(t.getMetadata().getLabels())
                            .containsEntry("app.kubernetes.io/instance", RELEASE)
                            .containsEntry("app.kubernetes.io/name", "weir");
                });
        PolicyRule claims = m.named(Role.class, FULLNAME + "-cleanup").getRules().stream()
                .filter(r -> r.getResources().contains("persistentvolumeclaims"))
                .findFirst()
                .orElseThrow();
        assertThat(claims.getVerbs()).containsExactlyInAnyOrder("list", "delete");
    }

    @Test
    void hookNamesStayWithin63CharactersForLongReleaseNames() {
        String longRelease = "a-release-name-long-enough-to-reach-every-name-limit1"; // 53, Helm's longest
        WeirChart.Manifests m =
                reset().set("cleanup.enabled", true).release(longRelease).render();
        List<String> names = m.all(HasMetadata.class).stream()
                .filter(r -> r.getMetadata().getLabels() != null
                        && List.of("reset", "cleanup")
                                .contains(r.getMetadata().getLabels().get("app.kubernetes.io/component")))
                .map(r -> r.getMetadata().getName())
                .toList();
        assertThat(names).hasSize(10).allSatisfy(n -> assertThat(n.length()).isLessThanOrEqualTo(63));
        assertThat(cli(m.named(
                        Job.class,
                        names.stream()
                                .filter(n -> n.endsWith("-reset"))
                                .findFirst()
                                .orElseThrow())))
                .satisfies(c -> assertThat(c.getArgs())
                        .allSatisfy(a -> assertThat(a.length()).isLessThan(200)));
        String record = cli(m.all(Job.class).stream()
                        .filter(j -> j.getMetadata().getName().endsWith("-cleanup"))
                        .findFirst()
                        .orElseThrow())
                .getArgs()
                .get(8);
        assertThat(record).endsWith("-replay").hasSizeLessThanOrEqualTo(63);
    }
}
