package io.weir.internal.topology;

import io.weir.dsl.StreamPartitioner;
import io.weir.dsl.TopicNameExtractor;
import io.weir.errors.TopologyException;
import io.weir.processor.ProcessorSupplier;
import io.weir.serde.Serde;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Collects nodes for a topology, checking each as it is added, so a mistake fails at the line
 * that made it: duplicate names, unknown parents, a topic read by two sources.
 *
 * <p>Derived names are {@code <kind>-<n>} with {@code n} counting nodes in the order they were
 * added, so the same program always derives the same names.
 */
public final class GraphBuilder {

    private final Map<String, NodeSpec> nodes = new LinkedHashMap<>();
    private final Map<String, StoreSpec> stores = new LinkedHashMap<>();
    private final Map<String, GlobalTableSpec> globalTables = new LinkedHashMap<>();
    private int counter;
    private boolean built;

    /** A fresh derived name for a node of this kind. */
    public String newName(String kind) {
        String name;
        do {
            name = kind + "-" + counter++;
        } while (nodes.containsKey(name));
        return name;
    }

    /** True if a node of this name was added. */
    public boolean hasNode(String name) {
        return nodes.containsKey(name);
    }

    public void addSource(String name, List<String> topics, Pattern pattern, Serde<?> keySerde, Serde<?> valueSerde) {
        addSource(new NodeSpec.Source(name, topics, pattern, keySerde, valueSerde, false, null));
    }

    /** The source of a repartition topic (named relative to the application id) that {@link #addRepartitionSink} writes. */
    public void addRepartitionSource(String name, String topic, Serde<?> keySerde, Serde<?> valueSerde) {
        addRepartitionSource(name, topic, keySerde, valueSerde, 0);
    }

    /**
     * As {@link #addRepartitionSource(String, String, Serde, Serde)}, the topic with {@code partitions}
     * partitions; 0 to derive its count ({@link TaskCounts}).
     */
    public void addRepartitionSource(
            String name, String topic, Serde<?> keySerde, Serde<?> valueSerde, int partitions) {
        addSource(new NodeSpec.Source(name, List.of(topic), null, keySerde, valueSerde, true, null, true, partitions));
    }

    /**
     * A source of a repartition topic whose records do not carry their writers' event time (see
     * {@link NodeSpec.Source#eventTime}).
     */
    public void addSourceWithoutEventTime(String name, String topic, Serde<?> keySerde, Serde<?> valueSerde) {
        addSource(new NodeSpec.Source(name, List.of(topic), null, keySerde, valueSerde, true, null, false));
    }

    /**
     * A source as {@code source} describes it (its topic list copied); {@code internal} topics are
     * named relative to the application id; {@code timestamps} may be null for the default.
     */
    public void addSource(NodeSpec.Source source) {
        Objects.requireNonNull(source.keySerde(), "keySerde");
        Objects.requireNonNull(source.valueSerde(), "valueSerde");
        if (source.pattern() == null && source.topics().isEmpty()) {
            throw new TopologyException("source '" + source.name() + "' needs at least one topic");
        }
        for (String topic : source.topics()) {
            Objects.requireNonNull(topic, "topic");
            requireNotGlobal(topic);
            for (NodeSpec n : nodes.values()) {
                if (n instanceof NodeSpec.Source s && s.reads(topic)) {
                    throw new TopologyException("topic '" + topic + "' is already read by source '" + s.name()
                            + "'; read it once and reuse the stream");
                }
            }
        }
        add(source.withTopics(List.copyOf(source.topics())));
    }

    public void addProcessor(String name, ProcessorSupplier<?, ?, ?, ?> supplier, List<String> parents) {
        addProcessor(name, supplier, parents, List.of());
    }

    /** A processor that may use the named stores (added before or after it). */
    public void addProcessor(
            String name, ProcessorSupplier<?, ?, ?, ?> supplier, List<String> parents, List<String> storeNames) {
        Objects.requireNonNull(supplier, "supplier");
        add(new NodeSpec.Processing(name, supplier, List.copyOf(parents), List.copyOf(storeNames)));
    }

    /** A global table: its topic is read by no source, and its store is read by processors naming it. */
    public void addGlobalTable(GlobalTableSpec table) {
        checkStoreName(table.storeName());
        requireNotGlobal(table.topic());
        for (NodeSpec n : nodes.values()) {
            if (n instanceof NodeSpec.Source s && s.reads(table.topic())) {
                throw new TopologyException("topic '" + table.topic() + "' is already read by source '" + s.name()
                        + "'; a global table's topic cannot also be read as a stream or table");
            }
        }
        globalTables.put(table.storeName(), table);
    }

    private void requireNotGlobal(String topic) {
        for (GlobalTableSpec g : globalTables.values()) {
            if (g.topic().equals(topic)) {
                throw new TopologyException("topic '" + topic + "' is read by global table '" + g.storeName()
                        + "'; it cannot also be read as a stream or table");
            }
        }
    }

    /** A state store; processors name it to use it. */
    public void addStore(StoreSpec store) {
        checkStoreName(store.name());
        stores.put(store.name(), store);
    }

