package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.internal.savepoint.Manifest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SavepointRetentionTest {

    private static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");

    private static Manifest taken(String id, Duration ago) {
        return new Manifest(id, "orders", NOW.minus(ago).toEpochMilli(), false, "1.0", null, List.of());
    }

    private static List<String> kept(List<SavepointRetention.Verdict> verdicts) {
        return verdicts.stream()
                .filter(SavepointRetention.Verdict::keep)
                .map(v -> v.savepoint().id())
                .toList();
    }

    private final List<Manifest> history = List.of(
            taken("a", Duration.ofDays(10)),
            taken("b", Duration.ofDays(5)),
            taken("c", Duration.ofDays(2)),
            taken("d", Duration.ofHours(1)));

    @Test
    void keepsTheNewestNAndNoneOlderThanTheMaximumAge() {
        SavepointRetention count = new SavepointRetention(Optional.of(2), Optional.empty());
        SavepointRetention age = new SavepointRetention(Optional.empty(), Optional.of(Duration.ofDays(3)));
        SavepointRetention both = new SavepointRetention(Optional.of(3), Optional.of(Duration.ofDays(7)));

        assertThat(kept(count.apply(history, NOW, Optional.empty()))).containsExactly("d", "c");
        assertThat(kept(age.apply(history, NOW, Optional.empty()))).containsExactly("d", "c");
        assertThat(kept(both.apply(history, NOW, Optional.empty()))).containsExactly("d", "c", "b");
        assertThat(both.apply(history, NOW, Optional.empty()))
                .extracting(SavepointRetention.Verdict::reason)
                .containsExactly(
                        "the newest: never deleted",
                        "among the newest 3, younger than 7d",
                        "among the newest 3, younger than 7d",
                        "beyond the newest 3");
    }

    @Test
    void neverDeletesTheNewestNorTheSavepointOfTheLastUpgrade() {
        SavepointRetention strict = new SavepointRetention(Optional.of(1), Optional.of(Duration.ofMinutes(1)));

        List<SavepointRetention.Verdict> verdicts = strict.apply(history, NOW, Optional.of("b"));

        assertThat(kept(verdicts)).containsExactly("d", "b");
        assertThat(verdicts.get(0).reason()).isEqualTo("the newest: never deleted");
        assertThat(verdicts.get(2).reason()).contains("the last savepoint upgrade", "a rollback restores it");
        assertThat(verdicts.get(3).reason()).isEqualTo("beyond the newest 1");
        assertThat(kept(strict.apply(List.of(taken("old", Duration.ofDays(400))), NOW, Optional.empty())))
                .containsExactly("old");
    }

    @Test
    void readsAgesAndRefusesBadLimitsNamingTheOption() {
        assertThat(SavepointRetention.parseAge("90m")).isEqualTo(Duration.ofMinutes(90));
        assertThat(SavepointRetention.parseAge("7d")).isEqualTo(Duration.ofDays(7));
        assertThat(SavepointRetention.parseAge("PT12H")).isEqualTo(Duration.ofHours(12));
        assertThatThrownBy(() -> SavepointRetention.parseAge("7 days")).hasMessageContaining("--max-age");
        assertThatThrownBy(() -> new SavepointRetention(Optional.of(0), Optional.empty()))
                .hasMessageContaining("--keep must be at least 1");
        assertThatThrownBy(() -> new SavepointRetention(Optional.empty(), Optional.of(Duration.ZERO)))
                .hasMessageContaining("--max-age must be positive");
    }
}
