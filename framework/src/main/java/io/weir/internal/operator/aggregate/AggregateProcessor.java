package io.weir.internal.operator.aggregate;

import io.weir.dsl.Aggregator;
import io.weir.internal.operator.table.Change;
import io.weir.internal.operator.table.TableChildren;
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
 * Keeps one value per key in a store (an aggregate, or a table's latest value) and forwards each
 * changed key's {@link Change} once per commit interval, at step 1 of the commit (in the order
 * keys first changed): the value the key had at the previous commit and the one it has now (the
 * new value alone to the children that read the table as a stream, see {@link TableChildren}). A
 * hot key costs one output per commit, not one per record. A step that returns {@code null}
 * deletes the key.
 */
public final class AggregateProcessor<K, V, VA> implements Processor<K, V, K, Change<VA>>, CommitAwareProcessor {

    /** How the aggregate of a key changes with a value; {@code current} is null for a new key. */
    @FunctionalInterface
    public interface Step<K, V, VA> {
        VA apply(K key, V value, VA current);
    }

    private final String storeName;
    private final Step<K, V, VA> step;
    private final TableChildren children;
    /** Changed keys, in the order they first changed; byte[] keys are wrapped to compare by content. */
    private final Map<Object, Pending<K, VA>> changed = new LinkedHashMap<>();

    private ProcessorContext<K, Change<VA>> context;
    private KeyValueStore<K, VA> store;

    private AggregateProcessor(String storeName, Step<K, V, VA> step, TableChildren children) {
        this.storeName = storeName;
        this.step = step;
        this.children = children;
    }

    /** Counting: 1 for a new key, then one more per record. Shared with the windowed aggregations. */
    public static <K, V> Step<K, V, Long> countStep() {
        return (k, v, count) -> count == null ? 1L : count + 1;
    }

    /** Reducing: the first value, then the reducer over the result and each value. */
    public static <K, V> Step<K, V, V> reduceStep(BinaryOperator<V> reducer) {
        return (k, v, acc) -> acc == null ? v : reducer.apply(acc, v);
    }

    /** Aggregating: the aggregator over the result, which starts from the initializer. */
    public static <K, V, VA> Step<K, V, VA> aggregateStep(
            Supplier<VA> initializer, Aggregator<? super K, ? super V, VA> aggregator) {
        return (k, v, acc) -> aggregator.apply(k, v, acc == null ? initializer.get() : acc);
    }

    /** A table's latest value: each record replaces the key's value; a null value deletes it. */
    public static <K, V> Step<K, V, V> latestStep() {
        return (k, v, current) -> v;
    }

    /** The processor of {@code store}; {@code children} says which of its children take its changes. */
    public static <K, V, VA> ProcessorSupplier<K, V, K, Change<VA>> supplier(
            String store, Step<K, V, VA> step, TableChildren children) {
        return () -> new AggregateProcessor<>(store, step, children);
    }

    @Override
    public void init(ProcessorContext<K, Change<VA>> context) {
        this.context = context;
        this.store = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<K, V> record) {
        K key = record.key();
        if (key == null) {
            throw new IllegalArgumentException(
                    "a record with a null key has no row in table or aggregate '" + storeName + "'");
        }
        VA current = store.get(key);
        VA updated = step.apply(key, record.value(), current);
        store.put(key, updated);
        Object id = key instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : key;
        Pending<K, VA> pending = changed.get(id);
        changed.put(id, new Pending<>(pending == null ? current : pending.oldValue, record.withValue(updated)));
    }

    /** A key's value at the previous commit, and the record carrying its latest value. */
    private record Pending<K, VA>(VA oldValue, Record<K, VA> latest) {}

    @Override
    public void beforeCommit() {
        if (changed.isEmpty()) {
            return;
        }
        for (Pending<K, VA> p : changed.values()) {
            if (p.oldValue != null || p.latest.value() != null) { // a key added and deleted again is no change
                children.forward(context, p.latest.withValue(new Change<>(p.oldValue, p.latest.value())));
            }
        }
        changed.clear();
    }

    @Override
    public void afterAbort() {
        changed.clear();
    }
}
