package io.weir.internal.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.serde.Serdes;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class StoreSpecTest {

    @Test
    void theSixArgumentFormIsAKeyValueStore() {
        StoreSpec spec = new StoreSpec("counts", Serdes.strings(), Serdes.longs(), true, true, Duration.ofHours(1));
        assertThat(spec.kind()).isEqualTo(StoreSpec.Kind.KEY_VALUE);
        assertThat(spec.windowSizeMs()).isZero();
        assertThat(spec.retention()).isNull();
        assertThatThrownBy(() -> spec.changelogRetentionMs(0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aWindowedChangelogKeepsRetentionPlusWindowSizePlusOneDay() {
        StoreSpec window = StoreSpecs.window("w", 60_000, Duration.ofHours(1));
        assertThat(window.changelogRetentionMs(86_400_000L)).isEqualTo(3_600_000L + 60_000L + 86_400_000L);
        StoreSpec session = StoreSpecs.session("s", Duration.ZERO);
        assertThat(session.changelogRetentionMs(86_400_000L)).isEqualTo(86_400_000L);
        StoreSpec forever = StoreSpecs.session("f", Duration.ofSeconds(Long.MAX_VALUE));
        assertThat(forever.changelogRetentionMs(86_400_000L)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void optionsOfAnotherKindAreRefused() {
        assertThatThrownBy(() -> StoreSpecs.of("w", Duration.ofHours(1), StoreSpec.Kind.WINDOW, 10, Duration.ZERO))
                .hasMessageContaining("TTL");
        assertThatThrownBy(() -> StoreSpecs.of("w", null, StoreSpec.Kind.WINDOW, 0, Duration.ZERO))
                .hasMessageContaining("positive");
        assertThatThrownBy(() -> StoreSpecs.of("s", null, StoreSpec.Kind.SESSION, 10, Duration.ZERO))
                .hasMessageContaining("window stores only");
        assertThatThrownBy(() -> StoreSpecs.of("s", null, StoreSpec.Kind.SESSION, 0, null))
                .hasMessageContaining("retention");
        assertThatThrownBy(() -> StoreSpecs.of("k", null, StoreSpec.Kind.KEY_VALUE, 0, Duration.ZERO))
                .hasMessageContaining("window and session stores only");
    }
}
