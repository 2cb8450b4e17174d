package io.weir.internal.savepoint;

import io.weir.internal.topology.FormatChanges;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.TopologyModel;
import io.weir.serde.FormatEvolution;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Whether a savepoint's stores can be loaded into a topology: a store the topology lacks would be
 * dropped (allowed only when asked for: {@code --allow-dropped-state}); a store whose kind or key
 * or value format (serde) changed cannot be loaded at all, since the new code would misread the old
 * bytes. A store the topology has and the savepoint lacks starts empty.
 *
 * @param dropped   stores in the savepoint that the topology lacks
 * @param conflicts stores whose kind or formats differ, one line each saying how
 * @param empty     stores of the topology that the savepoint lacks (they start empty)
 * @param badRenames store renames naming a store the savepoint lacks, one line each (a typo would
 *                  otherwise drop the state it meant to keep)
 */
public record SavepointCompatibility(
        List<String> dropped, List<String> conflicts, List<String> empty, List<String> badRenames) {

    /** With no store renamed. */
    public static SavepointCompatibility check(Manifest manifest, TopologyModel target) {
        return check(manifest, target, Map.of());
    }

    /**
     * @param storeMap stores the target renamed: the savepoint's store (key) is checked against, and
     *                 loaded into, the target's store (value)
     */
    public static SavepointCompatibility check(Manifest manifest, TopologyModel target, Map<String, String> storeMap) {
        TreeSet<String> dropped = new TreeSet<>();
        TreeSet<String> conflicts = new TreeSet<>();
        TreeSet<String> saved = new TreeSet<>();
        TreeSet<String> savedUnderOldNames = new TreeSet<>();
        for (Manifest.TaskEntry t : manifest.tasks()) {
            for (ControlMessage.StoreCopy s : t.stores()) {
                savedUnderOldNames.add(s.name());
                String name = storeMap.getOrDefault(s.name(), s.name());
                String label = name.equals(s.name()) ? name : s.name() + " (loaded into " + name + ")";
                saved.add(name);
                StoreSpec spec = target.stores().get(name);
                if (spec == null) {
                    dropped.add(label);
                    continue;
                }
                String kind = spec.kind().name().toLowerCase(Locale.ROOT);
                if (!kind.equals(s.kind())) {
                    conflicts.add(label + ": kind " + s.kind() + " -> " + kind);
                }
                formatConflict(label, "key", s.keySerde(), formatId(spec.keySerde()), conflicts);
                formatConflict(label, "value", s.valueSerde(), formatId(spec.valueSerde()), conflicts);
            }
        }
        List<String> badRenames = new ArrayList<>();
        for (String old : new TreeSet<>(storeMap.keySet())) {
            if (!savedUnderOldNames.contains(old)) {
                badRenames.add("--map-store " + old + "=" + storeMap.get(old) + ": the savepoint has no store " + old
                        + " (it has " + String.join(", ", savedUnderOldNames) + ")");
            }
        }
        List<String> empty = new ArrayList<>();
        for (Map.Entry<String, StoreSpec> e : target.stores().entrySet()) {
            if (e.getValue().logged() && !saved.contains(e.getKey())) {
                empty.add(e.getKey());
            }
        }
        return new SavepointCompatibility(
                List.copyOf(dropped), List.copyOf(conflicts), List.copyOf(empty), List.copyOf(badRenames));
    }

    /** A changed format is a conflict unless the new serde reads the saved bytes (a compatible schema change). */
    private static void formatConflict(String label, String part, String saved, String now, TreeSet<String> conflicts) {
        FormatEvolution.Verdict v = FormatChanges.judge(saved, now);
        if (!v.readable()) {
            conflicts.add(label + ": " + part + " format " + FormatChanges.label(saved) + " -> "
                    + FormatChanges.label(now) + ("another format".equals(v.reason()) ? "" : " (" + v.reason() + ")"));
        }
    }

    /** A serde's format id ({@link io.weir.serde.Serde#formatId()}); a store without one holds bytes. */
    public static String formatId(io.weir.serde.Serde<?> serde) {
        return serde == null ? "bytes" : serde.formatId();
    }

    /** Problems that stop a restore, given whether dropping state was allowed; empty if it may go on. */
    public List<String> problems(boolean allowDroppedState) {
        List<String> problems = new ArrayList<>(badRenames);
        conflicts.forEach(c -> problems.add("store " + c + " (its saved state cannot be read by the new code)"));
        if (!allowDroppedState) {
            dropped.forEach(d -> problems.add("store " + d + " is in the savepoint but not in the topology"
                    + " (--allow-dropped-state drops it)"));
        }
        return problems;
    }
}
