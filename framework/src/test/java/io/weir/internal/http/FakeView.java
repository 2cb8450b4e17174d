package io.weir.internal.http;

import io.weir.internal.topology.TopologyModel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/** An {@link InstanceView} whose answers a test sets; each answer may also throw or block. */
final class FakeView implements InstanceView {

    volatile Supplier<HealthReport> liveness = () -> new HealthReport(true, "RUNNING", List.of());
    volatile Supplier<HealthReport> readiness = () -> new HealthReport(true, "RUNNING", List.of());
    volatile Supplier<InstanceInfo> info = () -> new InstanceInfo(
            "0.1.0",
            OpsTopologies.APP,
            "wc-1",
            "exactly_once",
            "RUNNING",
            Map.of("weir-stream-2", List.of("1_0"), "weir-stream-1", List.of("0_0", "0_1")),
            List.of("1_1", "1_2"),
            List.of("1_2"));
    volatile Supplier<TopologyModel> topology = OpsTopologies::mixed;
    volatile Supplier<String> metrics = () -> "# TYPE weir_records_in_total counter\nweir_records_in_total 3.0\n";
    final AtomicBoolean stopping = new AtomicBoolean();

    @Override
    public HealthReport liveness() {
        return liveness.get();
    }

    @Override
    public HealthReport readiness() {
        return readiness.get();
    }

    @Override
    public InstanceInfo info() {
        return info.get();
    }

    @Override
    public TopologyModel topology() {
        return topology.get();
    }

    @Override
    public String prometheusText() {
        return metrics.get();
    }

    @Override
    public boolean leaveGroupAndStop() {
        return stopping.compareAndSet(false, true);
    }
}
