package io.weir.dsl;

import io.weir.processor.Record;

/** Chooses the output topic of each record, for {@link RecordStream#to(TopicNameExtractor)}. */
@FunctionalInterface
public interface TopicNameExtractor<K, V> {

    String topic(Record<K, V> record);
}
