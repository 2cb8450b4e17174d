package io.weir.serde.registry;

import java.util.Objects;

/**
 * Which registry subject a schema is registered and looked up under, as Confluent's serializers
 * name them (so services written with either use the same subjects): {@link #TOPIC} (the default:
 * {@code <topic>-key} or {@code <topic>-value}), {@link #RECORD} (the record's full name, for
 * several types on one topic under one evolution) and {@link #TOPIC_RECORD}
 * ({@code <topic>-<full name>}). A custom strategy is any function of the three. The topic of a
 * store's values is its changelog topic.
 */
@FunctionalInterface
public interface SubjectStrategy {

    /** Confluent's {@code TopicNameStrategy}: {@code <topic>-key} or {@code <topic>-value}. */
    SubjectStrategy TOPIC = named("topic", (topic, isKey, recordName) -> topic + (isKey ? "-key" : "-value"));

    /** Confluent's {@code RecordNameStrategy}: the record's (message's) fully qualified name. */
    SubjectStrategy RECORD = named("record", (topic, isKey, recordName) -> recordName);

    /** Confluent's {@code TopicRecordNameStrategy}: {@code <topic>-<fully qualified name>}. */
    SubjectStrategy TOPIC_RECORD = named("topic-record", (topic, isKey, recordName) -> topic + "-" + recordName);

    /** The subject for a schema of type {@code recordName} written to {@code topic}, as a key or a value. */
    String subject(String topic, boolean isKey, String recordName);

    /**
     * A name for format ids and messages; strategies with the same name must give the same
     * subjects. Custom strategies answer their class name unless they override it.
     */
    default String name() {
        return getClass().getName();
    }

    /** A strategy with a name (for format ids), from a function. */
    static SubjectStrategy named(String name, SubjectStrategy strategy) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(strategy, "strategy");
        return new SubjectStrategy() {
            @Override
            public String subject(String topic, boolean isKey, String recordName) {
                return strategy.subject(topic, isKey, recordName);
            }

            @Override
            public String name() {
                return name;
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }
}
