package io.weir.deploy.chart;

import static io.weir.deploy.chart.WeirChart.chart;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How many instances a drain may take (pdb.*), and how pods spread over hosts and zones (topologySpread.*). */
class DisruptionAndSpreadTest {

    private static PodDisruptionBudget pdb(WeirChart chart) {
        return chart.render().only(PodDisruptionBudget.class);
    }

    private static List<TopologySpreadConstraint> spread(WeirChart chart) {
        return chart.render()
                .only(StatefulSet.class)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getTopologySpreadConstraints();
    }

    @Test
    void aDrainTakesOneInstanceAtATimeByDefault() {
        PodDisruptionBudget pdb = pdb(chart());

        assertThat(pdb.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1);
        assertThat(pdb.getSpec().getMinAvailable()).isNull();
    }

    @Test
    void minAvailableOrAPercentageReplacesMaxUnavailable() {
        PodDisruptionBudget pdb = pdb(chart().set("pdb.maxUnavailable", "").set("pdb.minAvailable", "50%"));
        assertThat(pdb.getSpec().getMinAvailable().getStrVal()).isEqualTo("50%");
        assertThat(pdb.getSpec().getMaxUnavailable()).isNull();

        pdb = pdb(chart().set("pdb.maxUnavailable", "").set("pdb.minAvailable", 2));
        assertThat(pdb.getSpec().getMinAvailable().getIntVal()).isEqualTo(2);

        assertThat(pdb(chart().set("pdb.maxUnavailable", "25%"))
                        .getSpec()
                        .getMaxUnavailable()
                        .getStrVal())
                .isEqualTo("25%");
    }

    @Test
    void bothOrNeitherIsRefusedNamingTheValues() {
        assertThatThrownBy(() -> chart().set("pdb.minAvailable", 2).template())
                .hasMessageContaining("pdb.minAvailable (2) and pdb.maxUnavailable (1)");
        assertThatThrownBy(() -> chart().set("pdb.maxUnavailable", "").template())
                .hasMessageContaining("pdb.minAvailable and pdb.maxUnavailable are both empty");
        assertThatThrownBy(() -> chart().set("pdb.maxUnavailable", "half").template())
                .hasMessageContaining("pdb.maxUnavailable");
    }

    @Test
    void podsSpreadOverHostsAndZonesPreferablyByDefault() {
        assertThat(spread(chart()))
                .extracting(
                        TopologySpreadConstraint::getTopologyKey,
                        TopologySpreadConstraint::getWhenUnsatisfiable,
                        TopologySpreadConstraint::getMaxSkew)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("kubernetes.io/hostname", "ScheduleAnyway", 1),
                        org.assertj.core.groups.Tuple.tuple("topology.kubernetes.io/zone", "ScheduleAnyway", 1));
        assertThat(spread(chart()))
                .allSatisfy(c -> assertThat(c.getLabelSelector().getMatchLabels())
                        .containsEntry("app.kubernetes.io/instance", WeirChart.RELEASE)
                        .containsKey("app.kubernetes.io/name"));
    }

    @Test
    void eachSpreadIsAdjustableAndExtraConstraintsAreAdded() {
        List<TopologySpreadConstraint> spread = spread(chart().set("topologySpread.host.enabled", false)
                .set("topologySpread.zone.whenUnsatisfiable", "DoNotSchedule")
                .set("topologySpread.zone.maxSkew", 2)
                .set("topologySpread.extraConstraints[0].topologyKey", "example.com/rack")
                .set("topologySpread.extraConstraints[0].maxSkew", 1)
                .set("topologySpread.extraConstraints[0].whenUnsatisfiable", "ScheduleAnyway"));

        assertThat(spread)
                .extracting(TopologySpreadConstraint::getTopologyKey)
                .containsExactly("topology.kubernetes.io/zone", "example.com/rack");
        assertThat(spread.get(0).getWhenUnsatisfiable()).isEqualTo("DoNotSchedule");
        assertThat(spread.get(0).getMaxSkew()).isEqualTo(2);
        assertThat(spread(chart().set("topologySpread.enabled", false))).isNullOrEmpty();
    }
}
