package io.weir.internal.topology;

import io.weir.serde.Serde;
import java.util.Objects;

/**
 * A global table of the topology: every partition of {@code topic}, kept in full on every
 * instance in the store {@code storeName}, outside the tasks (no sub-topology reads the topic, so
 * no co-partitioning applies). Processors read it by the store's name.
 */
public record GlobalTableSpec(String storeName, String topic, Serde<?> keySerde, Serde<?> valueSerde) {

    public GlobalTableSpec {
        Objects.requireNonNull(storeName, "storeName");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(keySerde, "keySerde");
        Objects.requireNonNull(valueSerde, "valueSerde");
    }
}
