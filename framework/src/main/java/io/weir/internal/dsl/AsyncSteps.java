package io.weir.internal.dsl;

import io.weir.dsl.Async;
import io.weir.dsl.AsyncFunction;
import io.weir.errors.TopologyException;
import io.weir.internal.operator.async.AsyncStepProcessor;
import io.weir.internal.operator.async.AsyncStepSupplier;
import io.weir.internal.topology.GraphBuilder;
import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serdes;
import java.util.List;
import java.util.Objects;

/** Adds an asynchronous step to a stream: its node and its store of calls in flight. */
final class AsyncSteps {

    /** Suffix of the store that keeps a step's calls in flight at each commit. */
    static final String STORE_SUFFIX = "-in-flight";

    private AsyncSteps() {}

    /** @return the step's node name */
    static <K, V, R> String add(
            RecordStreamImpl<K, V> input,
            String kind,
            AsyncFunction<? super K, ? super V, ? extends R> function,
            Async options,
            AsyncStepProcessor.Emit emit) {
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(options, "options");
        GraphBuilder graph = input.graph();
        String name = options.name() != null ? options.name() : graph.newName(kind);
        if (graph.hasNode(name)) {
            throw new TopologyException("a node named '" + name + "' already exists; give the async step another name");
        }
        String store = name + STORE_SUFFIX;
        if (input.keySerde() == null || input.valueSerde() == null) {
            throw new TopologyException("async step '" + name + "' keeps its calls in flight at each commit in the"
                    + " store '" + store + "', which needs the stream's key and value serdes: call withSerdes(...)"
                    + " before it");
        }
        graph.addStore(new StoreSpec(store, Serdes.longs(), Serdes.bytes(), true, true, null));
        graph.addProcessor(
                name,
                new AsyncStepSupplier<K, V, R>(
                        name, store, function, options, emit, input.keySerde(), input.valueSerde()),
                List.of(input.node()),
                List.of(store));
        return name;
    }
}
