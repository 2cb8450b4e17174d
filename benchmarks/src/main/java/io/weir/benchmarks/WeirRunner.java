package io.weir.benchmarks;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import io.micrometer.core.instrument.Counter;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.WeirConfig;
import io.weir.dsl.Emit;
import io.weir.dsl.RecordStream;
import io.weir.dsl.TimeWindows;
import io.weir.serde.Serdes;

/**
 * The workloads in Weir, with byte-array serdes, one stream thread, {@code exactly_once} or
 * {@code at_least_once}, and the shared producer and consumer settings passed with the
 * {@code producer.} and {@code consumer.} prefixes. State settings ({@code state.cache.max.bytes},
 * {@code rocksdb.memory.bytes}) keep their defaults. {@code WEIR_*} environment variables are
 * ignored, so the shell cannot change what is measured. {@link #WeirRunner(Map)} adds settings on top
 * (the child processes of the restart and memory workloads: {@code instance.id},
 * {@code rocksdb.memory.bytes}, ...).
 *
 * <ul>
 *   <li>map: {@code stream → mapValues → to};</li>
 *   <li>count: {@code stream → groupByKey → count("counts") → toStream → to}, long values;</li>
 *   <li>restore: {@code stream → groupByKey → reduce((a, b) -> b, "latest") → toStream → to}; the
 *       restored records are read from the meter {@code weir.restore.records}.</li>
 *   <li>windowed count: {@code stream → groupByKey → windowedBy(TimeWindows.of(10 s)) →
 *       emit(Emit.onWindowClose()) → count("counts") → to}, keys {@code Serdes.windowed(bytes)},
 *       long values; {@code max.out.of.orderness.ms=0} (the default, set so that it stays so).</li>
 * </ul>
 */
final class WeirRunner implements SystemUnderTest {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final Map<String, Object> extraSettings;

    WeirRunner() {
        this(Map.of());
    }

    /** With Weir settings applied after (and over) the benchmark's. */
    WeirRunner(Map<String, Object> extraSettings) {
        this.extraSettings = Map.copyOf(extraSettings);
    }

    @Override
    public String name() {
        return "weir";
    }

    @Override
    public Running start(RunSpec spec) {
        TopologyBuilder builder = new TopologyBuilder();
        RecordStream<byte[], byte[]> input = builder.stream(Serdes.bytes(), Serdes.bytes(), spec.inputTopic());
        switch (spec.scenario().kind()) {
            case MAP -> input.mapValues((byte[] v) -> ValueTransform.apply(v))
                    .to(spec.outputTopic(), Serdes.bytes(), Serdes.bytes());
            case COUNT, RESTART, MEMORY -> input.groupByKey()
                    .count(Scenario.COUNT_STORE)
                    .toStream()
                    .to(spec.outputTopic(), Serdes.bytes(), Serdes.longs());
            case RESTORE -> input.groupByKey()
                    .reduce((a, b) -> b, Scenario.RESTORE_STORE)
                    .toStream()
                    .to(spec.outputTopic(), Serdes.bytes(), Serdes.bytes());
            case WINDOW_COUNT -> input.groupByKey()
                    .windowedBy(TimeWindows.of(Scenario.WINDOW_SIZE))
                    .emit(Emit.onWindowClose())
                    .count(Scenario.COUNT_STORE)
                    .to(spec.outputTopic(), Serdes.windowed(Serdes.bytes()), Serdes.longs());
        }
        WeirApp app = WeirApp.create(builder.build(), config(spec)).start();
        return new Running() {
            @Override
            public Optional<Throwable> failure() {
                Optional<Throwable> f = app.failure();
                if (f.isEmpty() && app.state() == WeirApp.State.FAILED) {
                    return Optional.of(new IllegalStateException("Weir is in state FAILED"));
                }
                return f;
            }

            /** The sum over stream threads of {@code weir.restore.records}, counted once a batch is in the store. */
            @Override
            public long restoredRecords() {
                return Math.round(app.meterRegistry().find("weir.restore.records").counters().stream()
                        .mapToDouble(Counter::count).sum());
            }

            @Override
            public void close() {
                app.close(CLOSE_TIMEOUT);
            }
        };
    }

    private WeirConfig config(RunSpec spec) {
        WeirConfig.Builder b = WeirConfig.builder()
                .applicationId(spec.applicationId())
                .bootstrapServers(spec.bootstrapServers())
                .set("processing.guarantee", spec.guarantee().label())
                .set("num.stream.threads", 1)
                .set("commit.interval.ms", ClientSettings.COMMIT_INTERVAL.toMillis())
                .set("state.dir", spec.stateDir().toString())
                .set("http.port", 0)
                .environment(Map.of());
        if (spec.scenario().kind() == Scenario.Kind.WINDOW_COUNT) {
            b.set("max.out.of.orderness.ms", 0);
        }
        ClientSettings.producer().forEach((k, v) -> b.set("producer." + k, v));
        ClientSettings.consumer().forEach((k, v) -> b.set("consumer." + k, v));
        extraSettings.forEach(b::set);
        return b.build();
    }
}
