package io.weir.internal.query;

import io.weir.internal.assign.TaskOwners;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.Subtopology;
import io.weir.internal.topology.TopologyModel;
import io.weir.processor.TaskId;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.kafka.common.utils.Utils;

/**
 * The task that holds a key of a store: the store's sub-topology, and the partition Kafka's
 * default partitioner gives the key's serialized bytes (murmur2), which is where the key's
 * records and so its state are, as long as the store's input is partitioned by that key with the
 * default partitioner. Weir's own repartition topics are; a source topic written with another
 * partitioner is not, and a key of it is looked for in the wrong task (as in Kafka Streams'
 * metadata for keys).
 */
public final class KeyLocator {

    private final Map<String, Integer> subtopologyOfStore = new HashMap<>();

    public KeyLocator(TopologyModel model) {
        for (Subtopology st : model.subtopologies()) {
            for (StoreSpec s : model.storesOf(st)) {
                subtopologyOfStore.putIfAbsent(s.name(), st.id());
            }
        }
    }

    /** The sub-topology whose tasks hold {@code store}, if a task holds it. */
    public OptionalInt subtopologyOf(String store) {
        Integer id = subtopologyOfStore.get(store);
        return id == null ? OptionalInt.empty() : OptionalInt.of(id);
    }

    /**
     * The task of {@code keyBytes} in {@code store}, or null if the view does not say how many
     * tasks the store's sub-topology has (no assignment yet).
     */
    public TaskId taskOf(String store, byte[] keyBytes, TaskOwners owners) {
        Integer subtopology = subtopologyOfStore.get(store);
        Integer tasks = subtopology == null ? null : owners.tasks().get(subtopology);
        if (tasks == null || tasks <= 0) {
            return null;
        }
        return new TaskId(subtopology, partition(keyBytes, tasks));
    }

    /** The partition the default partitioner gives a key: the same as the producer's. */
    static int partition(byte[] keyBytes, int partitions) {
        return Utils.toPositive(Utils.murmur2(keyBytes)) % partitions;
    }
}
