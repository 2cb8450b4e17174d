package io.weir.internal.query;

import io.weir.internal.assign.TaskOwners;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What one instance knows of where the group's tasks run: the latest {@link TaskOwners} any of its
 * stream threads received with an assignment, and the endpoint it advertises itself. Threads of
 * one instance receive the same view per rebalance; a view of an older generation never replaces
 * a newer one, whichever thread delivers it last.
 *
 * <p>Threads: written by the stream threads (inside their consumers' poll) and at start-up, read
 * by any thread (the HTTP server's).
 */
public final class Ownership {

    private final AtomicReference<TaskOwners> owners = new AtomicReference<>(TaskOwners.NONE);
    private volatile String endpoint = "";
    private volatile String instanceId = "";

    /** This instance's id and advertised endpoint (empty: none), known once its HTTP server listens. */
    public void advertise(String instanceId, String endpoint) {
        this.instanceId = instanceId;
        this.endpoint = endpoint == null ? "" : endpoint;
    }

    public String endpoint() {
        return endpoint;
    }

    public String instanceId() {
        return instanceId;
    }

    /** Takes in the view of a new assignment, unless a newer one arrived already. */
    public void update(TaskOwners view) {
        owners.accumulateAndGet(view, (current, next) -> next.generation() >= current.generation() ? next : current);
    }

    /** The latest view; {@link TaskOwners#NONE} before the first assignment. */
    public TaskOwners current() {
        return owners.get();
    }
}