    private void checkStoreName(String name) {
        checkOpen();
        Objects.requireNonNull(name, "store name");
        if (!name.matches("[a-zA-Z0-9._-]+")) {
            throw new TopologyException(
                    "store name '" + name + "' may only contain letters, digits, '.', '_' and '-' (it names a topic)");
        }
        if (stores.containsKey(name) || globalTables.containsKey(name)) {
            throw new TopologyException("a store named '" + name + "' already exists; names must be unique");
        }
    }

    /** Lets an existing processor use more stores. */
    public void connectStores(String processor, List<String> storeNames) {
        checkOpen();
        NodeSpec n = nodes.get(processor);
        if (!(n instanceof NodeSpec.Processing p)) {
            throw new TopologyException("'" + processor + "' is not a processor of this topology");
        }
        List<String> all = new java.util.ArrayList<>(p.stores());
        all.addAll(storeNames);
        nodes.put(processor, new NodeSpec.Processing(p.name(), p.supplier(), p.parents(), List.copyOf(all)));
    }

    /** A sink; a null {@code topic} leaves the choice to {@code extractor}, per record. */
    public void addSink(
            String name,
            String topic,
            TopicNameExtractor<?, ?> extractor,
            Serde<?> keySerde,
            Serde<?> valueSerde,
            List<String> parents) {
        addSink(name, topic, extractor, null, keySerde, valueSerde, parents);
    }

    /** As {@link #addSink(String, String, TopicNameExtractor, Serde, Serde, List)}, choosing partitions with {@code partitioner} (null: Kafka's default). */
    public void addSink(
            String name,
            String topic,
            TopicNameExtractor<?, ?> extractor,
            StreamPartitioner<?, ?> partitioner,
            Serde<?> keySerde,
            Serde<?> valueSerde,
            List<String> parents) {
        requireSinkSerdes(name, topic, keySerde, valueSerde);
        add(new NodeSpec.Sink(name, topic, extractor, keySerde, valueSerde, List.copyOf(parents), false, partitioner));
    }

    /** The sink to a repartition topic, named relative to the application id. */
    public void addRepartitionSink(
            String name, String topic, Serde<?> keySerde, Serde<?> valueSerde, List<String> parents) {
        addRepartitionSink(name, topic, null, keySerde, valueSerde, parents);
    }

    /** As {@link #addRepartitionSink(String, String, Serde, Serde, List)}, choosing partitions with {@code partitioner}. */
    public void addRepartitionSink(
            String name,
            String topic,
            StreamPartitioner<?, ?> partitioner,
            Serde<?> keySerde,
            Serde<?> valueSerde,
            List<String> parents) {
        requireSinkSerdes(name, topic, keySerde, valueSerde);
        add(new NodeSpec.Sink(name, topic, null, keySerde, valueSerde, List.copyOf(parents), true, partitioner));
    }

    private static void requireSinkSerdes(String name, String topic, Serde<?> keySerde, Serde<?> valueSerde) {
        if (keySerde == null || valueSerde == null) {
            throw new TopologyException(
                    "sink '" + name + "' to " + (topic != null ? "topic '" + topic + "'" : "an extracted topic")
                            + " has no serdes: an earlier step changed the key or value type;"
                            + " pass serdes to to(...) or call withSerdes(...) first");
        }
    }

    /** Freezes the graph; the builder cannot be used afterwards. */
    public TopologyModel build() {
        checkOpen();
        if (nodes.values().stream().noneMatch(n -> n instanceof NodeSpec.Source)) {
            throw new TopologyException("the topology has no source: add a stream(...) first");
        }
        for (NodeSpec n : nodes.values()) {
            if (n instanceof NodeSpec.Processing p) {
                for (String store : p.stores()) {
                    if (!stores.containsKey(store) && !globalTables.containsKey(store)) {
                        throw new TopologyException("processor '" + p.name() + "' uses store '" + store
                                + "', which was never added; add it with addStateStore");
                    }
                }
            }
        }
        built = true;
        return new TopologyModel(nodes, stores, globalTables);
    }

    private void add(NodeSpec node) {
        checkOpen();
        Objects.requireNonNull(node.name(), "name");
        if (nodes.containsKey(node.name())) {
            throw new TopologyException("a node named '" + node.name() + "' already exists; names must be unique");
        }
        for (String parent : node.parents()) {
            NodeSpec p = nodes.get(parent);
            if (p == null) {
                throw new TopologyException("node '" + node.name() + "' names an unknown parent '" + parent + "'");
            }
            if (p instanceof NodeSpec.Sink) {
                throw new TopologyException("node '" + node.name() + "' cannot follow sink '" + parent + "'");
            }
        }
        if (!(node instanceof NodeSpec.Source) && node.parents().isEmpty()) {
            throw new TopologyException("node '" + node.name() + "' needs at least one parent");
        }
        nodes.put(node.name(), node);
    }

    private void checkOpen() {
        if (built) {
            throw new TopologyException("this builder has already built its topology");
        }
    }
}
