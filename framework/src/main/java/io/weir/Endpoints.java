package io.weir;

import io.weir.internal.ops.HealthReport;
import io.weir.internal.ops.InstanceInfo;
import io.weir.internal.ops.InstanceView;
import io.weir.internal.topology.TopologyModel;

/** The HTTP endpoints' view of a {@link WeirApp}; every answer comes from snapshots, never from a stream thread. */
final class Endpoints implements InstanceView {

    private final WeirApp app;

    Endpoints(WeirApp app) {
        this.app = app;
    }

    @Override
    public HealthReport liveness() {
        return app.liveness();
    }

    @Override
    public HealthReport readiness() {
        return app.readiness();
    }

    @Override
    public InstanceInfo info() {
        return app.info();
    }

    @Override
    public TopologyModel topology() {
        return app.model();
    }

    @Override
    public String prometheusText() {
        return app.prometheusText();
    }

    @Override
    public boolean leaveGroupAndStop() {
        return app.leaveGroupAndStop();
    }
}
