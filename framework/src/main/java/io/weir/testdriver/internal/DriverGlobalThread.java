package io.weir.testdriver.internal;

import io.weir.internal.state.global.GlobalTables;
import io.weir.internal.task.DeadLetters;
import io.weir.internal.task.ErrorDecisions;
import io.weir.internal.task.Stage;
import io.weir.internal.task.TopicLimits;
import io.weir.internal.topology.TopologyModel;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The global thread the driver plays: a record piped to a global table's topic is applied to the
 * table at once, before anything piped after it is processed; one that cannot be applied goes to
 * the dead-letter topic.
 */
final class DriverGlobalThread implements AutoCloseable {

    private final GlobalTables tables;
    private final DriverTopics topics;
    private final String deadLetterTopic;

    DriverGlobalThread(TopologyModel model, DriverTopics topics, String deadLetterTopic) {
        this.tables = GlobalTables.inMemory(model.globalTables().values());
        this.topics = topics;
        this.deadLetterTopic = deadLetterTopic;
    }

    /** True if {@code topic} feeds a global table (and so is not a task's input). */
    boolean reads(String topic) {
        return tables.topics().contains(topic);
    }

    void apply(ConsumerRecord<byte[], byte[]> record) {
        tables.apply(record).ifPresent(error -> {
            ErrorDecisions.requireAvailable(
                    record, Stage.DESERIALIZE, error); // not malformed: stop, as an instance does
            ProducerRecord<byte[], byte[]> dead = DeadLetters.deadLetter(
                    record,
                    deadLetterTopic,
                    new TopicLimits(topics::maxMessageBytes, topics::partitions, Integer.MAX_VALUE),
                    Stage.DESERIALIZE,
                    error);
            topics.append(
                    dead.topic(),
                    0,
                    dead.key(),
                    dead.value(),
                    dead.timestamp(),
                    dead.headers().toArray());
        });
    }

    /** The read view of each global table's store, by name. */
    Map<String, Object> views() {
        return tables.views();
    }

    @Override
    public void close() {
        tables.close();
    }
}
