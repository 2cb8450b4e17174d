package io.weir.internal.assign;

import io.weir.processor.TaskId;
import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a member tells the group leader in its subscription's user data: its instance, its thread
 * index, and the offset sums of the tasks whose state its instance holds
 * ({@link MemberHooks#taskOffsetSums}).
 *
 * <p>Wire format: a version byte, then the fields of that version. Versions only ever append
 * fields, so a reader decodes the fields it knows from any version at least its own (a rolling
 * upgrade keeps stickiness). Anything else (no user data, version 0, a truncated or garbled buffer)
 * decodes as empty: the leader then counts the member as an instance of its own with one thread
 * and no state, which costs stickiness but never correctness.
 *
 * @param offsetSums per task, the sum of its logged stores' changelog offsets on the instance, or
 *                   {@link MemberHooks#RUNNING}
 */
public record SubscriptionInfo(String instanceId, int threadIndex, Map<TaskId, Long> offsetSums) {

    /** The version this code writes. */
    static final byte VERSION = 1;

    public SubscriptionInfo {
        offsetSums = Collections.unmodifiableSortedMap(new TreeMap<>(offsetSums));
    }

    public ByteBuffer encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(VERSION);
        Varints.writeString(out, instanceId);
        Varints.writeInt(out, threadIndex);
        Varints.writeTaskLongs(out, offsetSums);
        return ByteBuffer.wrap(out.toByteArray());
    }

    /** The subscription's info, or empty if there is none this code can read. */
    public static Optional<SubscriptionInfo> decode(ByteBuffer userData) {
        if (userData == null || !userData.hasRemaining()) {
            return Optional.empty();
        }
        ByteBuffer in = userData.duplicate();
        try {
            if ((in.get() & 0xFF) < VERSION) {
                return Optional.empty();
            }
            String instanceId = Varints.readString(in);
            int threadIndex = Varints.readInt(in);
            Map<TaskId, Long> sums = Varints.readTaskLongs(in);
            return Optional.of(new SubscriptionInfo(instanceId, threadIndex, sums));
        } catch (BufferUnderflowException | IllegalArgumentException garbled) {
            return Optional.empty();
        }
    }
}
