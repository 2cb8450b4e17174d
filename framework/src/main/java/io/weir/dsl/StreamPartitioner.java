package io.weir.dsl;

/**
 * Chooses the partition of each record a stream writes to a topic: with {@link Produced} on
 * {@link RecordStream#to(String, Produced)} (a table's updates through {@link RecordTable#toStream()}),
 * and with {@link Repartitioned} on {@link RecordStream#repartition(Repartitioned)}. Without one,
 * a record goes where Kafka's default partitioner puts it: murmur2 of the serialized key (a
 * windowed key by its inner key), records without a key spread over the partitions.
 *
 * <p>Called on the stream thread, for each record, with the record's key and value as the stream
 * holds them (before serialization) and the topic's partition count. Returning {@code null} keeps
 * the default for that record. A partition outside {@code 0 .. partitions - 1} fails the record: it
 * goes to the dead-letter topic with a reason naming the sink, the topic and the partition (or
 * stops the application under {@code error.mode=fail}); so does an exception thrown here.
 *
 * <p>A partitioner in front of a stateful step (an aggregation or a join after {@code
 * repartition}) must send every record of a key to the same partition, since a key's state lives
 * in the task of one partition. Interactive queries locate a key by the default partitioner, so a
 * store fed through a custom partitioner answers a key only on the instance that holds its
 * partition.
 *
 * <p>As Kafka Streams' {@code StreamPartitioner} before its multicast form (KIP-837): one
 * partition per record. To write a record to several partitions, emit several records
 * ({@code flatMap}) or write it with several sinks.
 */
@FunctionalInterface
public interface StreamPartitioner<K, V> {

    /**
     * The partition of a record, or {@code null} for the default partitioner's choice.
     *
     * @param topic      the topic the record is written to (a repartition topic's full name)
     * @param partitions the topic's partition count
     */
    Integer partition(String topic, K key, V value, int partitions);
}
