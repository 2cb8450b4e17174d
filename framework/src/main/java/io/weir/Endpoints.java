package io.weir;

import io.weir.internal.http.HealthReport;
import io.weir.internal.http.InstanceInfo;
import io.weir.internal.http.InstanceView;
import io.weir.internal.http.Problem;
import io.weir.internal.http.StoreQueryView;
import io.weir.internal.supervision.InstanceMeters;
import io.weir.internal.supervision.InstanceMonitor;
import io.weir.internal.topology.TopologyModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The HTTP endpoints' view of a {@link WeirApp}; every answer comes from snapshots, never from a stream thread. */
final class Endpoints implements InstanceView {

    private final WeirApp app;
    private final TopologyModel model;
    private final InstanceMeters meters;
    private final StoreQueryView queries;

    Endpoints(WeirApp app, TopologyModel model, InstanceMeters meters, StoreQueryView queries) {
        this.app = app;
        this.model = model;
        this.meters = meters;
        this.queries = queries;
    }

    @Override
    public java.util.Optional<StoreQueryView> storeQueries() {
        return java.util.Optional.of(queries);
    }

    /** Live unless the instance failed or, while it should run, a stream thread died. */
    @Override
    public HealthReport liveness() {
        InstanceMonitor m = app.running().map(RunningInstance::monitor).orElse(null);
        WeirApp.State s = app.state();
        Throwable failure = app.failure().orElse(null);
        List<Problem> problems = new ArrayList<>();
        if (failure != null) {
            problems.add(
                    m == null
                            ? Problem.of("failed", "the instance failed to start: " + failure)
                            : new Problem(
                                    "failed",
                                    "the instance stopped after a fatal error: " + failure,
                                    Map.of("error", String.valueOf(failure))));
        } else if (m != null
                && s != WeirApp.State.STOPPING
                && s != WeirApp.State.STOPPED
                && s != WeirApp.State.CREATED) {
            problems.addAll(m.deadThreads());
        }
        return new HealthReport(problems.isEmpty(), s.name(), problems);
    }

    /** Ready when {@link WeirApp.State#RUNNING}: an assignment, every task restored, and no stall. */
    @Override
    public HealthReport readiness() {
        InstanceMonitor m = app.running().map(RunningInstance::monitor).orElse(null);
        WeirApp.State s = app.state();
        Throwable failure = app.failure().orElse(null);
        if (m == null) {
            return new HealthReport(
                    false,
                    s.name(),
                    List.of(
                            s == WeirApp.State.FAILED
                                    ? Problem.of("failed", "the instance failed to start: " + failure)
                                    : Problem.of("starting", "the instance is checking the cluster")));
        }
        List<Problem> problems = new ArrayList<>();
        switch (s) {
            case FAILED -> problems.add(Problem.of("failed", "the instance stopped after a fatal error: " + failure));
            case CREATED -> problems.add(Problem.of("starting", "the instance has not been started"));
            case STOPPING, STOPPED ->
                problems.add(
                        Problem.of("stopping", "the instance is " + s.name().toLowerCase(Locale.ROOT)));
            default -> problems.addAll(m.threadProblems());
        }
        if (s != WeirApp.State.STOPPED) {
            m.stall().ifPresent(problems::add);
        }
        // The state moves on the monitor's tick; until then it may still say what the threads left behind.
        if (problems.isEmpty() && s != WeirApp.State.RUNNING) {
            problems.add(Problem.of(s.name().toLowerCase(Locale.ROOT), "the instance is " + s));
        }
        return new HealthReport(problems.isEmpty(), s.name(), problems);
    }

    @Override
    public InstanceInfo info() {
        InstanceMonitor m = app.running().map(RunningInstance::monitor).orElse(null);
        return new InstanceInfo(
                io.weir.internal.config.WeirVersion.current(),
                app.config().applicationId(),
                app.instanceId().orElse(null),
                app.config().guarantee().configValue(),
                app.state().name(),
                m == null ? Map.of() : m.tasksByThread(),
                standbyTasks(false),
                standbyTasks(true));
    }

    @Override
    public TopologyModel topology() {
        return model;
    }

    @Override
    public String prometheusText() {
        return meters.scrape();
    }

    @Override
    public boolean leaveGroupAndStop() {
        return app.leaveGroupAndStop();
    }

    private List<String> standbyTasks(boolean warmupsOnly) {
        return app.running().map(i -> i.standbyTasks(warmupsOnly)).orElse(List.of());
    }
}
