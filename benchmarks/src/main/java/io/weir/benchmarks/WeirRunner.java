package io.weir.benchmarks;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.WeirConfig;
import io.weir.serde.Serdes;

/**
 * The stateless map in Weir: {@code stream → mapValues → to} with byte-array serdes, one stream
 * thread, {@code exactly_once} or {@code at_least_once}, and the shared producer and consumer
 * settings passed with the {@code producer.} and {@code consumer.} prefixes. {@code WEIR_*}
 * environment variables are ignored, so the shell cannot change what is measured.
 */
final class WeirRunner implements SystemUnderTest {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    @Override
    public String name() {
        return "weir";
    }

    @Override
    public Running start(RunSpec spec) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.stream(Serdes.bytes(), Serdes.bytes(), spec.inputTopic())
                .mapValues((byte[] v) -> ValueTransform.apply(v))
                .to(spec.outputTopic(), Serdes.bytes(), Serdes.bytes());
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

            @Override
            public void close() {
                app.close(CLOSE_TIMEOUT);
            }
        };
    }

    private static WeirConfig config(RunSpec spec) {
        WeirConfig.Builder b = WeirConfig.builder()
                .applicationId(spec.applicationId())
                .bootstrapServers(spec.bootstrapServers())
                .set("processing.guarantee", spec.guarantee().label())
                .set("num.stream.threads", 1)
                .set("commit.interval.ms", ClientSettings.COMMIT_INTERVAL.toMillis())
                .set("state.dir", spec.stateDir().toString())
                .environment(Map.of());
        ClientSettings.producer().forEach((k, v) -> b.set("producer." + k, v));
        ClientSettings.consumer().forEach((k, v) -> b.set("consumer." + k, v));
        return b.build();
    }
}
