package io.weir.internal.query;

import io.weir.internal.state.LocalStores;
import io.weir.internal.topology.StoreSpec;
import io.weir.processor.TaskId;
import io.weir.state.internal.BytesReader;
import java.util.Optional;

/**
 * The copy of a task's store this instance may answer a query from: the task's active copy when it
 * runs here restored; else, if the caller accepts a lag, the task restoring here or a standby copy
 * here within it.
 */
final class LocalCopies {

    /**
     * @param source {@code active}, {@code restoring} or {@code standby}
     * @param lag    changelog records the copy had not applied when asked (0 for the active copy)
     */
    record Copy(BytesReader reader, String source, long lag) {}

    private final LocalStores local;

    LocalCopies(LocalStores local) {
        this.local = local;
    }

    Optional<Copy> find(StoreSpec spec, TaskId task, Staleness bound) {
        Optional<BytesReader> active = local.servable(spec, task);
        if (active.isPresent()) {
            return Optional.of(new Copy(active.get(), "active", 0));
        }
        if (!bound.allowsStandby()) {
            return Optional.empty();
        }
        Optional<Copy> restoring = local.restoring(spec, task)
                .filter(r -> bound.admits(r.lagRecords(), r.lagMillis()))
                .map(r -> new Copy(r.reader(), "restoring", r.lagRecords()));
        return restoring.isPresent()
                ? restoring
                : local.standby(spec, task)
                        .filter(r -> bound.admits(r.lagRecords(), r.lagMillis()))
                        .map(r -> new Copy(r.reader(), "standby", r.lagRecords()));
    }
}
