package io.weir.internal.supervision;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HeartbeatWordsTest {

    @Test
    void aRebalanceAnnouncementIsASignalNotAStatusTheToolsShow() {
        assertThat(LivenessWatch.parseHeartbeat("alive 1 " + LivenessWatch.REBALANCE + " state=RUNNING active=0_1"))
                .containsEntry("kind", "alive")
                .containsEntry("state", "RUNNING")
                .containsEntry("active", "0_1")
                .doesNotContainKey("rebalance");
        assertThat(LivenessWatch.parseHeartbeat("away 12000 2")).containsExactly(java.util.Map.entry("kind", "away"));
    }
}
