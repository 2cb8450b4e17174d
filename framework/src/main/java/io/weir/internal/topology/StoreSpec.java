package io.weir.internal.topology;

import io.weir.serde.Serde;
import java.time.Duration;

/**
 * A key-value store of the topology: its stable name (which also names its changelog topic
 * {@code <application.id>-<name>-changelog}), serdes, and options. One instance per task.
 *
 * @param ttl how long an entry lives after its last write, or null for ever
 */
public record StoreSpec(String name, Serde<?> keySerde, Serde<?> valueSerde, boolean persistent, boolean logged,
                        Duration ttl) {

    /** The changelog topic's name for an application. */
    public String changelogTopic(String applicationId) {
        return applicationId + "-" + name + "-changelog";
    }
}
