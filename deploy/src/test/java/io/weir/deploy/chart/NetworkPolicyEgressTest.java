package io.weir.deploy.chart;

import static io.weir.deploy.chart.WeirChart.chart;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Egress restricted on request (networkPolicy.egress.*), and ingress rules of one's own (networkPolicy.extraIngress). */
class NetworkPolicyEgressTest {

    private static NetworkPolicy policy(WeirChart chart) {
        return chart.render().only(NetworkPolicy.class);
    }

    private static WeirChart restricted() {
        return chart().set("networkPolicy.egress.enabled", true)
                .set("networkPolicy.egress.kafka.to[0].ipBlock.cidr", "10.30.0.0/24")
                .set("networkPolicy.egress.kubernetesApi.to[0].ipBlock.cidr", "10.96.0.1/32");
    }

    private static List<Integer> ports(NetworkPolicyEgressRule rule) {
        return rule.getPorts().stream()
                .map(NetworkPolicyPort::getPort)
                .map(p -> p.getIntVal())
                .toList();
    }

    @Test
    void egressStaysOpenByDefault() {
        NetworkPolicy policy = policy(chart());

        assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
        assertThat(policy.getSpec().getEgress()).isNullOrEmpty();
    }

    @Test
    void restrictedEgressReachesDnsThePeersKafkaAndTheApiServerOnly() {
        NetworkPolicy policy = policy(restricted());

        assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress", "Egress");
        List<NetworkPolicyEgressRule> rules = policy.getSpec().getEgress();
        assertThat(rules).hasSize(4);
        assertThat(ports(rules.get(0))).containsExactly(53, 53);
        assertThat(rules.get(1).getTo().get(0).getPodSelector().getMatchLabels())
                .containsEntry("app.kubernetes.io/instance", WeirChart.RELEASE);
        assertThat(ports(rules.get(1))).containsExactly(8080);
        assertThat(rules.get(2).getTo().get(0).getIpBlock().getCidr()).isEqualTo("10.30.0.0/24");
        assertThat(ports(rules.get(2))).containsExactly(9092);
        assertThat(rules.get(3).getTo().get(0).getIpBlock().getCidr()).isEqualTo("10.96.0.1/32");
        assertThat(ports(rules.get(3))).containsExactly(443, 6443);
    }

    @Test
    void theQueryPortAndExtraRulesAreAdded() {
        NetworkPolicy policy = policy(restricted()
                .set("http.adminPort", 8081)
                .set("networkPolicy.egress.extraRules[0].to[0].ipBlock.cidr", "10.40.0.5/32")
                .set("networkPolicy.egress.extraRules[0].ports[0].port", 8081));

        List<NetworkPolicyEgressRule> rules = policy.getSpec().getEgress();
        assertThat(ports(rules.get(1))).containsExactly(8080, 8081);
        assertThat(rules)
                .last()
                .satisfies(
                        r -> assertThat(r.getTo().get(0).getIpBlock().getCidr()).isEqualTo("10.40.0.5/32"));
    }

    @Test
    void withoutScaleInTheApiServerIsNotReached() {
        NetworkPolicy policy = policy(chart().set("scaleIn.enabled", false)
                .set("networkPolicy.egress.enabled", true)
                .set("networkPolicy.egress.kafka.to[0].ipBlock.cidr", "10.30.0.0/24"));

        assertThat(policy.getSpec().getEgress()).hasSize(3);
    }

    @Test
    void restrictedEgressWithoutKafkaOrTheApiServerIsRefusedNamingTheValue() {
        assertThatThrownBy(
                        () -> chart().set("networkPolicy.egress.enabled", true).template())
                .hasMessageContaining("networkPolicy.egress.kafka.to is required");
        assertThatThrownBy(() -> chart().set("networkPolicy.egress.enabled", true)
                        .set("networkPolicy.egress.kafka.to[0].ipBlock.cidr", "10.30.0.0/24")
                        .template())
                .hasMessageContaining("networkPolicy.egress.kubernetesApi.to is required");
    }

    @Test
    void extraIngressRulesAreAddedAsGiven() {
        NetworkPolicy policy = policy(chart().set("networkPolicy.extraIngress[0].ports[0].port", 9404)
                .set("networkPolicy.extraIngress[0].from[0].ipBlock.cidr", "10.50.0.0/16"));

        assertThat(policy.getSpec().getIngress()).last().satisfies(r -> {
            assertThat(r.getPorts().get(0).getPort().getIntVal()).isEqualTo(9404);
            assertThat(r.getFrom().get(0).getIpBlock().getCidr()).isEqualTo("10.50.0.0/16");
        });
    }
}
