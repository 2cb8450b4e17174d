package io.weir.samples.common;

import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Makes input records for a sample, one at a time, for {@code load}. Implementations are
 * deterministic for a seed and not thread-safe: one feeding thread owns each.
 */
@FunctionalInterface
public interface RecordGenerator {

    /** The next record for {@code topic}, stamped {@code timestampMillis} (the wall clock when it is sent). */
    ProducerRecord<byte[], byte[]> next(String topic, long timestampMillis);
}
