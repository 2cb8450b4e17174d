package io.weir.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LivenessWatchTest {

    @Test
    void staticMembersAreTheInstanceIdAndAThreadNumber() {
        assertThat(LivenessWatch.isMemberOf("a-0", "a")).isTrue();
        assertThat(LivenessWatch.isMemberOf("a-12", "a")).isTrue();
        assertThat(LivenessWatch.isMemberOf("pod-1-0", "pod-1")).isTrue();
    }

    @Test
    void anInstanceWhoseIdExtendsAnotherIsNotItsMember() {
        assertThat(LivenessWatch.isMemberOf("a-1-0", "a")).isFalse();
        assertThat(LivenessWatch.isMemberOf("pod-10-0", "pod-1")).isFalse();
        assertThat(LivenessWatch.isMemberOf("a-", "a")).isFalse();
        assertThat(LivenessWatch.isMemberOf("b-0", "a")).isFalse();
    }
}
