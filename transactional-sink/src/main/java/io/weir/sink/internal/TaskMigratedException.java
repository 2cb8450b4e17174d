package io.weir.sink.internal;

import org.apache.kafka.common.KafkaException;

/**
 * This thread no longer owns its tasks the way it thought: its producer was fenced, its
 * consumer's generation is stale, or a rebalance is under way. The only safe reaction is to drop
 * the tasks' uncommitted work, close them, and rejoin the group; carrying on would write with a
 * fenced producer or commit offsets for partitions another member now owns.
 */
public final class TaskMigratedException extends KafkaException {

    private final boolean producerFenced;

    public TaskMigratedException(String message, Throwable cause, boolean producerFenced) {
        super(message, cause);
        this.producerFenced = producerFenced;
    }

    /** True when the producer is unusable and must be replaced before the next transaction. */
    public boolean producerFenced() {
        return producerFenced;
    }
}
