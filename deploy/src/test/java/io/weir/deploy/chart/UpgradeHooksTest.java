package io.weir.deploy.chart;

import static io.weir.deploy.chart.WeirChart.FULLNAME;
import static io.weir.deploy.chart.WeirChart.NAMESPACE;
import static io.weir.deploy.chart.WeirChart.RELEASE;
import static io.weir.deploy.chart.WeirChart.chart;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code upgrade.mode}: {@code rolling} renders only the pre-rollback hook (which undoes a savepoint
 * upgrade made after it); {@code savepoint} renders the pre-upgrade and pre-rollback Jobs (the new
 * image describes its topology, the CLI carries the state), their own account and a Role that can
 * do nothing but read, mark and scale the release's StatefulSet. Every name fits Kubernetes' limits.
 */
class UpgradeHooksTest {

    private static WeirChart savepoint() {
        return chart().values("sasl.yaml").values("upgrade-savepoint.yaml");
    }

    private static Job job(WeirChart.Manifests m, String name) {
        return m.all(Job.class).stream()
                .filter(j -> j.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no Job " + name));
    }

    private static Map<String, String> env(Container c) {
        return c.getEnv().stream()
                .filter(e -> e.getValue() != null)
                .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
    }

    private static List<HasMetadata> hooks(WeirChart.Manifests m) {
        return m.all(HasMetadata.class).stream()
                .filter(r -> r.getMetadata().getAnnotations() != null
                        && r.getMetadata()
                                .getAnnotations()
                                .getOrDefault("helm.sh/hook", "")
                                .matches(".*pre-(upgrade|rollback).*"))
                .toList();
    }

    @Test
    void rollingRendersOnlyThePreRollbackHookThatUndoesALaterSavepointUpgrade() {
        WeirChart.Manifests m = chart().render();
        String name = FULLNAME + "-upgrade";

        assertThat(hooks(m))
                .extracting(r -> r.getKind() + "/" + r.getMetadata().getName())
                .containsExactlyInAnyOrder(
                        "ServiceAccount/" + name,
                        "Role/" + name,
                        "RoleBinding/" + name,
                        "ConfigMap/" + name,
                        "Job/" + FULLNAME + "-rollback");
        assertThat(hooks(m))
                .allSatisfy(h ->
                        assertThat(h.getMetadata().getAnnotations()).containsEntry("helm.sh/hook", "pre-rollback"));
        List<String> args = cliArgs(m, FULLNAME + "-rollback");
        assertThat(args).containsSequence("upgrade", "--mode", "rolling", "--rollback");

        assertThat(hooks(chart().set("upgrade.rollbackHook", false).render())).isEmpty();
        assertThat(hooks(chart().values("keda.yaml").render()))
                .as("KEDA would scale up during a restore")
                .isEmpty();
    }

    @Test
    void savepointRendersTheHooksWithWeightsAndDeletePolicies() {
        WeirChart.Manifests m = savepoint().render();
        String name = FULLNAME + "-upgrade";
        List<HasMetadata> hooks = m.all(HasMetadata.class).stream()
                .filter(r -> r.getMetadata().getAnnotations() != null
                        && r.getMetadata()
                                .getAnnotations()
                                .getOrDefault("helm.sh/hook", "")
                                .matches(".*pre-(upgrade|rollback).*"))
                .toList();
        assertThat(hooks)
                .extracting(r -> r.getKind() + "/" + r.getMetadata().getName())
                .containsExactlyInAnyOrder(
                        "ServiceAccount/" + name,
                        "Role/" + name,
                        "RoleBinding/" + name,
                        "ConfigMap/" + name,
                        "Job/" + name,
                        "Job/" + FULLNAME + "-rollback");
        for (HasMetadata h : hooks) {
            Map<String, String> a = h.getMetadata().getAnnotations();
            assertThat(a.get("helm.sh/hook-delete-policy"))
                    .as(h.getKind())
                    .isEqualTo("before-hook-creation,hook-succeeded");
            int weight = Integer.parseInt(a.get("helm.sh/hook-weight"));
            // what the Jobs need exists before them
            assertThat(weight)
                    .as(h.getKind())
                    .isEqualTo(h instanceof Job ? 0 : weight)
                    .isLessThanOrEqualTo(0);
            if (!(h instanceof Job)) {
                assertThat(weight).as(h.getKind()).isNegative();
                assertThat(a.get("helm.sh/hook")).isEqualTo("pre-upgrade,pre-rollback");
            }
            assertThat(h.getMetadata().getNamespace()).isEqualTo(NAMESPACE);
        }
        assertThat(job(m, name).getMetadata().getAnnotations()).containsEntry("helm.sh/hook", "pre-upgrade");
        assertThat(job(m, FULLNAME + "-rollback").getMetadata().getAnnotations())
                .containsEntry("helm.sh/hook", "pre-rollback");
        // the release's own objects are not hooks
        assertThat(m.only(StatefulSet.class).getMetadata().getAnnotations()).isNullOrEmpty();
    }

    @Test
    void theRoleCanOnlyReadAndScaleTheReleasesStatefulSet() {
        WeirChart.Manifests m = savepoint().render();
        Role role = m.named(Role.class, FULLNAME + "-upgrade"); // beside scale-in's Role of the pods
        assertThat(role.getRules()).hasSize(1);
        PolicyRule rule = role.getRules().get(0);
        assertThat(rule.getApiGroups()).containsExactly("apps");
        assertThat(rule.getResources()).containsExactlyInAnyOrder("statefulsets", "statefulsets/scale");
        assertThat(rule.getResourceNames())
                .containsExactly(m.only(StatefulSet.class).getMetadata().getName());
        assertThat(rule.getVerbs()).containsExactlyInAnyOrder("get", "patch");

        RoleBinding binding = m.named(RoleBinding.class, FULLNAME + "-upgrade");
        assertThat(binding.getRoleRef().getKind()).isEqualTo("Role");
        assertThat(binding.getRoleRef().getName()).isEqualTo(role.getMetadata().getName());
        assertThat(binding.getSubjects()).singleElement().satisfies(s -> {
            assertThat(s.getKind()).isEqualTo("ServiceAccount");
            assertThat(s.getName()).isEqualTo(FULLNAME + "-upgrade");
            assertThat(s.getNamespace()).isEqualTo(NAMESPACE);
        });
        // the application's own pods never get this account: theirs has only scale-in's read-only Role
        StatefulSet sts = m.only(StatefulSet.class);
        assertThat(sts.getSpec().getTemplate().getSpec().getServiceAccountName())
                .isNotEqualTo(FULLNAME + "-upgrade");
        assertThat(m.all(ServiceAccount.class))
                .extracting(a -> a.getMetadata().getName())
                .contains(FULLNAME + "-upgrade");
    }

    @Test
    void theUpgradeJobDescribesTheNewImageAndRunsTheCliOnIt() {
        WeirChart.Manifests m = savepoint()
                .set("image.tag", "2.0")
                .set("args[0]", "serve")
                .set("args[1]", "word-count")
                .render();
        Job job = job(m, FULLNAME + "-upgrade");
        assertThat(job.getSpec().getBackoffLimit()).isZero();
        assertThat(job.getSpec().getActiveDeadlineSeconds()).isEqualTo(1800L);
        PodSpec pod = job.getSpec().getTemplate().getSpec();
        assertThat(pod.getRestartPolicy()).isEqualTo("Never");
        assertThat(pod.getServiceAccountName()).isEqualTo(FULLNAME + "-upgrade");
        assertThat(pod.getAutomountServiceAccountToken()).isTrue();

        Container describe = pod.getInitContainers().get(0);
        Container app = m.only(StatefulSet.class)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0);
        assertThat(describe.getImage())
                .isEqualTo("registry.example.com/orders-app:2.0")
                .isEqualTo(app.getImage());
        assertThat(describe.getArgs()).isEqualTo(app.getArgs()).containsExactly("serve", "word-count");
        assertThat(env(describe))
                .containsEntry("WEIR_RUN_MODE", "describe")
                .containsEntry("WEIR_DESCRIBE_FILE", "/work/topology.json")
                .containsEntry("WEIR_CONFIG_FILE", "/etc/weir/config/weir.properties");
        // the release's secrets, as the pods get them
        assertThat(describe.getEnv()).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("WEIR_SASL_JAAS_CONFIG");
            assertThat(e.getValueFrom().getSecretKeyRef().getName()).isEqualTo("kafka-credentials");
        });
        assertThat(describe.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();

        Container cli = pod.getContainers().get(0);
        assertThat(cli.getImage()).isEqualTo("registry.example.com/orders-app:2.0");
        assertThat(cli.getCommand()).containsExactly("weir");
        assertThat(cli.getArgs())
                .containsExactly(
                        "upgrade",
                        "--mode",
                        "savepoint",
                        "--app",
                        "orders",
                        "--topology-file",
                        "/work/topology.json",
                        "--statefulset",
                        FULLNAME,
                        "--release",
                        RELEASE,
                        "--savepoint-prefix",
                        "pre-upgrade-r1-",
                        "--timeout",
                        "120",
                        "--stop-timeout",
                        "300",
                        "--allow-dropped-state",
                        "--map-topic",
                        "orders=orders-v2",
                        "--map-store",
                        "totals=order-totals");
        assertThat(cli.getEnv()).anySatisfy(e -> assertThat(e.getName()).isEqualTo("WEIR_SASL_JAAS_CONFIG"));
        assertThat(env(cli)).doesNotContainKey("WEIR_RUN_MODE");
        for (Container c : List.of(describe, cli)) {
            assertThat(c.getVolumeMounts())
                    .extracting(v -> v.getName() + ":" + v.getMountPath())
                    .contains("work:/work", "tmp:/tmp", "config:/etc/weir/config", "tls:/etc/weir/tls");
        }
        assertThat(pod.getVolumes()).anySatisfy(v -> {
            assertThat(v.getName()).isEqualTo("config");
            assertThat(v.getConfigMap().getName()).isEqualTo(FULLNAME + "-upgrade");
        });
    }

    @Test
    void theHookConfigHoldsTheNewValuesAsThePodsWillReadThem() {
        WeirChart.Manifests m =
                savepoint().set("config.num\\.stream\\.threads", 4).render();
        List<ConfigMap> maps = m.all(ConfigMap.class);
        String release = maps.stream()
                .filter(c -> c.getMetadata().getName().equals(FULLNAME))
                .findFirst()
                .orElseThrow()
                .getData()
                .get("weir.properties");
        String hook = maps.stream()
                .filter(c -> c.getMetadata().getName().equals(FULLNAME + "-upgrade"))
                .findFirst()
                .orElseThrow()
                .getData()
                .get("weir.properties");
        assertThat(hook.strip())
                .isEqualTo(release.strip())
                .contains("num.stream.threads=4")
                .contains("ssl.truststore.location=/etc/weir/tls/truststore.p12");
    }

    @Test
    void theRollbackJobRestoresTheNewestPreUpgradeSavepoint() {
        Job rollback = job(savepoint().render(), FULLNAME + "-rollback");
        List<String> args = rollback.getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getArgs();
        assertThat(args).contains("--rollback").containsSequence("--savepoint-prefix", "pre-upgrade-");
        assertThat(rollback.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getName())
                .isEqualTo("rollback");

        WeirChart.Manifests without =
                savepoint().set("upgrade.rollbackHook", false).render();
        assertThat(without.all(Job.class))
                .extracting(j -> j.getMetadata().getName())
                .containsExactly(FULLNAME + "-upgrade");
    }

    @Test
    void aCliImageOfItsOwnRunsTheCli() {
        Container cli = job(
                        savepoint()
                                .set("upgrade.cli.image.repository", "registry.example.com/weir-cli")
                                .set("upgrade.cli.image.tag", "0.2.0")
                                .set("upgrade.cli.command[0]", "/opt/weir/bin/weir")
                                .render(),
                        FULLNAME + "-upgrade")
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0);
        assertThat(cli.getImage()).isEqualTo("registry.example.com/weir-cli:0.2.0");
        assertThat(cli.getCommand()).containsExactly("/opt/weir/bin/weir");
    }

    @Test
    void theHookPodIsNeitherAnEndpointNorCountedByTheDisruptionBudget() {
        WeirChart.Manifests m = savepoint().render();
        Map<String, String> labels = m.named(Job.class, FULLNAME + "-upgrade")
                .getSpec()
                .getTemplate()
                .getMetadata()
                .getLabels();

        assertThat(labels)
                .containsEntry("app.kubernetes.io/component", "upgrade")
                .containsEntry("app.kubernetes.io/instance", RELEASE);
        for (Map<String, String> selector : List.of(
                m.only(Service.class).getSpec().getSelector(),
                m.only(PodDisruptionBudget.class).getSpec().getSelector().getMatchLabels())) {
            assertThat(selector.entrySet())
                    .isNotEmpty()
                    .anySatisfy(e -> assertThat(labels).doesNotContainEntry(e.getKey(), e.getValue()));
        }
    }

    @Test
    void badUpgradeValuesFailNamingTheValue() {
        assertThatThrownBy(() -> chart().set("upgrade.mode", "stateless").template())
                .hasMessageContaining("upgrade.mode")
                .hasMessageContaining("rolling");
        assertThatThrownBy(() -> chart().set("upgrade.frobnicate", true).template())
                .hasMessageContaining("Additional property frobnicate is not allowed");
        assertThatThrownBy(() -> chart().values("keda.yaml")
                        .set("upgrade.mode", "savepoint")
                        .template())
                .hasMessageContaining("upgrade.mode=savepoint cannot be used with keda.enabled");
        assertThatThrownBy(() ->
                        savepoint().set("upgrade.mapTopics.orders", "orders").template())
                .hasMessageContaining(
                        "upgrade.mapTopics.orders: give the topic the new version reads instead of orders");
        assertThatThrownBy(() ->
                        savepoint().set("upgrade.mapStores.totals", "totals").template())
                .hasMessageContaining("upgrade.mapStores.totals: give the store's new name");
        assertThatThrownBy(
                        () -> savepoint().set("upgrade.stopTimeoutSeconds", 0).template())
                .hasMessageContaining("stopTimeoutSeconds: Must be greater than or equal to 1");
        assertThatThrownBy(() -> savepoint()
                        .set("upgrade.stopTimeoutSeconds", 600)
                        .set("upgrade.activeDeadlineSeconds", 700)
                        .template())
                .hasMessageContaining("upgrade.activeDeadlineSeconds (700) must exceed"
                        + " upgrade.savepointTimeoutSeconds + upgrade.stopTimeoutSeconds (120 + 600)");
        assertThatThrownBy(() ->
                        savepoint().set("savepoints.retention.maxAge", "7 days").template())
                .hasMessageContaining("maxAge");
        assertThatThrownBy(() ->
                        savepoint().set("savepoints.retention.maxCount", -1).template())
                .hasMessageContaining("maxCount");
    }

    @Test
    void everyNameFitsKubernetesLimitsForTheLongestFullname() {
        String release = "orders-with-a-rather-long-release-name-for-tests"; // + "-weir", cut to 52
        WeirChart.Manifests m = savepoint()
                .release(release)
                .set("savepoints.periodic.enabled", true)
                .set("savepoints.retention.maxCount", 5)
                .render();
        String fullname = m.only(StatefulSet.class).getMetadata().getName();
        assertThat(fullname).hasSize(52);

        assertThat(m.all(HasMetadata.class))
                .allSatisfy(r -> assertThat(r.getMetadata().getName())
                        .as(r.getKind())
                        .hasSizeLessThanOrEqualTo(63)
                        .matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?"));
        assertThat(m.all(Job.class))
                .extracting(j -> j.getMetadata().getName())
                .containsExactlyInAnyOrder(fullname + "-upgrade", fullname + "-rollback");
        assertThat(m.only(io.fabric8.kubernetes.api.model.batch.v1.CronJob.class)
                        .getMetadata()
                        .getName())
                .as("a CronJob's Jobs add 11 characters")
                .hasSizeLessThanOrEqualTo(52)
                .endsWith("-savepoints");
    }

    /**
     * The maps of a revision say how the version before it becomes it; its pre-rollback hook
     * restores a savepoint of that same revision (taken by the upgrade after it that failed), where
     * a map names a store the savepoint does not have and the restore is refused. Found by the
     * Podman scenario's {@code --atomic} step: the rollback failed with "the savepoint has no store
     * word-counts (it has word-totals)".
     */
    @Test
    void theRollbackHookRestoresWithoutTheMapsOfTheUpgradeIntoItsRevision() {
        WeirChart.Manifests m = savepoint()
                .set("upgrade.mapStores.word-counts", "word-totals")
                .set("upgrade.mapTopics.lines", "lines-v2")
                .set("upgrade.allowDroppedState", true)
                .render();
        List<String> upgrade = cliArgs(m, FULLNAME + "-upgrade");
        List<String> rollback = cliArgs(m, FULLNAME + "-rollback");

        assertThat(upgrade)
                .containsSequence("--map-store", "word-counts=word-totals")
                .containsSequence("--map-topic", "lines=lines-v2")
                .contains("--allow-dropped-state");
        assertThat(rollback)
                .contains("--rollback")
                .doesNotContain("--map-store", "--map-topic", "--allow-dropped-state");
    }

    @Test
    void theUpgradeHookPrunesToTheRetentionAfterASuccessfulUpgradeAndTheRollbackDoesNot() {
        WeirChart.Manifests m = savepoint()
                .set("savepoints.retention.maxCount", 5)
                .set("savepoints.retention.maxAge", "7d")
                .render();
        List<String> upgrade = cliArgs(m, FULLNAME + "-upgrade");
        List<String> rollback = cliArgs(m, FULLNAME + "-rollback");

        assertThat(upgrade)
                .containsSequence(
                        "--prefix", "pre-upgrade-", "--prefix", "periodic-", "--keep", "5", "--max-age", "7d");
        assertThat(rollback).doesNotContain("--keep", "--max-age", "--prefix");
        assertThat(cliArgs(savepoint().render(), FULLNAME + "-upgrade"))
                .as("no limits, no prune")
                .doesNotContain("--keep", "--max-age");
    }

    /** The arguments of the CLI container of hook Job {@code name}. */
    private static List<String> cliArgs(WeirChart.Manifests m, String name) {
        return job(m, name)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getArgs();
    }
}
