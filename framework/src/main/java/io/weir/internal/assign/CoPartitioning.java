package io.weir.internal.assign;

import io.weir.errors.TopologyException;
import io.weir.internal.topology.NodeSpec;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.Subtopology;
import io.weir.internal.topology.TopologyModel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The co-partitioning rule: every input topic of a sub-topology that has state stores has the same
 * number of partitions. Task {@code s_p} reads partition {@code p} of each input and keeps the
 * state of the keys found there, so a key must land in the same partition number of every input;
 * with unequal counts it does not, and a join or an aggregate over merged inputs silently sees
 * only part of a key's records. A stateless sub-topology keeps no state per key, so unequal counts
 * are allowed there (it has as many tasks as its largest input has partitions).
 */
public final class CoPartitioning {

    private CoPartitioning() {}

    /**
     * Checks the rule for the topics whose partition counts are known; topics without a count are
     * skipped (they are checked once they exist).
     *
     * @param partitions partitions per topic: inputs matched by patterns included
     * @throws IllegalStateException naming each offending sub-topology with its topics and counts
     */
    public static void require(TopologyModel model, Map<String, Integer> partitions) {
        List<String> problems = violations(model, partitions);
        if (!problems.isEmpty()) {
            throw new TopologyException(String.join("; ", problems) + ". A sub-topology with state stores reads"
                    + " partition p of every input topic in task p, so all its inputs need the same partition count:"
                    + " create them with equal counts, or repartition a stream input to the other's count: re-key it"
                    + " (selectKey((k, v) -> k) and withSerdes(...)) before its join or grouping, which then reads it"
                    + " through an internal topic created with the other input's count; for a repartition topic of"
                    + " fixed count, give it the other input's count in Repartitioned.withPartitions, or leave the"
                    + " count out to have it derived");
        }
    }

    /** One line per sub-topology that breaks the rule; empty when none does. */
    static List<String> violations(TopologyModel model, Map<String, Integer> partitions) {
        Set<String> fixed = new HashSet<>();
        model.internalSources().stream()
                .filter(NodeSpec.Source::fixedPartitions)
                .forEach(s -> fixed.addAll(s.topics()));
        List<String> problems = new ArrayList<>();
        for (Subtopology st : model.subtopologies()) {
            List<StoreSpec> stores = model.storesOf(st);
            if (stores.isEmpty()) {
                continue;
            }
            SortedMap<String, Integer> inputs = new TreeMap<>();
            partitions.forEach((topic, count) -> {
                if (count != null && st.reads(topic)) {
                    inputs.put(topic, count);
                }
            });
            if (new TreeSet<>(inputs.values()).size() > 1) {
                problems.add("sub-topology " + st.id() + " (stores "
                        + stores.stream().map(StoreSpec::name).toList()
                        + ") reads topics that are not co-partitioned: "
                        + inputs.entrySet().stream()
                                .map(e -> e.getKey() + " has " + e.getValue() + " partitions"
                                        + (fixed.contains(e.getKey())
                                                ? " (fixed by Repartitioned.withPartitions)"
                                                : ""))
                                .collect(Collectors.joining(", ")));
            }
        }
        return problems;
    }
}
