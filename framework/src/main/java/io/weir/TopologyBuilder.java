package io.weir;

import io.weir.dsl.GlobalTable;
import io.weir.dsl.RecordStream;
import io.weir.dsl.RecordTable;
import io.weir.internal.dsl.GlobalTableImpl;
import io.weir.internal.dsl.RecordStreamImpl;
import io.weir.internal.topology.GraphBuilder;
import io.weir.internal.topology.NodeSpec;
import io.weir.internal.topology.StoreSpec;
import io.weir.processor.ProcessorSupplier;
import io.weir.processor.StoreBuilder;
import io.weir.serde.Serde;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Declares a topology, with the DSL ({@link #stream}) or node by node with the processor API
 * ({@link #addSource}, {@link #addProcessor}, {@link #addSink}); both can be mixed. Mistakes fail
 * at the call that made them.
 *
 * <pre>{@code
 * TopologyBuilder b = new TopologyBuilder();
 * b.stream(Serdes.strings(), Serdes.json(Reading.class), "readings")
 *  .filter((sensor, r) -> r.temperature() > 90)
 *  .mapValues(r -> new Alert(r.sensor(), r.temperature()))
 *  .to("alerts", Serdes.strings(), Serdes.json(Alert.class));
 * Topology topology = b.build();
 * }</pre>
 */
public final class TopologyBuilder {

    private final GraphBuilder graph = new GraphBuilder();

    /** A stream of the records of one or more topics. */
    public <K, V> RecordStream<K, V> stream(Serde<K> keySerde, Serde<V> valueSerde, String... topics) {
        String name = graph.newName("source");
        graph.addSource(name, Arrays.asList(topics), null, keySerde, valueSerde);
        return new RecordStreamImpl<>(graph, name, keySerde, valueSerde);
    }

    /**
     * A stream of the records of one or more topics, timed by {@code timestamps} (event time from
     * the value, ingestion or processing time; see {@link io.weir.time.Timestamps}).
     */
    public <K, V> RecordStream<K, V> stream(
            Serde<K> keySerde,
            Serde<V> valueSerde,
            io.weir.time.TimestampExtractor<? super K, ? super V> timestamps,
            String... topics) {
        Objects.requireNonNull(timestamps, "timestamps");
        String name = graph.newName("source");
        graph.addSource(
                new NodeSpec.Source(name, Arrays.asList(topics), null, keySerde, valueSerde, false, timestamps));
        return new RecordStreamImpl<>(graph, name, keySerde, valueSerde);
    }

    /**
     * A table of the records of {@code topic}, kept in the store {@code storeName} (queryable by
     * that name): each record replaces its key's row, a {@code null} value (a tombstone) deletes
     * it. Like a topic read as a Kafka Streams {@code KTable}; a record with a {@code null} key goes
     * to the dead-letter topic. The topic is usually compacted, so that it keeps every key's latest
     * value.
     *
     * <p>When the topic is compacted ({@code cleanup.policy} contains {@code compact}, checked at
     * start-up), it is the store's changelog: no second copy in {@code <application.id>-<store>-changelog}.
     * The store is then restored from the topic up to the task's committed input offset (not to the
     * topic's end, as Kafka Streams' {@code reuse.ktable.source.topics} does), skipping the records
     * processing dead-lettered. A topic that is not compacted loses old keys, so the store keeps a
     * changelog of its own, as before.
     */
    public <K, V> RecordTable<K, V> table(Serde<K> keySerde, Serde<V> valueSerde, String topic, String storeName) {
        Objects.requireNonNull(topic, "topic");
        return ((RecordStreamImpl<K, V>) stream(keySerde, valueSerde, topic)).toTableOfSource(storeName, topic);
    }

    /**
     * As {@link #table(Serde, Serde, String, String)}, a versioned table keeping each key's history
     * for {@code versioned}'s retention (in the store {@code <storeName>-versions}), so that
     * stream-table joins read the value valid at each stream record's time; see
     * {@link RecordStream#toTable(String, io.weir.dsl.Versioned)}.
     */
    public <K, V> RecordTable<K, V> table(
            Serde<K> keySerde, Serde<V> valueSerde, String topic, String storeName, io.weir.dsl.Versioned versioned) {
        Objects.requireNonNull(topic, "topic");
        return stream(keySerde, valueSerde, topic).toTable(storeName, versioned);
    }

    /** As {@link #table(Serde, Serde, String, String)}, the rows timed by {@code timestamps}. */
    public <K, V> RecordTable<K, V> table(
            Serde<K> keySerde,
            Serde<V> valueSerde,
            io.weir.time.TimestampExtractor<? super K, ? super V> timestamps,
            String topic,
            String storeName) {
        Objects.requireNonNull(topic, "topic");
        return stream(keySerde, valueSerde, timestamps, topic).toTable(storeName);
    }

    /**
     * A global table of every partition of {@code topic}, kept in full on every instance in the
     * store {@code storeName}; streams join it without co-partitioning (see {@link GlobalTable}).
     */
    public <K, V> GlobalTable<K, V> globalTable(
            Serde<K> keySerde, Serde<V> valueSerde, String topic, String storeName) {
        return GlobalTableImpl.add(graph, keySerde, valueSerde, topic, storeName);
    }

    /** A stream of every topic whose name matches {@code pattern}, including topics created later. */
    public <K, V> RecordStream<K, V> stream(Serde<K> keySerde, Serde<V> valueSerde, Pattern pattern) {
        Objects.requireNonNull(pattern, "pattern");
        String name = graph.newName("source");
        graph.addSource(name, List.of(), pattern, keySerde, valueSerde);
        return new RecordStreamImpl<>(graph, name, keySerde, valueSerde);
    }

    /** Processor API: a named source node. */
    public TopologyBuilder addSource(String name, Serde<?> keySerde, Serde<?> valueSerde, String... topics) {
        graph.addSource(name, Arrays.asList(topics), null, keySerde, valueSerde);
        return this;
    }

    /** Processor API: a named source node whose records are timed by {@code timestamps}. */
    public TopologyBuilder addSource(
            String name,
            Serde<?> keySerde,
            Serde<?> valueSerde,
            io.weir.time.TimestampExtractor<?, ?> timestamps,
            String... topics) {
        Objects.requireNonNull(timestamps, "timestamps");
        graph.addSource(
                new NodeSpec.Source(name, Arrays.asList(topics), null, keySerde, valueSerde, false, timestamps));
        return this;
    }

    /** Processor API: a named processor fed by the named parents. */
    public <KIn, VIn, KOut, VOut> TopologyBuilder addProcessor(
            String name, ProcessorSupplier<KIn, VIn, KOut, VOut> supplier, String... parents) {
        graph.addProcessor(name, supplier, Arrays.asList(parents));
        return this;
    }

    /** Processor API: a named sink writing what its parents forward to {@code topic}. */
    public <K, V> TopologyBuilder addSink(
            String name, String topic, Serde<K> keySerde, Serde<V> valueSerde, String... parents) {
        Objects.requireNonNull(topic, "topic");
        graph.addSink(name, topic, null, keySerde, valueSerde, Arrays.asList(parents));
        return this;
    }

    /**
     * Processor API: adds a state store (key-value, window or session, declared with
     * {@link io.weir.processor.Stores}) and connects it to the named processors (which may be added
     * before or after). Processors sharing a store always run in the same task.
     */
    public TopologyBuilder addStateStore(StoreBuilder<?, ?> store, String... processorNames) {
        graph.addStore(StoreSpec.of(store));
        for (String p : processorNames) {
            graph.connectStores(p, List.of(store.name()));
        }
        return this;
    }

    /** Processor API: a named processor fed by {@code parents} that uses {@code stores}. */
    public <KIn, VIn, KOut, VOut> TopologyBuilder addProcessor(
            String name, ProcessorSupplier<KIn, VIn, KOut, VOut> supplier, List<String> parents, List<String> stores) {
        graph.addProcessor(name, supplier, parents, stores);
        return this;
    }

    /**
     * Processor API: a named asynchronous processor (see {@link io.weir.processor.AsyncProcessor}
     * for its guarantees) fed by {@code parents}, using {@code stores} (added with {@link
     * #addStateStore}; with stores, {@code options} must keep {@link io.weir.dsl.Async.Order#KEY}).
     * {@code keySerde} and {@code valueSerde} are its input's: calls in flight at a commit are stored
     * with them, in the store {@code <name>-in-flight}.
     */
    public <KIn, VIn, KOut, VOut, R> TopologyBuilder addAsyncProcessor(
            String name,
            io.weir.processor.AsyncProcessorSupplier<KIn, VIn, KOut, VOut, R> supplier,
            io.weir.dsl.Async options,
            Serde<KIn> keySerde,
            Serde<VIn> valueSerde,
            List<String> parents,
            List<String> stores) {
        io.weir.internal.dsl.AsyncSteps.addProcessor(
                graph, name, supplier, options, keySerde, valueSerde, parents, stores);
        return this;
    }

    /** Freezes the topology. */
    public Topology build() {
        return new Topology(graph.build());
    }
}
