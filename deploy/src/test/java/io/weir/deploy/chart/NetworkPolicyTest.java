package io.weir.deploy.chart;

import static io.weir.deploy.chart.WeirChart.chart;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The NetworkPolicy: on by default, it admits traffic to the pods' HTTP port only (where
 * /admin/leave and interactive queries answer), only from the release's own pods (forwarded
 * queries), Prometheus and the peers the values name.
 */
class NetworkPolicyTest {

    private static NetworkPolicyIngressRule onlyRule(WeirChart.Manifests manifests) {
        NetworkPolicy policy = manifests.only(NetworkPolicy.class);
        assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
        assertThat(policy.getSpec().getIngress()).hasSize(1);
        return policy.getSpec().getIngress().get(0);
    }

    @Test
    void admitsTheHttpPortFromTheReleasesPodsAndPrometheusOnly() {
        WeirChart.Manifests manifests = chart().render();
        NetworkPolicy policy = manifests.only(NetworkPolicy.class);
        StatefulSet statefulSet = manifests.only(StatefulSet.class);
        Container weir =
                statefulSet.getSpec().getTemplate().getSpec().getContainers().get(0);
        NetworkPolicyIngressRule rule = onlyRule(manifests);

        // It applies to exactly the release's Weir pods.
        assertThat(policy.getSpec().getPodSelector().getMatchLabels())
                .isEqualTo(statefulSet.getSpec().getSelector().getMatchLabels());
        // The one port the container publishes, by its name, and nothing else.
        assertThat(weir.getPorts())
                .singleElement()
                .satisfies(p -> assertThat(p.getName()).isEqualTo("http"));
        assertThat(rule.getPorts()).singleElement().satisfies(port -> {
            assertThat(port.getPort().getStrVal()).isEqualTo("http");
            assertThat(port.getProtocol()).isEqualTo("TCP");
        });
        List<NetworkPolicyPeer> from = rule.getFrom();
        assertThat(from).hasSize(2);
        // Peers: any pod of this release in its namespace (instances forwarding queries, hooks, tests).
        assertThat(from.get(0).getNamespaceSelector()).isNull();
        assertThat(from.get(0).getPodSelector().getMatchLabels())
                .isEqualTo(Map.of("app.kubernetes.io/instance", WeirChart.RELEASE));
        assertThat(statefulSet.getSpec().getTemplate().getMetadata().getLabels())
                .containsEntry("app.kubernetes.io/instance", WeirChart.RELEASE);
        // Prometheus Operator's Prometheus pods, in any namespace.
        assertThat(from.get(1).getNamespaceSelector()).isEqualTo(new LabelSelector());
        assertThat(from.get(1).getPodSelector().getMatchLabels())
                .isEqualTo(Map.of("app.kubernetes.io/name", "prometheus"));
    }

    @Test
    void admitsTheSourcesTheValuesName() {
        NetworkPolicyIngressRule rule =
                onlyRule(chart().values("production.yaml").render());

        assertThat(rule.getFrom()).hasSize(4);
        NetworkPolicyPeer clients = rule.getFrom().get(2);
        assertThat(clients.getNamespaceSelector().getMatchLabels())
                .isEqualTo(Map.of("kubernetes.io/metadata.name", "orders-api"));
        assertThat(clients.getPodSelector().getMatchLabels()).isEqualTo(Map.of("app", "orders-api"));
        assertThat(rule.getFrom().get(3).getIpBlock().getCidr()).isEqualTo("10.20.0.0/16");
    }

    @Test
    void prometheusCanBeLeftOutOrNarrowed() {
        assertThat(onlyRule(chart().set("networkPolicy.prometheus.enabled", false)
                                .render())
                        .getFrom())
                .hasSize(1);

        NetworkPolicyPeer prometheus = onlyRule(chart().set(
                                "networkPolicy.prometheus.namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name",
                                "monitoring")
                        .render())
                .getFrom()
                .get(1);
        assertThat(prometheus.getNamespaceSelector().getMatchLabels())
                .isEqualTo(Map.of("kubernetes.io/metadata.name", "monitoring"));
    }

    @Test
    void withAnAdminPortAdmitsItFromTheReleasesPodsAndTheQueryClientsButNotPrometheus() {
        WeirChart.Manifests manifests =
                chart().values("production.yaml").set("http.adminPort", 8081).render();
        NetworkPolicy policy = manifests.only(NetworkPolicy.class);
        Container weir = manifests
                .only(StatefulSet.class)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0);

        assertThat(policy.getSpec().getIngress()).hasSize(2);
        NetworkPolicyIngressRule http = policy.getSpec().getIngress().get(0);
        assertThat(http.getPorts())
                .singleElement()
                .satisfies(p -> assertThat(p.getPort().getStrVal()).isEqualTo("http"));
        assertThat(http.getFrom()).hasSize(4);
        NetworkPolicyIngressRule admin = policy.getSpec().getIngress().get(1);
        // The container port by its name: forwarded queries and /admin/ answer there.
        assertThat(admin.getPorts()).singleElement().satisfies(p -> {
            assertThat(p.getPort().getStrVal()).isEqualTo("admin");
            assertThat(p.getProtocol()).isEqualTo("TCP");
        });
        assertThat(weir.getPorts()).anySatisfy(p -> {
            assertThat(p.getName()).isEqualTo("admin");
            assertThat(p.getContainerPort()).isEqualTo(8081);
        });
        assertThat(admin.getFrom()).hasSize(3);
        assertThat(admin.getFrom().get(0).getPodSelector().getMatchLabels())
                .isEqualTo(Map.of("app.kubernetes.io/instance", WeirChart.RELEASE));
        assertThat(admin.getFrom().get(0).getNamespaceSelector()).isNull();
        assertThat(admin.getFrom().subList(1, 3)).isEqualTo(http.getFrom().subList(2, 4));
        assertThat(admin.getFrom())
                .noneMatch(peer -> peer.getPodSelector() != null
                        && "prometheus"
                                .equals(peer.getPodSelector().getMatchLabels().get("app.kubernetes.io/name")));
    }

    @Test
    void canBeTurnedOff() {
        assertThat(chart().set("networkPolicy.enabled", false).render().kinds()).doesNotContain("NetworkPolicy");
    }

    @Test
    void aSourceThatIsNoNetworkPolicyPeerFailsTheSchema() {
        assertThatThrownBy(() -> chart().set("networkPolicy.allowFrom[0].cidr", "10.0.0.0/8")
                        .template())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("networkPolicy.allowFrom.0: Additional property cidr is not allowed");
        assertThatThrownBy(() -> chart().set("networkPolicy.allowFrom[0].ipBlock.except[0]", "10.0.0.0/24")
                        .template())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cidr is required");
        assertThatThrownBy(() -> chart().set("networkPolicy.prometheus.podSelector.matchLabel.app", "prometheus")
                        .template())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(
                        "networkPolicy.prometheus.podSelector: Additional property matchLabel is not allowed");
    }
}
