package io.weir.internal.assign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.internal.assign.MemberHooks.MemberAssignment;
import io.weir.processor.TaskId;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class AssignmentCodecsTest {

    private static ByteBuffer bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return ByteBuffer.wrap(b);
    }

    private static ByteBuffer withVersion(ByteBuffer encoded, int version, int... appended) {
        byte[] b = Arrays.copyOf(encoded.array(), encoded.remaining() + appended.length);
        b[0] = (byte) version;
        for (int i = 0; i < appended.length; i++) {
            b[encoded.remaining() + i] = (byte) appended[i];
        }
        return ByteBuffer.wrap(b);
    }

    // ---- subscription --------------------------------------------------------------------------

    @Test
    void subscriptionInfoRoundTrips() {
        Map<TaskId, Long> sums = new HashMap<>();
        sums.put(new TaskId(0, 0), MemberHooks.RUNNING);
        sums.put(new TaskId(0, 17), 0L);
        sums.put(new TaskId(3, 2), Long.MAX_VALUE);
        sums.put(new TaskId(12, 1_000), 123_456_789_012L);
        SubscriptionInfo info = new SubscriptionInfo("pod-0 ünïcode", 7, sums);
        assertThat(SubscriptionInfo.decode(info.encode())).contains(info);
        assertThat(SubscriptionInfo.decode(new SubscriptionInfo("i", 0, Map.of()).encode()))
                .contains(new SubscriptionInfo("i", 0, Map.of()));
    }

    @Test
    void subscriptionInfoIsCompact() {
        Map<TaskId, Long> sums = new HashMap<>();
        for (int p = 0; p < 100; p++) {
            sums.put(new TaskId(1, p), MemberHooks.RUNNING);
        }
        // version, id, thread, one group header, then 2 bytes per running task
        assertThat(new SubscriptionInfo("i", 0, sums).encode().remaining()).isLessThan(210);
    }

    @Test
    void aNewerSubscriptionVersionIsReadForTheFieldsThisVersionKnows() {
        SubscriptionInfo info = new SubscriptionInfo("i-1", 2, Map.of(new TaskId(1, 1), 42L));
        assertThat(SubscriptionInfo.decode(withVersion(info.encode(), 9, 1, 2, 3)))
                .contains(info);
    }

    @Test
    void anUnreadableSubscriptionCountsAsNone() {
        SubscriptionInfo info = new SubscriptionInfo("i-1", 2, Map.of(new TaskId(1, 1), 42L));
        ByteBuffer encoded = info.encode();
        assertThat(SubscriptionInfo.decode(null)).isEmpty();
        assertThat(SubscriptionInfo.decode(ByteBuffer.allocate(0))).isEmpty();
        assertThat(SubscriptionInfo.decode(withVersion(encoded, 0)))
                .as("version 0")
                .isEmpty();
        assertThat(SubscriptionInfo.decode(ByteBuffer.wrap(Arrays.copyOf(encoded.array(), encoded.remaining() - 2))))
                .as("truncated")
                .isEmpty();
        assertThat(SubscriptionInfo.decode(bytes(1, 0x7f, 'x')))
                .as("length beyond the end")
                .isEmpty();
        assertThat(SubscriptionInfo.decode(bytes(1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)))
                .as("endless varint")
                .isEmpty();
    }

    @Test
    void decodingLeavesTheBufferAsItWas() {
        ByteBuffer encoded = new SubscriptionInfo("i", 1, Map.of()).encode();
        int remaining = encoded.remaining();
        SubscriptionInfo.decode(encoded);
        assertThat(encoded.remaining()).isEqualTo(remaining);
    }

    // ---- assignment ----------------------------------------------------------------------------

    @Test
    void assignmentInfoRoundTrips() {
        MemberAssignment a = new MemberAssignment(
                Set.of(new TaskId(0, 1), new TaskId(0, 4), new TaskId(2, 0)), Set.of(new TaskId(0, 4)));
        assertThat(AssignmentInfo.decode(AssignmentInfo.encode(a))).isEqualTo(a);
        assertThat(AssignmentInfo.decode(AssignmentInfo.encode(MemberAssignment.NONE)))
                .isEqualTo(MemberAssignment.NONE);
    }

    @Test
    void noAssignmentUserDataMeansNoStandbys() {
        assertThat(AssignmentInfo.decode(null)).isEqualTo(MemberAssignment.NONE);
        assertThat(AssignmentInfo.decode(ByteBuffer.allocate(0))).isEqualTo(MemberAssignment.NONE);
    }

    @Test
    void aNewerAssignmentVersionIsReadForTheFieldsThisVersionKnows() {
        MemberAssignment a = new MemberAssignment(Set.of(new TaskId(1, 1)), Set.of());
        assertThat(AssignmentInfo.decode(withVersion(AssignmentInfo.encode(a), 3, 5, 5)))
                .isEqualTo(a);
    }

    @Test
    void theGroupsTaskOwnersTravelWithEveryAssignment() {
        TaskOwners owners = new TaskOwners(
                -1,
                new TreeMap<>(Map.of(
                        "a",
                                new TaskOwners.Instance(
                                        "http://a:8080",
                                        new TreeSet<>(Set.of(new TaskId(0, 0), new TaskId(1, 1))),
                                        new TreeSet<>(Set.of(new TaskId(0, 1)))),
                        "b", new TaskOwners.Instance("", new TreeSet<>(Set.of(new TaskId(0, 1))), new TreeSet<>()))),
                new TreeMap<>(Map.of(0, 2, 1, 2)));
        MemberAssignment a = new MemberAssignment(Set.of(new TaskId(0, 1)), Set.of(), owners);
        MemberAssignment decoded = AssignmentInfo.decode(AssignmentInfo.encode(a));
        assertThat(decoded).isEqualTo(a);
        assertThat(decoded.owners().activeOf(new TaskId(0, 1))).contains("b");
        assertThat(decoded.owners().activeOf(new TaskId(1, 0)))
                .as("a task placed nowhere")
                .isEmpty();
        assertThat(decoded.owners().standbysOf(new TaskId(0, 1))).containsExactly("a");
        assertThat(decoded.owners().endpointOf("a")).isEqualTo("http://a:8080");
        assertThat(decoded.owners().withGeneration(7).generation()).isEqualTo(7);
    }

    @Test
    void aVersionOneAssignmentHasStandbysAndNoOwners() {
        // version 1: standbys 0_1, no warm-ups, and nothing after
        MemberAssignment decoded = AssignmentInfo.decode(bytes(1, 1, 0, 1, 1, 0));
        assertThat(decoded.standbys()).containsExactly(new TaskId(0, 1));
        assertThat(decoded.owners()).isEqualTo(TaskOwners.NONE);
    }

    @Test
    void aSubscriptionCarriesTheEndpointFromVersionTwoOn() {
        SubscriptionInfo info = new SubscriptionInfo("i", 0, Map.of(), "https://i.example:8443");
        assertThat(SubscriptionInfo.decode(info.encode())).contains(info);
        assertThat(SubscriptionInfo.decode(bytes(1, 1, 'a', 0, 0)).orElseThrow().endpoint())
                .as("version 1")
                .isEmpty();
    }

    @Test
    void anUnreadableAssignmentIsAnError() {
        ByteBuffer encoded = AssignmentInfo.encode(new MemberAssignment(Set.of(new TaskId(1, 1)), Set.of()));
        assertThatThrownBy(() -> AssignmentInfo.decode(withVersion(encoded, 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("version 0");
        assertThatThrownBy(() -> AssignmentInfo.decode(bytes(1, 1, 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("truncated");
        // one standby 1_1, one warm-up 1_2 that is no standby
        assertThatThrownBy(() -> AssignmentInfo.decode(bytes(1, 1, 1, 1, 1, 1, 1, 1, 2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("warm-ups");
    }

    @Test
    void theVersionOneSubscriptionWireFormatIsVersionInstanceThreadThenTasks() {
        assertThat(SubscriptionInfo.decode(bytes(1, 1, 'a', 0, 0)))
                .isEqualTo(Optional.of(new SubscriptionInfo("a", 0, Map.of())));
    }
}
