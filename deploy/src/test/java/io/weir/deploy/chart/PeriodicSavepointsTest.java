package io.weir.deploy.chart;

import static io.weir.deploy.chart.WeirChart.FULLNAME;
import static io.weir.deploy.chart.WeirChart.chart;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import org.junit.jupiter.api.Test;

/**
 * {@code savepoints.periodic}: a CronJob that never overlaps itself takes a savepoint of the running
 * application ({@code weir savepoint create --id-prefix periodic-}) and then prunes the history to
 * {@code savepoints.retention}, keeping the savepoint an upgrade marked on the StatefulSet, which
 * is all its account may read.
 */
class PeriodicSavepointsTest {

    private static final String NAME = FULLNAME + "-savepoints";

    private static WeirChart periodic() {
        return chart().values("tls.yaml")
                .set("savepoints.periodic.enabled", true)
                .set("savepoints.periodic.schedule", "*/30 * * * *");
    }

    private static PodSpec pod(WeirChart.Manifests m) {
        return m.only(CronJob.class)
                .getSpec()
                .getJobTemplate()
                .getSpec()
                .getTemplate()
                .getSpec();
    }

    @Test
    void offByDefault() {
        assertThat(chart().render().kinds()).doesNotContain("CronJob");
    }

    @Test
    void takesASavepointOnTheScheduleThenPrunesToTheRetention() {
        WeirChart.Manifests m = periodic()
                .set("savepoints.retention.maxCount", 24)
                .set("savepoints.retention.maxAge", "2d")
                .render();
        CronJob cron = m.only(CronJob.class);
        assertThat(cron.getMetadata().getName()).isEqualTo(NAME);
        assertThat(cron.getSpec().getSchedule()).isEqualTo("*/30 * * * *");
        assertThat(cron.getSpec().getConcurrencyPolicy()).isEqualTo("Forbid");
        assertThat(cron.getSpec().getJobTemplate().getSpec().getBackoffLimit()).isZero();
        assertThat(cron.getSpec().getJobTemplate().getSpec().getActiveDeadlineSeconds())
                .isEqualTo(600L);
        PodSpec pod = pod(m);
        assertThat(pod.getServiceAccountName()).isEqualTo(NAME);
        assertThat(pod.getAutomountServiceAccountToken()).isTrue();

        Container create = pod.getInitContainers().get(0);
        assertThat(create.getCommand()).containsExactly("weir");
        assertThat(create.getArgs())
                .containsExactly(
                        "savepoint", "create", "--app", "orders", "--id-prefix", "periodic-", "--timeout", "120");
        Container prune = pod.getContainers().get(0);
        assertThat(prune.getArgs())
                .containsExactly(
                        "savepoint",
                        "prune",
                        "--app",
                        "orders",
                        "--statefulset",
                        FULLNAME,
                        "--prefix",
                        "pre-upgrade-",
                        "--prefix",
                        "periodic-",
                        "--keep",
                        "24",
                        "--max-age",
                        "2d");
        for (Container c : java.util.List.of(create, prune)) {
            assertThat(c.getEnv()).anySatisfy(e -> assertThat(e.getName()).isEqualTo("WEIR_CONFIG_FILE"));
            assertThat(c.getVolumeMounts())
                    .extracting(v -> v.getName() + ":" + v.getMountPath())
                    .contains("config:/etc/weir/config", "tls:/etc/weir/tls");
        }
        // the release's own properties file: no hook ConfigMap outside an upgrade
        assertThat(pod.getVolumes()).anySatisfy(v -> {
            assertThat(v.getName()).isEqualTo("config");
            assertThat(v.getConfigMap().getName()).isEqualTo(FULLNAME);
        });

        Role role = m.named(Role.class, NAME);
        assertThat(role.getRules()).singleElement().satisfies((PolicyRule r) -> {
            assertThat(r.getResources()).containsExactly("statefulsets");
            assertThat(r.getResourceNames()).containsExactly(FULLNAME);
            assertThat(r.getVerbs()).containsExactly("get");
        });
        assertThat(m.named(RoleBinding.class, NAME).getSubjects())
                .singleElement()
                .satisfies(s -> assertThat(s.getName()).isEqualTo(NAME));
    }

    @Test
    void withoutRetentionItOnlyTakesSavepointsAndNeedsNoToken() {
        WeirChart.Manifests m = periodic().render();
        PodSpec pod = pod(m);

        assertThat(pod.getInitContainers()).isNullOrEmpty();
        assertThat(pod.getContainers())
                .singleElement()
                .satisfies(c -> assertThat(c.getArgs()).containsSequence("savepoint", "create"));
        assertThat(pod.getAutomountServiceAccountToken()).isFalse();
        assertThat(m.all(Role.class)).noneMatch(r -> r.getMetadata().getName().equals(NAME));
    }

    @Test
    void badValuesFailNamingTheValue() {
        assertThatThrownBy(() ->
                        periodic().set("savepoints.periodic.schedule", "hourly").template())
                .hasMessageContaining("schedule");
        assertThatThrownBy(() -> periodic()
                        .set("savepoints.periodic.concurrencyPolicy", "Allow")
                        .template())
                .hasMessageContaining("Additional property concurrencyPolicy is not allowed");
    }
}
