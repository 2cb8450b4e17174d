package io.weir.internal.supervision;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.weir.internal.metrics.WeirMeter;
import io.weir.state.rocksdb.RocksDbResources;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The registries of an instance: Weir's meters go to {@link #registry()}; {@link #scrape()}
 * renders them, with JVM, process and RocksDB memory meters, as Prometheus text for
 * {@code /metrics}. An application that passes its own registry keeps it: Weir's meters go to
 * both (a composite), the JVM meters only to the Prometheus one, so the application's own JVM
 * meters are not doubled.
 *
 * <p>Instance-level gauges, tagged with {@code application} and {@code instance}:
 * {@code weir.instance.state} (1 for the current state, tag {@code state}), {@code weir.instance.ready},
 * {@code weir.instance.stalled}, {@code weir.rocksdb.memory.usage} and {@code weir.rocksdb.memory.limit}.
 *
 * <p>Thread-safe.
 */
public final class InstanceMeters implements AutoCloseable {

    private final PrometheusMeterRegistry prometheus;
    private final MeterRegistry registry;
    private JvmGcMetrics gc;

    /** @param appRegistry the application's own registry, or null */
    public InstanceMeters(MeterRegistry appRegistry) {
        this.prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        if (appRegistry == null) {
            this.registry = prometheus;
        } else {
            CompositeMeterRegistry composite = new CompositeMeterRegistry();
            composite.add(prometheus);
            composite.add(appRegistry);
            this.registry = composite;
        }
    }

    /** Where Weir's meters are registered. */
    public MeterRegistry registry() {
        return registry;
    }

    /**
     * Binds the JVM, process and instance gauges; call once the instance id is known.
     *
     * @param states the instance's states: one {@code weir.instance.state} gauge each, 1 for the current one
     */
    public <S extends Enum<S>> void bind(
            Tags instanceTags,
            RocksDbResources rocksDb,
            Class<S> states,
            Supplier<S> state,
            BooleanSupplier ready,
            BooleanSupplier stalled) {
        new JvmMemoryMetrics(instanceTags).bindTo(prometheus);
        gc = new JvmGcMetrics(instanceTags);
        gc.bindTo(prometheus);
        new JvmThreadMetrics(instanceTags).bindTo(prometheus);
        new ClassLoaderMetrics(instanceTags).bindTo(prometheus);
        new JvmInfoMetrics().bindTo(prometheus);
        new ProcessorMetrics(instanceTags).bindTo(prometheus);
        new UptimeMetrics(instanceTags).bindTo(prometheus);
        new FileDescriptorMetrics(instanceTags).bindTo(prometheus);
        for (S s : states.getEnumConstants()) {
            WeirMeter.INSTANCE_STATE
                    .gauge(() -> state.get() == s ? 1 : 0)
                    .tags(instanceTags.and("state", s.name()))
                    .register(registry);
        }
        WeirMeter.INSTANCE_READY
                .gauge(() -> ready.getAsBoolean() ? 1 : 0)
                .tags(instanceTags)
                .register(registry);
        WeirMeter.INSTANCE_STALLED
                .gauge(() -> stalled.getAsBoolean() ? 1 : 0)
                .tags(instanceTags)
                .register(registry);
        WeirMeter.ROCKSDB_MEMORY_USAGE.gauge(rocksDb::usage).tags(instanceTags).register(registry);
        WeirMeter.ROCKSDB_MEMORY_LIMIT
                .gauge(() -> rocksDb.config().totalBytes())
                .tags(instanceTags)
                .register(registry);
    }

    /** Every meter in the Prometheus text format (version 0.0.4). */
    public String scrape() {
        return prometheus.scrape();
    }

    @Override
    public void close() {
        if (gc != null) {
            gc.close();
        }
        prometheus.close();
    }
}
