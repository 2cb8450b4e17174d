package io.weir.internal.cluster.topics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which source topics can rebuild a table, and so serve as its changelog. */
class SourceChangelogsTest {

    @Test
    void aTopicThatKeepsEveryKeyForEverServesAsTheChangelog() {
        assertThat(SourceChangelogs.keepsEveryKey("compact", "604800000")).isTrue();
        assertThat(SourceChangelogs.keepsEveryKey("compact,delete", "-1")).isTrue();
        assertThat(SourceChangelogs.keepsEveryKey("delete, compact", " -1")).isTrue();
    }

    @Test
    void aTopicThatDeletesOldRecordsDoesNot() {
        assertThat(SourceChangelogs.keepsEveryKey("delete", "-1"))
                .as("delete keeps no key's latest value")
                .isFalse();
        assertThat(SourceChangelogs.keepsEveryKey("delete", "604800000")).isFalse();
        assertThat(SourceChangelogs.keepsEveryKey("compact,delete", "604800000"))
                .as("old rows expire with the retention")
                .isFalse();
    }
}
