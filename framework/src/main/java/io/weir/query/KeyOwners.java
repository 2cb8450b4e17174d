package io.weir.query;

import io.weir.processor.TaskId;
import java.util.List;
import java.util.Optional;

/**
 * Where a key of a store lives, as the group's latest assignment placed its task: the instance
 * running the task (none while the task moves between instances) and the instances keeping a
 * standby copy, each with the HTTP endpoint it advertises ({@code http.advertised.url}; empty if
 * it has none). A snapshot: the next rebalance may move the task.
 *
 * @param task the task holding the key: the store's sub-topology, and the partition Kafka's default
 *             partitioner gives the serialized key
 */
public record KeyOwners(String store, TaskId task, Optional<Instance> active, List<Instance> standbys) {

    public KeyOwners {
        standbys = List.copyOf(standbys);
    }

    /** One instance of the application. */
    public record Instance(String id, String endpoint) {}
}
