package io.weir;

import io.weir.internal.ops.HealthReport;
import io.weir.internal.ops.InstanceInfo;
import io.weir.internal.ops.InstanceView;
import io.weir.internal.ops.Problem;
import io.weir.internal.runtime.InstanceMonitor;
import io.weir.internal.topology.TopologyModel;
import java.util.List;
import java.util.Map;

/** The HTTP endpoints' view of a {@link WeirApp}; every answer comes from snapshots, never from a stream thread. */
final class Endpoints implements InstanceView {

    private final WeirApp app;

    Endpoints(WeirApp app) {
        this.app = app;
    }

    /** Live unless the instance failed or a stream thread died. */
    @Override
    public HealthReport liveness() {
        InstanceMonitor m = app.monitor();
        WeirApp.State s = app.state();
        Throwable failure = app.failure().orElse(null);
        if (m == null) {
            return s == WeirApp.State.FAILED ? new HealthReport(false, s.name(), List.of(Problem.of("failed",
                    "the instance failed to start: " + failure))) : new HealthReport(true, s.name(), List.of());
        }
        return m.liveness(s, failure);
    }

    /** Ready when {@link WeirApp.State#RUNNING} and not stalled. */
    @Override
    public HealthReport readiness() {
        InstanceMonitor m = app.monitor();
        WeirApp.State s = app.state();
        Throwable failure = app.failure().orElse(null);
        if (m == null) {
            return new HealthReport(false, s.name(), List.of(s == WeirApp.State.FAILED
                    ? Problem.of("failed", "the instance failed to start: " + failure)
                    : Problem.of("starting", "the instance is checking the cluster")));
        }
        return m.readiness(s, failure);
    }

    @Override
    public InstanceInfo info() {
        InstanceMonitor m = app.monitor();
        return new InstanceInfo(io.weir.internal.config.WeirVersion.current(), app.config().applicationId(), app.instanceId(),
                app.config().guarantee().configValue(), app.state().name(), m == null ? Map.of() : m.tasksByThread(),
                app.standbyTasks(false), app.standbyTasks(true));
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
