package io.weir.internal.thread;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.weir.internal.metrics.WeirMeter;
import io.weir.processor.TaskId;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The gauge {@code weir.consumer.lag}: records between a thread's position and the end of each
 * input partition it owns, tagged with {@code task}, {@code topic} and {@code partition}. The
 * value comes from the consumer's own fetch metadata ({@code currentLag}: no request to a
 * broker), sampled on the stream thread at most once a {@link #SAMPLE_NANOS}, since the consumer is
 * not thread-safe; a scrape reads the last sample.
 *
 * <p>Threading: {@link #add}, {@link #remove} and {@link #sample} on the stream thread only; the
 * gauges may be read from any thread.
 */
final class PartitionLag {

    private static final long SAMPLE_NANOS = 1_000_000_000L;

    private final MeterRegistry registry;
    private final Tags tags;
    private final Map<TopicPartition, Entry> entries = new HashMap<>();
    private long lastSample;

    private record Entry(AtomicLong lag, Gauge gauge) {}

    PartitionLag(MeterRegistry registry, Tags threadTags) {
        this.registry = registry;
        this.tags = threadTags;
    }

    void add(TopicPartition tp, TaskId task) {
        entries.computeIfAbsent(tp, p -> {
            // NaN until the consumer knows the partition's end: "unknown" is not "caught up".
            AtomicLong lag = new AtomicLong(-1);
            Gauge gauge = WeirMeter.CONSUMER_LAG
                    .gauge(() -> lag.get() < 0 ? Double.NaN : lag.get())
                    .tags(tags.and(
                            "task",
                            task.toString(),
                            "topic",
                            tp.topic(),
                            "partition",
                            Integer.toString(tp.partition())))
                    .register(registry);
            return new Entry(lag, gauge);
        });
    }

    void remove(TopicPartition tp) {
        Entry e = entries.remove(tp);
        if (e != null) {
            registry.remove(e.gauge());
        }
    }

    void removeAll() {
        for (TopicPartition tp : Map.copyOf(entries).keySet()) {
            remove(tp);
        }
    }

    /** Reads every owned partition's lag from the consumer, if the last sample is old enough. */
    void sample(Consumer<?, ?> consumer) {
        long now = System.nanoTime();
        if (entries.isEmpty() || now - lastSample < SAMPLE_NANOS) {
            return;
        }
        lastSample = now;
        for (Map.Entry<TopicPartition, Entry> e : entries.entrySet()) {
            OptionalLong lag;
            try {
                lag = consumer.currentLag(e.getKey());
            } catch (IllegalStateException notAssigned) {
                lag = OptionalLong.empty();
            }
            e.getValue().lag().set(lag.isPresent() ? lag.getAsLong() : -1);
        }
    }
}
