package io.weir.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InstanceMembersTest {

    @Test
    void staticMembersAreTheInstanceIdAndAThreadNumber() {
        assertThat(InstanceMembers.isMemberOf("a-0", "a")).isTrue();
        assertThat(InstanceMembers.isMemberOf("a-12", "a")).isTrue();
        assertThat(InstanceMembers.isMemberOf("pod-1-0", "pod-1")).isTrue();
    }

    @Test
    void anInstanceWhoseIdExtendsAnotherIsNotItsMember() {
        assertThat(InstanceMembers.isMemberOf("a-1-0", "a")).isFalse();
        assertThat(InstanceMembers.isMemberOf("pod-10-0", "pod-1")).isFalse();
        assertThat(InstanceMembers.isMemberOf("a-", "a")).isFalse();
        assertThat(InstanceMembers.isMemberOf("b-0", "a")).isFalse();
    }
}
