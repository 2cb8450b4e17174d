package io.weir.internal.cluster.topics;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.StoreSpecs;
import io.weir.serde.Serdes;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicSetupChangelogTest {

    @Test
    void keyValueChangelogsAreCompactedAndWindowedOnesAlsoDeletedByTime() {
        assertThat(TopicSetup.changelogConfigs(
                        new StoreSpec("kv", Serdes.strings(), Serdes.longs(), true, true, null), 86_400_000L))
                .isEqualTo(Map.of("cleanup.policy", "compact"));
        StoreSpec window = StoreSpecs.window("w", 60_000, Duration.ofHours(1));
        assertThat(TopicSetup.changelogConfigs(window, 86_400_000L))
                .isEqualTo(Map.of(
                        "cleanup.policy",
                        "compact,delete",
                        "retention.ms",
                        Long.toString(3_600_000L + 60_000L + 86_400_000L)));
        StoreSpec session = StoreSpecs.session("s", Duration.ofMinutes(30));
        assertThat(TopicSetup.changelogConfigs(session, 86_400_000L))
                .containsEntry("cleanup.policy", "compact,delete")
                .containsEntry("retention.ms", Long.toString(1_800_000L + 86_400_000L));
        assertThat(TopicSetup.changelogConfigs(session, 7 * 86_400_000L))
                .as("window.changelog.additional.retention.ms")
                .containsEntry("retention.ms", Long.toString(1_800_000L + 7 * 86_400_000L));
    }
}
