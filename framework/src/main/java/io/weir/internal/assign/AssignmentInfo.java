package io.weir.internal.assign;

import io.weir.internal.assign.MemberHooks.MemberAssignment;
import io.weir.processor.TaskId;
import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the group leader tells a member in its assignment's user data besides its partitions: the
 * member's standby tasks, which of them are warm-ups, and (from version 2) where every task of the
 * group runs ({@link TaskOwners}, the same for every member).
 *
 * <p>Wire format: a version byte, the standby tasks, then the warm-up tasks (a subset), each list
 * grouped by sub-topology, then the owners. As with {@link SubscriptionInfo}, versions only append
 * fields. No user data (a leader from before standbys existed) means no standbys; a version-1
 * leader sends no owners ({@link TaskOwners#NONE}); a buffer this code cannot read is an error
 * the caller reports.
 */
public final class AssignmentInfo {

    /** The version this code writes. */
    static final byte VERSION = 2;
    /** The oldest version this code reads. */
    private static final byte FIRST = 1;

    private AssignmentInfo() {}

    public static ByteBuffer encode(MemberAssignment assignment) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(VERSION);
        Varints.writeTasks(out, new TreeSet<>(assignment.standbys()));
        Varints.writeTasks(out, new TreeSet<>(assignment.warmups()));
        assignment.owners().encode(out);
        return ByteBuffer.wrap(out.toByteArray());
    }

    /**
     * The member's standbys and warm-ups, and the group's task owners.
     *
     * @throws IllegalArgumentException if the buffer is garbled or of an unknown version
     */
    public static MemberAssignment decode(ByteBuffer userData) {
        if (userData == null || !userData.hasRemaining()) {
            return MemberAssignment.NONE;
        }
        ByteBuffer in = userData.duplicate();
        try {
            int version = in.get() & 0xFF;
            if (version < FIRST) {
                throw new IllegalArgumentException("unknown assignment version " + version);
            }
            List<TaskId> standbys = Varints.readTasks(in);
            List<TaskId> warmups = Varints.readTasks(in);
            if (!standbys.containsAll(warmups)) {
                throw new IllegalArgumentException(
                        "warm-ups " + warmups + " are not all among the standbys " + standbys);
            }
            TaskOwners owners = version >= 2 ? TaskOwners.decode(in) : TaskOwners.NONE;
            return new MemberAssignment(Set.copyOf(standbys), Set.copyOf(warmups), owners);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated assignment (" + userData.remaining() + " bytes)", e);
        }
    }
}
