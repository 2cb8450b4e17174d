package io.weir.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.TopologyBuilder;
import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serdes;
import io.weir.state.SessionStore;
import io.weir.state.WindowStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class WindowedStoreBuildersTest {

    @Test
    void aWindowStoreIsPersistentAndLoggedByDefaultWithItsSizeAndRetention() {
        WindowStoreBuilder<String, Long> b = Stores.windowStore(
                "clicks", Serdes.strings(), Serdes.longs(), Duration.ofMinutes(1), Duration.ofHours(1));
        StoreSpec spec = StoreSpec.of(b);
        assertThat(spec.kind()).isEqualTo(StoreSpec.Kind.WINDOW);
        assertThat(spec.windowSizeMs()).isEqualTo(60_000);
        assertThat(spec.retention()).isEqualTo(Duration.ofHours(1));
        assertThat(spec.persistent()).isTrue();
        assertThat(spec.logged()).isTrue();
        assertThat(spec.ttl()).isNull();
        StoreSpec options = StoreSpec.of(b.inMemory().withLoggingDisabled());
        assertThat(options.persistent()).isFalse();
        assertThat(options.logged()).isFalse();
        assertThat(options.windowSizeMs()).isEqualTo(60_000);
        assertThat(b.windowSize()).isEqualTo(Duration.ofMinutes(1));
        assertThat(StoreSpec.of(b).persistent()).isTrue(); // builders are immutable
    }

    @Test
    void aSessionStoreHasARetentionAndNoWindowSize() {
        SessionStoreBuilder<String, Long> b =
                Stores.sessionStore("visits", Serdes.strings(), Serdes.longs(), Duration.ZERO);
        StoreSpec spec = StoreSpec.of(b.inMemory());
        assertThat(spec.kind()).isEqualTo(StoreSpec.Kind.SESSION);
        assertThat(spec.windowSizeMs()).isZero();
        assertThat(spec.retention()).isZero();
        assertThat(spec.persistent()).isFalse();
        assertThat(StoreSpec.of(b.withLoggingDisabled()).logged()).isFalse();
    }

    @Test
    void durationsOutOfRangeAreRefusedNamingTheStore() {
        assertThatThrownBy(() ->
                        Stores.windowStore("w", Serdes.strings(), Serdes.longs(), Duration.ZERO, Duration.ofHours(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'w'")
                .hasMessageContaining("window size");
        assertThatThrownBy(() -> Stores.windowStore(
                        "w", Serdes.strings(), Serdes.longs(), Duration.ofNanos(1), Duration.ofHours(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 ms");
        assertThatThrownBy(() -> Stores.windowStore(
                        "w", Serdes.strings(), Serdes.longs(), Duration.ofSeconds(1), Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'w'")
                .hasMessageContaining("retention");
        assertThatThrownBy(() -> Stores.sessionStore("s", Serdes.strings(), Serdes.longs(), Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'s'");
        assertThatThrownBy(() -> Stores.sessionStore("s", Serdes.strings(), Serdes.longs(), null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void theTopologyBuilderTakesWindowAndSessionStores() {
        TopologyBuilder builder = new TopologyBuilder()
                .addSource("in", Serdes.strings(), Serdes.strings(), "events")
                .addProcessor(
                        "p",
                        () -> new Processor<String, String, Void, Void>() {
                            @Override
                            public void init(ProcessorContext<Void, Void> context) {
                                WindowStore<String, Long> w = context.getStateStore("per-minute");
                                SessionStore<String, Long> s = context.getStateStore("visits");
                            }

                            @Override
                            public void process(Record<String, String> record) {}
                        },
                        "in")
                .addStateStore(
                        Stores.windowStore(
                                "per-minute",
                                Serdes.strings(),
                                Serdes.longs(),
                                Duration.ofMinutes(1),
                                Duration.ofHours(1)),
                        "p")
                .addStateStore(
                        Stores.sessionStore("visits", Serdes.strings(), Serdes.longs(), Duration.ofHours(1)), "p");
        // registered under their names: a second store of one of them is refused
        assertThatThrownBy(() -> builder.addStateStore(
                        Stores.sessionStore("per-minute", Serdes.strings(), Serdes.longs(), Duration.ZERO)))
                .hasMessageContaining("already exists");
        assertThat(builder.build().describe()).contains("Processor: p");
    }
}
