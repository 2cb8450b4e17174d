package io.weir.internal.thread;

import java.util.Map;
import java.util.function.DoubleSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Signals read from a consumer's own metrics for stall detection. The {@link Metric} objects are
 * looked up once, on the consumer's thread; reading a metric's value is thread-safe in Kafka's
 * clients (it synchronises on the metric), so other threads may call the suppliers.
 */
final class ConsumerSignals {

    /**
     * Kafka initialises the last heartbeat to the epoch, so before the first heartbeat the metric
     * reads decades; anything above this is "no heartbeat yet", not an outage.
     */
    private static final double NO_HEARTBEAT_YET_SECONDS = 1e6;

    private ConsumerSignals() {}

    /**
     * Seconds since the group coordinator last answered a heartbeat, or NaN when unknown (no
     * heartbeat yet, or a consumer without that metric). It grows while the coordinator cannot be
     * reached even when the thread has nothing to process.
     */
    static DoubleSupplier heartbeatAgeSeconds(Consumer<?, ?> consumer) {
        Metric metric = find(consumer.metrics(), "consumer-coordinator-metrics", "last-heartbeat-seconds-ago");
        if (metric == null) {
            return () -> Double.NaN;
        }
        return () -> {
            Object v = metric.metricValue();
            double seconds = v instanceof Number n ? n.doubleValue() : Double.NaN;
            return seconds >= 0 && seconds < NO_HEARTBEAT_YET_SECONDS ? seconds : Double.NaN;
        };
    }

    private static Metric find(Map<MetricName, ? extends Metric> metrics, String group, String name) {
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
            if (e.getKey().group().equals(group) && e.getKey().name().equals(name)) {
                return e.getValue();
            }
        }
        return null;
    }
}
