package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ResetTargetTest {

    private static final Instant NOW = Instant.parse("2024-05-01T12:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    private static ResetTarget parse(String text) {
        return ResetTarget.parse(text, CLOCK);
    }

    @Test
    void earliestAndLatestInAnyCase() {
        assertThat(parse("earliest")).isEqualTo(new ResetTarget.Earliest());
        assertThat(parse("LATEST")).isEqualTo(new ResetTarget.Latest());
    }

    @Test
    void instantsWithZoneOrOffset() {
        assertThat(parse("2024-04-30T10:15:30Z")).isEqualTo(new ResetTarget.At(Instant.parse("2024-04-30T10:15:30Z")));
        assertThat(parse("2024-04-30T12:15:30+02:00"))
                .isEqualTo(new ResetTarget.At(Instant.parse("2024-04-30T10:15:30Z")));
        assertThat(parse("2024-04-30T10:15:30.250Z"))
                .isEqualTo(new ResetTarget.At(Instant.parse("2024-04-30T10:15:30.250Z")));
    }

    @Test
    void durationsCountBackFromNow() {
        assertThat(parse("PT1H")).isEqualTo(new ResetTarget.At(NOW.minusSeconds(3600)));
        assertThat(parse("P1D")).isEqualTo(new ResetTarget.At(NOW.minusSeconds(86_400)));
        assertThat(parse("1h")).isEqualTo(new ResetTarget.At(NOW.minusSeconds(3600)));
        assertThat(parse("90m")).isEqualTo(new ResetTarget.At(NOW.minusSeconds(5400)));
        assertThat(parse("30s")).isEqualTo(new ResetTarget.At(NOW.minusSeconds(30)));
        assertThat(parse("2d")).isEqualTo(new ResetTarget.At(NOW.minusSeconds(2 * 86_400)));
        assertThat(parse("500ms")).isEqualTo(new ResetTarget.At(NOW.minusMillis(500)));
    }

    @Test
    void anythingElseIsRefusedSayingWhatIsAccepted() {
        for (String bad : new String[] {"yesterday", "1w", "-PT1H", "2024-13-01T00:00:00Z", "", "h", "PT"}) {
            assertThatThrownBy(() -> parse(bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("earliest, latest, an ISO-8601 instant");
        }
    }
}
