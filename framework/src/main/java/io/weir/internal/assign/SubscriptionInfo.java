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
 * index, the offset sums of the tasks whose state its instance holds
 * ({@link MemberHooks#taskOffsetSums}) and (from version 2) the instance's advertised HTTP
 * endpoint, which the leader passes on to every member ({@link TaskOwners}).
 *
 * <p>Wire format: a version byte, then the fields of that version. Versions only ever append
 * fields, so a reader decodes the fields it knows from any version at least its own (a rolling
 * upgrade keeps stickiness). Anything else (no user data, version 0, a truncated or garbled buffer)
 * decodes as empty: the leader then counts the member as an instance of its own with one thread
 * and no state, which costs stickiness but never correctness.
 *
 * @param offsetSums per task, the sum of its logged stores' changelog offsets on the instance, or
 *                   {@link MemberHooks#RUNNING}
 * @param endpoint   the instance's advertised HTTP base URL; empty if it has none (or wrote version 1)
 */
public record SubscriptionInfo(String instanceId, int threadIndex, Map<TaskId, Long> offsetSums, String endpoint) {

    /** The version this code writes. */
    static final byte VERSION = 2;
    /** The oldest version this code reads. */
    private static final byte FIRST = 1;

    public SubscriptionInfo {
        offsetSums = Collections.unmodifiableSortedMap(new TreeMap<>(offsetSums));
        endpoint = endpoint == null ? "" : endpoint;
    }

    /** An instance that advertises no endpoint. */
    public SubscriptionInfo(String instanceId, int threadIndex, Map<TaskId, Long> offsetSums) {
        this(instanceId, threadIndex, offsetSums, "");
    }

    public ByteBuffer encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(VERSION);
        Varints.writeString(out, instanceId);
        Varints.writeInt(out, threadIndex);
        Varints.writeTaskLongs(out, offsetSums);
        Varints.writeString(out, endpoint);
        return ByteBuffer.wrap(out.toByteArray());
    }

    /** The subscription's info, or empty if there is none this code can read. */
    public static Optional<SubscriptionInfo> decode(ByteBuffer userData) {
        if (userData == null || !userData.hasRemaining()) {
            return Optional.empty();
        }
        ByteBuffer in = userData.duplicate();
        try {
            int version = in.get() & 0xFF;
            if (version < FIRST) {
                return Optional.empty();
            }
            String instanceId = Varints.readString(in);
            int threadIndex = Varints.readInt(in);
            Map<TaskId, Long> sums = Varints.readTaskLongs(in);
            String endpoint = version >= 2 ? Varints.readString(in) : "";
            return Optional.of(new SubscriptionInfo(instanceId, threadIndex, sums, endpoint));
        } catch (BufferUnderflowException | IllegalArgumentException garbled) {
            return Optional.empty();
        }
    }
}
