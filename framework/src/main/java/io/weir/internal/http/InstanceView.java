package io.weir.internal.http;

import io.weir.internal.topology.TopologyModel;

/**
 * What the HTTP endpoints of an instance read. The runtime implements it; the HTTP server only
 * renders it.
 *
 * <p>Threading contract: every method may be called from any thread (the HTTP server's), returns
 * quickly from snapshots the stream threads publish, and never waits for a stream thread, so a
 * slow or stuck stream thread cannot stall a probe and a probe cannot slow a stream thread.
 */
public interface InstanceView {

    /** {@code /health/live}: ok while every stream thread is alive and no fatal error happened. */
    HealthReport liveness();

    /**
     * {@code /health/ready}: ok once the instance holds an assignment, every active task is
     * restored and running, and nothing stalls it (brokers unreachable, commits failing).
     */
    HealthReport readiness();

    /** {@code /info}. */
    InstanceInfo info();

    /** {@code /topology}: the resolved topology this instance runs. */
    TopologyModel topology();

    /** {@code /metrics}: every meter of the instance in the Prometheus text format. */
    String prometheusText();

    /**
     * {@code POST /admin/leave}: starts a scale-in stop (commit, leave the consumer group so the
     * tasks move at once, close) and returns at once; false if the instance was already stopping.
     */
    boolean leaveGroupAndStop();

    /** The query endpoints' service ({@code /stores/...}); empty: no query endpoints. */
    default java.util.Optional<StoreQueryView> storeQueries() {
        return java.util.Optional.empty();
    }
}
