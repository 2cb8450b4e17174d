package io.weir.cli;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.weir.internal.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * What a savepoint upgrade leaves on its StatefulSet, as annotation {@value #ANNOTATION}: the
 * savepoint it took, the replicas before it scaled to 0, and how far it got. The hook's process can
 * be killed at any step (the Job's {@code activeDeadlineSeconds}, Helm deleting the Job, a lost
 * node), so what it did must be readable by whatever runs next: a new attempt of the upgrade
 * resumes from the savepoint, the rollback hook restores it, {@code weir savepoint prune} keeps it.
 * Kept in Kubernetes, beside the replicas it is about, because Helm's three-way merge leaves an
 * annotation it did not set in place across upgrades and rollbacks.
 *
 * @param savepoint the savepoint the upgrade took (the application stopped after it)
 * @param replicas  the StatefulSet's replicas before the upgrade scaled it to 0
 * @param phase     how far the upgrade got
 */
record UpgradeMark(
        @JsonProperty("savepoint") String savepoint,
        @JsonProperty("replicas") int replicas,
        @JsonProperty("phase") Phase phase) {

    static final String ANNOTATION = "weir.io/savepoint-upgrade";

    /** How far an upgrade got. */
    enum Phase {
        /** Stopped after the savepoint, scaled (or scaling) to 0; the old state is intact. */
        stopped,
        /** Restoring the savepoint: the internal topics may be half rewritten. */
        restoring,
        /** Restored into the new topology: the new StatefulSet may start from it. */
        restored
    }

    UpgradeMark withPhase(Phase next) {
        return new UpgradeMark(savepoint, replicas, next);
    }

    /**
     * Whether an application at 0 replicas was left there by this upgrade, unfinished: stopped or
     * half restored, or restored while no version has run since (none recorded its topology).
     */
    boolean unfinished(boolean topologyRecorded) {
        return phase != Phase.restored || !topologyRecorded;
    }

    String encode() {
        return new String(Json.bytes(this), StandardCharsets.UTF_8);
    }

    /** The mark of the annotation's value; empty when it is not one (edited by hand), which {@code what} reports. */
    static Optional<UpgradeMark> decode(String value, java.util.function.Consumer<String> what) {
        try {
            UpgradeMark m = Json.reader().forType(UpgradeMark.class).readValue(value);
            if (m.savepoint() == null || m.phase() == null || m.replicas() < 0) {
                throw new IOException("savepoint, replicas and phase are required");
            }
            return Optional.of(m);
        } catch (IOException e) {
            what.accept("ignoring annotation " + ANNOTATION + "='" + value + "': not what an upgrade writes ("
                    + e.getMessage() + ")");
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return "savepoint " + savepoint + ", " + replicas + " replicas before, " + phase;
    }
}
