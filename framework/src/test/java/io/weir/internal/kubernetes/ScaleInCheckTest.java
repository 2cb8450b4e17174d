package io.weir.internal.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.weir.errors.ConfigException;
import io.weir.testkit.kubernetes.KubernetesApiServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScaleInCheckTest {

    private static final Duration SHUTDOWN = Duration.ofSeconds(30);
    private static final String SCALE = "/apis/apps/v1/namespaces/shop/statefulsets/orders/scale";

    private static KubernetesApiServer server;

    @BeforeAll
    static void startServer() {
        server = KubernetesApiServer.start("shop");
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @BeforeEach
    void forgetEverything() {
        server.reset();
    }

    /** The API as the pod would find it in its environment and files. */
    private static Supplier<KubernetesApi> pod() {
        return () -> InCluster.api(server.podEnvironment(), server.serviceAccountDir());
    }

    @Test
    void aPodWhoseOrdinalIsAtOrAboveTheDesiredReplicasLeaves() {
        server.createStatefulSet("orders", 3);
        ScaleInCheck last = ScaleInCheck.start(Optional.of("orders-2"), pod(), SHUTDOWN);
        ScaleInCheck middle = ScaleInCheck.start(Optional.of("orders-1"), pod(), SHUTDOWN);

        server.setReplicas("orders", 2);

        ScaleInCheck.Decision d = last.atShutdown();
        assertThat(d.leave()).isTrue();
        assertThat(d.reason())
                .startsWith("pod orders-2 (ordinal 2) is at or above the desired replicas of StatefulSet"
                        + " orders (2): removed by a scale-down, leaving the consumer group (the API answered in ");
        assertThat(middle.atShutdown().leave()).isFalse();

        server.setReplicas("orders", 0);
        assertThat(middle.atShutdown().leave())
                .as("scaled to zero: every pod goes")
                .isTrue();
    }

    @Test
    void aPodRestartedWhileTheReplicasStayKeepsItsMembership() {
        server.createStatefulSet("orders", 3);
        ScaleInCheck check = ScaleInCheck.start(Optional.of("orders-2"), pod(), SHUTDOWN);

        ScaleInCheck.Decision d = check.atShutdown();

        assertThat(d.leave()).isFalse();
        assertThat(d.reason())
                .startsWith("pod orders-2 (ordinal 2) is below the desired replicas of StatefulSet"
                        + " orders (3): a restart (rollout, eviction or deleted pod), keeping the group membership");
        server.setReplicas("orders", 5);
        assertThat(check.atShutdown().leave()).as("scaled out meanwhile").isFalse();
    }

    @Test
    void aDeletedStatefulSetTakesItsPodsForGood() {
        server.createStatefulSet("orders", 3);
        ScaleInCheck check = ScaleInCheck.start(Optional.of("orders-0"), pod(), SHUTDOWN);

        server.deleteStatefulSet("orders");

        ScaleInCheck.Decision d = check.atShutdown();
        assertThat(d.leave()).isTrue();
        assertThat(d.reason())
                .isEqualTo("StatefulSet orders no longer exists, so pod orders-0 will not come back:"
                        + " leaving the consumer group");
    }

    @Test
    void whenTheApiFailsAtShutdownThePodKeepsItsMembership() {
        server.createStatefulSet("orders", 1);
        ScaleInCheck check = ScaleInCheck.start(Optional.of("orders-3"), pod(), SHUTDOWN);
        server.expect()
                .get()
                .withPath(SCALE)
                .andReturn(
                        503,
                        "{\"kind\":\"Status\",\"reason\":\"ServiceUnavailable\","
                                + "\"message\":\"etcdserver: leader changed\",\"code\":503}")
                .once();

        ScaleInCheck.Decision d = check.atShutdown();

        assertThat(d.leave()).isFalse();
        assertThat(d.reason())
                .startsWith("cannot read the desired replicas of StatefulSet orders (Kubernetes API GET"
                        + " statefulsets/orders/scale in namespace shop: HTTP 503 ServiceUnavailable (etcdserver: leader"
                        + " changed)); keeping the group membership")
                .endsWith("its tasks move once consumer.session.timeout.ms has passed");
        assertThat(check.atShutdown().leave())
                .as("the API answers again: ordinal 3 of 1 replica")
                .isTrue();
    }

    @Test
    void anApiThatDoesNotAnswerAtShutdownCostsAtMostTheCallsTimeout() throws Exception {
        try (SilentServer silent = new SilentServer()) {
            KubernetesApi silentApi = silent.api(Duration.ofMillis(500));
            // At start an API that does not answer is a warning, not a failure: it may answer by SIGTERM.
            ScaleInCheck check = ScaleInCheck.start(Optional.of("orders-1"), () -> silentApi, Duration.ofSeconds(2));

            // The reason says the call gave up after its time-out; the deadline only fails a check that hangs.
            ScaleInCheck.Decision d = assertTimeoutPreemptively(Duration.ofSeconds(60), check::atShutdown);

            assertThat(d.leave()).isFalse();
            assertThat(d.reason()).contains("no answer from " + silent.url() + " within 500 ms");
        }
    }

    @Test
    void theCallAtShutdownTakesAQuarterOfTheShutdownTimeoutBetween250MsAnd2S() {
        assertThat(ScaleInCheck.shutdownCallTimeout(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(2));
        assertThat(ScaleInCheck.shutdownCallTimeout(Duration.ofSeconds(4))).isEqualTo(Duration.ofSeconds(1));
        assertThat(ScaleInCheck.shutdownCallTimeout(Duration.ofMillis(400))).isEqualTo(Duration.ofMillis(250));
        assertThat(ScaleInCheck.shutdownCallTimeout(Duration.ZERO)).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void startNeedsThePodNameAsInstanceId() {
        assertThatThrownBy(() -> ScaleInCheck.start(Optional.empty(), pod(), SHUTDOWN))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'shutdown.leave.group'")
                .hasMessageContaining("needs instance.id set to the pod's name (<statefulset>-<ordinal>");
        for (String notAPod : List.of("orders", "orders-", "orders-01", "orders-x", "-1")) {
            assertThatThrownBy(() -> ScaleInCheck.start(Optional.of(notAPod), pod(), SHUTDOWN))
                    .as(notAPod)
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("needs instance.id to be the name of a StatefulSet's pod,"
                            + " <statefulset>-<ordinal>, but it is '" + notAPod + "'");
        }
        assertThat(StatefulSetPod.of("my-app-v2-10")).contains(new StatefulSetPod("my-app-v2", 10));
    }

    @Test
    void startNeedsTheServiceAccountToken(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("namespace"), "shop");

        assertThatThrownBy(() -> ScaleInCheck.start(
                        Optional.of("orders-0"), () -> InCluster.api(server.podEnvironment(), dir), SHUTDOWN))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'shutdown.leave.group'")
                .hasMessageContaining("kubernetes_scale_in reads the StatefulSet's desired replicas through the"
                        + " Kubernetes API, but the pod has no service account token at " + dir.resolve("token"))
                .hasMessageContaining("automountServiceAccountToken: false")
                .hasMessageContaining("(it needs get on statefulsets/scale for orders)");
    }

    @Test
    void startNeedsTheRoleAndTheStatefulSet() {
        server.expect()
                .get()
                .withPath(SCALE)
                .andReturn(
                        403,
                        "{\"kind\":\"Status\",\"reason\":\"Forbidden\","
                                + "\"message\":\"cannot get resource statefulsets/scale\",\"code\":403}")
                .once();

        assertThatThrownBy(() -> ScaleInCheck.start(Optional.of("orders-0"), pod(), SHUTDOWN))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'shutdown.leave.group'")
                .hasMessageContaining("kubernetes_scale_in cannot read the StatefulSet's desired replicas: Kubernetes"
                        + " API GET statefulsets/orders/scale in namespace shop: HTTP 403 Forbidden")
                .hasMessageContaining("needs a Role with the rule {apiGroups: [apps], resources: [statefulsets/scale],"
                        + " resourceNames: [orders], verbs: [get]}");
        assertThatThrownBy(() -> ScaleInCheck.start(Optional.of("orders-0"), pod(), SHUTDOWN))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("there is no StatefulSet 'orders' in namespace shop");
    }

    @Test
    void anApiErrorAtStartIsOnlyAWarning() {
        server.createStatefulSet("orders", 2);
        server.expect().get().withPath(SCALE).andReturn(500, "internal error").once();

        ScaleInCheck check = ScaleInCheck.start(Optional.of("orders-1"), pod(), SHUTDOWN);

        server.setReplicas("orders", 1);
        assertThat(check.atShutdown().leave()).isTrue();
    }
}
