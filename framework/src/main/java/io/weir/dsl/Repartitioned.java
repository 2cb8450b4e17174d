package io.weir.dsl;

import io.weir.serde.Serde;
import java.util.Objects;

/**
 * Options of {@link RecordStream#repartition(Repartitioned)}: the name of the repartition topic,
 * its partition count, the partitioner, and the serdes. As Kafka Streams' {@code Repartitioned}
 * ({@code as}, {@code withNumberOfPartitions}, {@code withStreamPartitioner}, {@code with}).
 *
 * <p>The partition count: with {@link #withPartitions(int)} the topic is created with exactly that
 * many partitions, and the steps reading it run that many tasks; a step that must be co-partitioned
 * with it (a join, or an aggregation over a merge) with a topic of another count fails at start-up
 * with a message naming both topics. Without, the topic takes its count from the topics around it
 * as every repartition topic does: the upstream sub-topology's task count, or, when it is read
 * beside other inputs by a stateful step, their count. The count is part of the topology: an
 * existing topic with another count is refused at start-up, and changing it between versions needs
 * a savepoint restore or a reset (the topic is created anew), as {@code weir topology diff} says.
 *
 * @param name        names the topic {@code <application.id>-<name>-repartition} and its nodes; keep it
 *                    stable across versions; null derives one from the step's place in the topology
 * @param partitions  the topic's partition count, at least 1; 0 to derive it (the default)
 * @param partitioner chooses each record's partition; null for Kafka's default partitioner (by key)
 * @param keySerde    null (with {@code valueSerde}) for the stream's serdes
 * @param valueSerde  null (with {@code keySerde}) for the stream's serdes
 */
public record Repartitioned<K, V>(
        String name,
        int partitions,
        StreamPartitioner<? super K, ? super V> partitioner,
        Serde<K> keySerde,
        Serde<V> valueSerde) {

    public Repartitioned {
        if (name != null && !name.matches("[a-zA-Z0-9._-]+")) {
            throw new IllegalArgumentException("a repartition's name may only contain letters, digits, '.', '_' and"
                    + " '-' (it names a topic), was '" + name + "'");
        }
        if (partitions < 0) {
            throw new IllegalArgumentException(
                    "a repartition topic has at least 1 partition (or 0: derived), was " + partitions);
        }
        if ((keySerde == null) != (valueSerde == null)) {
            throw new IllegalArgumentException("a repartition takes both serdes or neither (then the stream's), was"
                    + " key " + keySerde + ", value " + valueSerde);
        }
    }

    /** A derived name and partition count, the default partitioner and the stream's serdes. */
    public static <K, V> Repartitioned<K, V> defaults() {
        return new Repartitioned<>(null, 0, null, null, null);
    }

    /** The defaults, with a stable name (recommended: the topic is named after it). */
    public static <K, V> Repartitioned<K, V> named(String name) {
        return Repartitioned.<K, V>defaults().withName(Objects.requireNonNull(name, "name"));
    }

    /** The defaults, with these serdes. */
    public static <K, V> Repartitioned<K, V> with(Serde<K> keySerde, Serde<V> valueSerde) {
        return Repartitioned.<K, V>defaults().withSerdes(keySerde, valueSerde);
    }

    public Repartitioned<K, V> withName(String name) {
        return new Repartitioned<>(name, partitions, partitioner, keySerde, valueSerde);
    }

    /** Creates the topic with exactly {@code partitions} partitions, at least 1. */
    public Repartitioned<K, V> withPartitions(int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("a repartition topic has at least 1 partition, was " + partitions);
        }
        return new Repartitioned<>(name, partitions, partitioner, keySerde, valueSerde);
    }

    public Repartitioned<K, V> withPartitioner(StreamPartitioner<? super K, ? super V> partitioner) {
        return new Repartitioned<>(
                name, partitions, Objects.requireNonNull(partitioner, "partitioner"), keySerde, valueSerde);
    }

    public Repartitioned<K, V> withSerdes(Serde<K> keySerde, Serde<V> valueSerde) {
        return new Repartitioned<>(
                name,
                partitions,
                partitioner,
                Objects.requireNonNull(keySerde, "keySerde"),
                Objects.requireNonNull(valueSerde, "valueSerde"));
    }
}
