package io.weir.internal.dsl;

import io.weir.dsl.Async;
import io.weir.errors.TopologyException;
import io.weir.internal.operator.async.AsyncStepSupplier;
import io.weir.internal.topology.GraphBuilder;
import io.weir.internal.topology.StoreSpec;
import io.weir.processor.AsyncProcessorSupplier;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Adds an asynchronous step to a stream: its node and its store of calls in flight. */
public final class AsyncSteps {

    /** Makes the step's supplier once its name and the stream's serdes are known. */
    interface Step<K, V> {
        AsyncStepSupplier<K, V> make(String name, Serde<K> keySerde, Serde<V> valueSerde);
    }

    /** The kind of {@code enrichAsync}'s steps, the only ones with a cache. */
    static final String ENRICH = "enrich-async";

    private AsyncSteps() {}

    /**
     * Adds the step after {@code input}'s node, using {@code stores} besides its own.
     *
     * @return the step's node name
     */
    static <K, V> String add(
            RecordStreamImpl<K, V> input, String kind, Async options, List<String> stores, Step<K, V> step) {
        Objects.requireNonNull(options, "options");
        GraphBuilder graph = input.graph();
        String name = options.name() != null ? options.name() : graph.newName(kind);
        if (options.cache() != null && !kind.equals(ENRICH)) {
            throw new TopologyException("async step '" + name + "' has a cache, which only enrichAsync uses (it caches"
                    + " looked-up values); remove withCache(...)");
        }
        addNode(graph, name, input.keySerde(), input.valueSerde(), List.of(input.node()), stores, step);
        return name;
    }

    /**
     * The processor API's {@code addAsyncProcessor}: a named asynchronous processor fed by {@code
     * parents}, its input read with {@code keySerde} and {@code valueSerde}.
     */
    public static <K, V> void addProcessor(
            GraphBuilder graph,
            String name,
            AsyncProcessorSupplier<? super K, ? super V, ?, ?, ?> supplier,
            Async options,
            Serde<K> keySerde,
            Serde<V> valueSerde,
            List<String> parents,
            List<String> stores) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(supplier, "supplier");
        Objects.requireNonNull(options, "options");
        if (options.name() != null && !options.name().equals(name)) {
            throw new TopologyException("async processor '" + name + "' has options named '" + options.name()
                    + "'; leave the options unnamed or give them the processor's name");
        }
        requireKeyOrder(name, options, stores);
        Async named = options.withName(name);
        addNode(
                graph,
                name,
                keySerde,
                valueSerde,
                parents,
                stores,
                (n, ks, vs) -> AsyncStepSupplier.processor(n, supplier, named, ks, vs));
    }

    private static <K, V> void addNode(
            GraphBuilder graph,
            String name,
            Serde<K> keySerde,
            Serde<V> valueSerde,
            List<String> parents,
            List<String> stores,
            Step<K, V> step) {
        if (graph.hasNode(name)) {
            throw new TopologyException("a node named '" + name + "' already exists; give the async step another name");
        }
        String store = name + AsyncStepSupplier.STORE_SUFFIX;
        if (keySerde == null || valueSerde == null) {
            throw new TopologyException("async step '" + name + "' keeps its calls in flight at each commit in the"
                    + " store '" + store + "', which needs the key and value serdes of its input: call"
                    + " withSerdes(...) before it");
        }
        graph.addStore(new StoreSpec(store, Serdes.longs(), Serdes.bytes(), true, true, null));
        List<String> used = new ArrayList<>(stores);
        used.add(store);
        graph.addProcessor(name, step.make(name, keySerde, valueSerde), parents, used);
    }

    /**
     * A hand-written asynchronous processor reads and writes stores for a key between its calls:
     * only per-key order lets a call see what the previous one of its key wrote.
     */
    static void requireKeyOrder(String name, Async options, List<String> stores) {
        if (!stores.isEmpty() && options.order() != Async.Order.KEY) {
            throw new TopologyException("async processor '" + name + "' uses stores " + stores + " with order "
                    + options.order() + ": only Async.Order.KEY lets each call see what the previous call of its"
                    + " key wrote (read-your-writes); use KEY, or keep state out of the processor");
        }
    }
}
