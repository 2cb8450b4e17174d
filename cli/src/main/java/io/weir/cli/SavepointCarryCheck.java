package io.weir.cli;

import io.weir.internal.topology.TopologyDescription;
import io.weir.internal.topology.TopologyDiff;
import java.util.List;
import java.util.Objects;

/**
 * What {@code weir upgrade} refuses before it touches anything: a state change a savepoint cannot
 * carry into the new topology (a store whose kind or formats changed, a store map naming a store
 * either side lacks), or one that drops logged state without {@code --allow-dropped-state}.
 */
final class SavepointCarryCheck {

    private SavepointCarryCheck() {}

    /**
     * Fails before anything is touched when the restore would refuse the savepoint: stores the new
     * code cannot read, or logged state dropped without leave.
     */
    static void refuseWhatASavepointCannotCarry(SavepointUpgrade.Plan plan, TopologyDiff diff) {
        if (!diff.incompatibleStores().isEmpty()) {
            throw new CommandFailedException("upgrade of " + plan.app() + " refused: a savepoint cannot carry store(s) "
                    + diff.incompatibleStores() + " (" + String.join("; ", diff.reasons()) + "); give them new names,"
                    + " or reset the application (weir reset); nothing was changed, the old version keeps running");
        }
        plan.restore().storeMap().forEach((old, renamed) -> {
            TopologyDescription.StoreInfo b = diff.before().store(old);
            TopologyDescription.StoreInfo a = diff.after().store(renamed);
            if (b == null || a == null) {
                throw new CommandFailedException("upgrade of " + plan.app() + " refused: --map-store " + old + "="
                        + renamed + " (upgrade.mapStores) names a store "
                        + (b == null ? "the running version" : "the new version")
                        + " does not have; nothing was changed, the old version keeps running");
            }
            if (!Objects.equals(b.kind(), a.kind())
                    || !Objects.equals(b.keyFormat(), a.keyFormat())
                    || !Objects.equals(b.valueFormat(), a.valueFormat())
                    || !Objects.equals(b.windowSizeMs(), a.windowSizeMs())) {
                throw new CommandFailedException("upgrade of " + plan.app() + " refused: store " + old + " cannot be"
                        + " restored into " + renamed + " (" + b.kind() + " " + b.keyFormat() + "/" + b.valueFormat()
                        + " -> " + a.kind() + " " + a.keyFormat() + "/" + a.valueFormat() + "); nothing was changed,"
                        + " the old version keeps running");
            }
        });
        // A renamed store given in storeMap carries its state: not dropped.
        List<String> dropped = diff.storesRemoved().stream()
                .filter(s ->
                        diff.before().store(s) != null && diff.before().store(s).logged())
                .filter(s -> !plan.restore().storeMap().containsKey(s))
                .toList();
        if (!dropped.isEmpty() && !plan.restore().allowDroppedState()) {
            throw new CommandFailedException("upgrade of " + plan.app() + " refused: the new version drops the state"
                    + " of store(s) " + dropped + "; allow it with upgrade.allowDroppedState=true"
                    + " (--allow-dropped-state); nothing was changed, the old version keeps running");
        }
    }
}
