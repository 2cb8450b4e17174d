package io.weir.dsl;

import io.weir.serde.Serde;
import java.util.Objects;

/**
 * Options of a sink ({@link RecordStream#to(String, Produced)}, {@link
 * RecordStream#to(TopicNameExtractor, Produced)}): the serdes to write with and the partitioner
 * choosing each record's partition. As Kafka Streams' {@code Produced}.
 *
 * @param keySerde    serializes keys; null (with {@code valueSerde}) for the stream's serdes
 * @param valueSerde  serializes values; null (with {@code keySerde}) for the stream's serdes
 * @param partitioner chooses each record's partition; null for Kafka's default partitioner
 */
public record Produced<K, V>(
        Serde<K> keySerde, Serde<V> valueSerde, StreamPartitioner<? super K, ? super V> partitioner) {

    public Produced {
        if ((keySerde == null) != (valueSerde == null)) {
            throw new IllegalArgumentException("a sink takes both serdes or neither (then the stream's), was key "
                    + keySerde + ", value " + valueSerde);
        }
    }

    /** Writes with these serdes, partitioned by Kafka's default partitioner. */
    public static <K, V> Produced<K, V> with(Serde<K> keySerde, Serde<V> valueSerde) {
        return new Produced<>(
                Objects.requireNonNull(keySerde, "keySerde"), Objects.requireNonNull(valueSerde, "valueSerde"), null);
    }

    /** Writes with the stream's serdes, each record to the partition {@code partitioner} chooses. */
    public static <K, V> Produced<K, V> partitionedBy(StreamPartitioner<? super K, ? super V> partitioner) {
        return new Produced<>(null, null, Objects.requireNonNull(partitioner, "partitioner"));
    }

    public Produced<K, V> withSerdes(Serde<K> keySerde, Serde<V> valueSerde) {
        return new Produced<>(
                Objects.requireNonNull(keySerde, "keySerde"),
                Objects.requireNonNull(valueSerde, "valueSerde"),
                partitioner);
    }

    public Produced<K, V> withPartitioner(StreamPartitioner<? super K, ? super V> partitioner) {
        return new Produced<>(keySerde, valueSerde, Objects.requireNonNull(partitioner, "partitioner"));
    }
}
