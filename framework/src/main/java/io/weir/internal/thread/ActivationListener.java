package io.weir.internal.thread;

import io.weir.internal.state.StoreHandOver;
import io.weir.internal.state.thread.InstanceTaskRegistry;
import io.weir.processor.TaskId;
import java.util.Collection;
import java.util.function.LongSupplier;

/**
 * What a {@link TaskManager} tells its instance about the active tasks it opens and closes. A
 * stream thread tells {@link InstanceTaskRegistry} ({@link #of}): a standby copy of a task on the
 * instance hands its stores over before the task opens them, and the assignor learns where each
 * task stands. The test driver, one thread without standbys or assignor, tells no one
 * ({@link #NONE}).
 *
 * <p>Threading: called by the thread that owns the task manager.
 */
public interface ActivationListener {

    /** Nobody to tell: the test driver's. */
    ActivationListener NONE = new ActivationListener() {
        @Override
        public StoreHandOver activating(Collection<TaskId> ids) {
            return StoreHandOver.NONE;
        }

        @Override
        public void activated(TaskId id, LongSupplier offsets) {}

        @Override
        public void deactivated(Collection<TaskId> ids) {}
    };

    /**
     * Tasks about to open; returns once no standby copy of them holds their stores, with the stores
     * such copies handed over open (the caller owns them: it opens its tasks from them and closes
     * what it does not take).
     */
    StoreHandOver activating(Collection<TaskId> ids);

    /** A task opened; {@code offsets} tells where its stores stand (for the assignor). */
    void activated(TaskId id, LongSupplier offsets);

    /** Tasks closed. */
    void deactivated(Collection<TaskId> ids);

    /** The instance's tasks, as its stream threads tell them. */
    static ActivationListener of(InstanceTaskRegistry instance) {
        return new ActivationListener() {
            @Override
            public StoreHandOver activating(Collection<TaskId> ids) {
                return instance.activating(ids);
            }

            @Override
            public void activated(TaskId id, LongSupplier offsets) {
                instance.activated(id, offsets);
            }

            @Override
            public void deactivated(Collection<TaskId> ids) {
                instance.deactivated(ids);
            }
        };
    }
}
