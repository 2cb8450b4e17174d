package io.weir.testdriver.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.weir.config.WeirConfig;
import io.weir.internal.state.global.GlobalFailures;
import io.weir.internal.state.global.GlobalTables;
import io.weir.internal.task.TopicLimits;
import io.weir.internal.topology.TopologyModel;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The global thread the driver plays: a record piped to a global table's topic is applied to the
 * table at once, before anything piped after it is processed; one that cannot be applied goes to
 * the dead-letter topic, or is skipped or fails the driver, as the error handler decides.
 */
final class DriverGlobalThread implements AutoCloseable {

    private final GlobalTables tables;
    private final DriverTopics topics;
    private final GlobalFailures failures;

    DriverGlobalThread(TopologyModel model, DriverTopics topics, WeirConfig config, MeterRegistry registry) {
        this.tables = GlobalTables.inMemory(model.globalTables().values());
        this.topics = topics;
        this.failures = new GlobalFailures(
                config.errorHandler(),
                config.deadLetterTopic(),
                new TopicLimits(topics::maxMessageBytes, topics::partitions, Integer.MAX_VALUE),
                registry,
                Tags.of("application", config.applicationId(), "instance", DriverThread.INSTANCE));
    }

    /** True if {@code topic} feeds a global table (and so is not a task's input). */
    boolean reads(String topic) {
        return tables.topics().contains(topic);
    }

    void apply(ConsumerRecord<byte[], byte[]> record) {
        tables.apply(record)
                .flatMap(error -> failures.onUnreadable(record, tables.storeName(record.topic()), error))
                .ifPresent(dead -> topics.append(
                        dead.topic(),
                        0,
                        dead.key(),
                        dead.value(),
                        dead.timestamp(),
                        dead.headers().toArray()));
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
