package io.weir.internal.dsl;

import io.weir.dsl.Aggregator;
import io.weir.internal.task.CommitAwareProcessor;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.ProcessorSupplier;
import io.weir.processor.Record;
import io.weir.state.KeyValueStore;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * Keeps one aggregate per key in a store and forwards each changed key's latest aggregate once
 * per commit interval, at step 1 of the commit (in the order keys first changed), so a hot key
 * costs one output per commit, not one per record.
 */
final class AggregateProcessor<K, V, VA> implements Processor<K, V, K, VA>, CommitAwareProcessor {

    /** How the aggregate of a key changes with a value; {@code current} is null for a new key. */
    @FunctionalInterface
    interface Step<K, V, VA> {
        VA apply(K key, V value, VA current);
    }

    private final String storeName;
    private final Step<K, V, VA> step;
    /** Changed keys, in the order they first changed; byte[] keys are wrapped to compare by content. */
    private final Map<Object, Record<K, VA>> changed = new LinkedHashMap<>();
    private ProcessorContext<K, VA> context;
    private KeyValueStore<K, VA> store;

    private AggregateProcessor(String storeName, Step<K, V, VA> step) {
        this.storeName = storeName;
        this.step = step;
    }

    /** Counting: 1 for a new key, then one more per record. Shared with the windowed aggregations. */
    static <K, V> Step<K, V, Long> countStep() {
        return (k, v, count) -> count == null ? 1L : count + 1;
    }

    /** Reducing: the first value, then the reducer over the result and each value. */
    static <K, V> Step<K, V, V> reduceStep(BinaryOperator<V> reducer) {
        return (k, v, acc) -> acc == null ? v : reducer.apply(acc, v);
    }

    /** Aggregating: the aggregator over the result, which starts from the initializer. */
    static <K, V, VA> Step<K, V, VA> aggregateStep(Supplier<VA> initializer,
                                                  Aggregator<? super K, ? super V, VA> aggregator) {
        return (k, v, acc) -> aggregator.apply(k, v, acc == null ? initializer.get() : acc);
    }

    static <K, V> ProcessorSupplier<K, V, K, Long> counting(String store) {
        return () -> new AggregateProcessor<K, V, Long>(store, countStep());
    }

    static <K, V> ProcessorSupplier<K, V, K, V> reducing(String store, BinaryOperator<V> reducer) {
        return () -> new AggregateProcessor<K, V, V>(store, reduceStep(reducer));
    }

    static <K, V, VA> ProcessorSupplier<K, V, K, VA> aggregating(String store, Supplier<VA> initializer,
                                                                 Aggregator<? super K, ? super V, VA> aggregator) {
        return () -> new AggregateProcessor<K, V, VA>(store, aggregateStep(initializer, aggregator));
    }

    @Override
    public void init(ProcessorContext<K, VA> context) {
        this.context = context;
        this.store = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<K, V> record) {
        K key = record.key();
        if (key == null) {
            throw new IllegalArgumentException("a record with a null key cannot be aggregated into '" + storeName + "'");
        }
        VA updated = step.apply(key, record.value(), store.get(key));
        store.put(key, updated);
        changed.put(key instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : key, record.withValue(updated));
    }

    @Override
    public void beforeCommit() {
        if (changed.isEmpty()) {
            return;
        }
        for (Record<K, VA> r : changed.values()) {
            context.forward(r);
        }
        changed.clear();
    }

    @Override
    public void afterAbort() {
        changed.clear();
    }
}
