package io.weir.internal.operator.table;

import io.weir.common.KeyValue;
import io.weir.dsl.ValueJoiner;
import io.weir.internal.operator.stateless.StatelessProcessors;
import io.weir.processor.ProcessorContext;
import io.weir.processor.ProcessorSupplier;
import io.weir.processor.Record;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * The processors between a table's store and what reads its updates: each takes the
 * {@link Change}s a table forwards. They keep each record's timestamp, headers and origin.
 */
public final class TableProcessors {

    private TableProcessors() {}

    /** The base of these processors: keeps the context. */
    private abstract static class Forwarding<KIn, VIn, KOut, VOut>
            extends StatelessProcessors.Forwarding<KIn, VIn, KOut, VOut> {}

    /**
     * A derived table's updates: both values through {@code view} (which returns {@code null} to
     * drop a row, see {@link TableLookup#through}); a change that is absent before and after
     * (a row the filter dropped both times) is not forwarded.
     */
    public static <K, V, VR> ProcessorSupplier<K, Change<V>, K, Change<VR>> view(
            BiFunction<? super K, ? super V, ? extends VR> view, TableChildren children) {
        return () -> new Forwarding<K, Change<V>, K, Change<VR>>() {
            @Override
            public void process(Record<K, Change<V>> r) {
                K key = r.key();
                Change<V> c = r.value();
                Change<VR> viewed = new Change<>(
                        c.oldValue() == null ? null : view.apply(key, c.oldValue()),
                        c.newValue() == null ? null : view.apply(key, c.newValue()));
                if (!viewed.isEmpty()) {
                    children.forward(context, r.withValue(viewed));
                }
            }
        };
    }

    /**
     * Re-keys a table's changes for a table aggregation: the old value under the key it grouped
     * to, the new value under its new key; one record when the two keys are equal, else the
     * subtraction first. A new value whose key is {@code null} fails the record (dead letter); an
     * old value whose key is {@code null} was never added, so there is nothing to subtract.
     */
    public static <K, V, KR, VR> ProcessorSupplier<K, Change<V>, KR, Change<VR>> regroup(
            BiFunction<? super K, ? super V, KeyValue<KR, VR>> selector) {
        return () -> new Forwarding<K, Change<V>, KR, Change<VR>>() {
            @Override
            public void process(Record<K, Change<V>> r) {
                Change<V> c = r.value();
                KeyValue<KR, VR> updated = c.newValue() == null ? null : select(r.key(), c.newValue());
                if (updated != null && updated.key() == null) {
                    throw new IllegalArgumentException("groupBy returned a null key for table row " + r.key()
                            + "; a row needs a key to be aggregated");
                }
                KeyValue<KR, VR> old = c.oldValue() == null ? null : select(r.key(), c.oldValue());
                if (old != null && old.key() != null) {
                    if (updated != null && Objects.equals(old.key(), updated.key())) {
                        context.forward(r.with(updated.key(), new Change<>(old.value(), updated.value())));
                        return;
                    }
                    context.forward(r.with(old.key(), new Change<>(old.value(), null)));
                }
                if (updated != null) {
                    context.forward(r.with(updated.key(), new Change<>(null, updated.value())));
                }
            }

            private KeyValue<KR, VR> select(K key, V value) {
                KeyValue<KR, VR> kv = selector.apply(key, value);
                if (kv == null) {
                    throw new NullPointerException(
                            "groupBy returned null for table row " + key + "; return a KeyValue");
                }
                return kv;
            }
        };
    }

    /** Which rows a join keeps: both sides present, the left one, or either. */
    public enum JoinKind {
        INNER,
        LEFT,
        OUTER;

        /** The joined value of two sides' values, or {@code null} when this kind has no row for them. */
        public <V1, V2, VR> VR join(V1 left, V2 right, ValueJoiner<? super V1, ? super V2, ? extends VR> joiner) {
            boolean row = switch (this) {
                case INNER -> left != null && right != null;
                case LEFT -> left != null;
                case OUTER -> left != null || right != null;
            };
            return row ? joiner.apply(left, right) : null;
        }
    }

    /**
     * Joins two tables: any change of either side for a key recomputes the key's joined value from
     * both sides' current values and forwards it with the value last forwarded, which the result
     * store {@code store} keeps. Reading the old value from the result store, not recomputing it
     * from the changed side's old value, keeps it right when both sides of a key changed in one
     * commit interval (each side forwards its changes at the commit, after both stores changed): a
     * re-keyed aggregation downstream subtracts exactly what it was given.
     */
    public static <K, V1, V2, VR> ProcessorSupplier<K, Object, K, Change<VR>> tableTableJoin(
            TableLookup<K, V1> left,
            TableLookup<K, V2> right,
            ValueJoiner<? super V1, ? super V2, ? extends VR> joiner,
            JoinKind kind,
            String store,
            TableChildren children) {
        return () -> new Forwarding<K, Object, K, Change<VR>>() {
            private TableLookup.Reader<K, V1> leftReader;
            private TableLookup.Reader<K, V2> rightReader;
            private io.weir.state.KeyValueStore<K, VR> result;

            @Override
            public void init(ProcessorContext<K, Change<VR>> context) {
                super.init(context);
                leftReader = left.open(context);
                rightReader = right.open(context);
                result = context.getStateStore(store);
            }

            @Override
            public void process(Record<K, Object> r) {
                K key = r.key();
                VR joined = kind.join(leftReader.get(key), rightReader.get(key), joiner);
                VR previous = result.get(key);
                if (joined == null && previous == null) {
                    return;
                }
                result.put(key, joined);
                children.forward(context, r.withValue(new Change<>(previous, joined)));
            }
        };
    }

    /**
     * Joins each stream record with a table's current value of the key {@code lookupKey} gives for
     * it ({@link TableLookup}): the record's own key for a co-partitioned table, the key a selector
     * picks for a global table; {@code null} looks nothing up. Inner: a record without a table
     * value, or with a {@code null} value, gives nothing. Left: every record gives a result, with a
     * {@code null} table value when there is none.
     */
    public static <K, V, KT, VT, VR> ProcessorSupplier<K, V, K, VR> streamTableJoin(
            TableLookup<KT, VT> table,
            BiFunction<? super K, ? super V, ? extends KT> lookupKey,
            ValueJoiner<? super V, ? super VT, ? extends VR> joiner,
            boolean left) {
        return () -> new Forwarding<K, V, K, VR>() {
            private TableLookup.Reader<KT, VT> reader;

            @Override
            public void init(ProcessorContext<K, VR> context) {
                super.init(context);
                reader = table.open(context);
            }

            @Override
            public void process(Record<K, V> r) {
                KT key = lookupKey.apply(r.key(), r.value());
                VT tableValue = key == null ? null : reader.get(key);
                if (left || tableValue != null && r.value() != null) {
                    context.forward(r.withValue(joiner.apply(r.value(), tableValue)));
                }
            }
        };
    }
}
