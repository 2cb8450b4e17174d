package io.weir.internal.operator.join;

import io.weir.common.KeyValue;
import io.weir.dsl.ValueJoiner;
import io.weir.internal.operator.stateless.StatelessProcessors;
import io.weir.internal.operator.table.Change;
import io.weir.internal.operator.table.TableChildren;
import io.weir.internal.operator.table.TableLookup;
import io.weir.internal.operator.table.TableProcessors;
import io.weir.processor.ProcessorContext;
import io.weir.processor.ProcessorSupplier;
import io.weir.processor.Record;
import io.weir.serde.Serde;
import io.weir.state.KeyValueIterator;
import io.weir.state.KeyValueStore;
import java.util.Arrays;
import java.util.function.BiFunction;

/**
 * The four processors of a foreign-key join ({@code ForeignKeyJoin} wires them). On the left
 * table's side: {@link #subscribe} turns a left row's change into subscriptions keyed by foreign
 * key, and {@link #join} keeps the result from the left rows and the responses. On the right
 * table's side: {@link #respond} keeps the subscriptions and answers each with the right row, and
 * {@link #fanOut} answers every subscriber of a right row that changed. Records keep their
 * timestamp and headers.
 */
public final class ForeignKeyJoinProcessors {

    private ForeignKeyJoinProcessors() {}

    /** What the processors of one join share: how to read foreign keys and digest left values. */
    public record Spec<K, V, KO>(
            BiFunction<? super K, ? super V, ? extends KO> foreignKey,
            Serde<KO> foreignKeySerde,
            Serde<V> leftValueSerde,
            String subscriptionTopic) {

        /** The foreign key of a left row, or null when it has none (or no row). */
        KO foreignKeyOf(K key, V value) {
            return value == null ? null : foreignKey.apply(key, value);
        }

        /** Two foreign keys are the same when their bytes are (a byte[] key has no useful equals). */
        boolean same(KO a, KO b) {
            return a == null
                    ? b == null
                    : b != null
                            && Arrays.equals(
                                    foreignKeySerde.serialize(subscriptionTopic, a),
                                    foreignKeySerde.serialize(subscriptionTopic, b));
        }

        ValueHash<V> hash() {
            return new ValueHash<>(leftValueSerde, subscriptionTopic);
        }
    }

    /**
     * A left row's change as subscriptions: an unsubscription from the foreign key it no longer has
     * (so that the old right row's changes stop reaching it), and a subscription to the one it has
     * now, carrying its new value's digest, even when the foreign key did not change (the result
     * must be recomputed with the new value, and only the right side has the right row).
     */
    public static <K, V, KO> ProcessorSupplier<K, Change<V>, KO, FkSubscription<K>> subscribe(Spec<K, V, KO> spec) {
        return () -> new StatelessProcessors.Forwarding<K, Change<V>, KO, FkSubscription<K>>() {
            private final ValueHash<V> hash = spec.hash();

            @Override
            public void process(Record<K, Change<V>> r) {
                K key = r.key();
                KO oldFk = spec.foreignKeyOf(key, r.value().oldValue());
                V value = r.value().newValue();
                KO newFk = spec.foreignKeyOf(key, value);
                if (oldFk != null && !spec.same(oldFk, newFk)) {
                    context.forward(r.with(oldFk, FkSubscription.unsubscribe(key)));
                }
                if (newFk != null) {
                    context.forward(r.with(newFk, FkSubscription.subscribe(key, hash.of(value))));
                }
            }
        };
    }

    /**
     * The right side's record of subscriptions, in {@code store}: each subscription is kept (its
     * latest digest per left row) and answered at once with the foreign key's current right row
     * ({@code null} when there is none: the left side must then delete an inner join's row); an
     * unsubscription is forgotten. Runs in the right table's task, so that it reads the row the
     * subscription's foreign key has now.
     */
    public static <K, KO, VO> ProcessorSupplier<KO, FkSubscription<K>, K, FkResponse<VO>> respond(
            String store, TableLookup<KO, VO> right) {
        return () -> new StatelessProcessors.Forwarding<KO, FkSubscription<K>, K, FkResponse<VO>>() {
            private KeyValueStore<FkSubscriptionKey<KO, K>, byte[]> subscriptions;
            private TableLookup.Reader<KO, VO> rightReader;

            @Override
            public void init(ProcessorContext<K, FkResponse<VO>> context) {
                super.init(context);
                subscriptions = context.getStateStore(store);
                rightReader = right.open(context);
            }

            @Override
            public void process(Record<KO, FkSubscription<K>> r) {
                FkSubscription<K> s = r.value();
                FkSubscriptionKey<KO, K> key = new FkSubscriptionKey<>(r.key(), s.leftKey());
                if (s.unsubscribe()) {
                    subscriptions.delete(key);
                    return;
                }
                subscriptions.put(key, s.hash());
                context.forward(r.with(s.leftKey(), new FkResponse<>(s.hash(), rightReader.get(r.key()))));
            }
        };
    }

    /**
     * A right row's change, sent to every left row subscribed to its key (a prefix scan of the
     * subscription store {@code store}) with the digest each subscribed with.
     */
    public static <K, KO, VO> ProcessorSupplier<KO, Change<VO>, K, FkResponse<VO>> fanOut(
            String store, FkSubscriptionKey.FkSubscriptionKeySerde<KO, K> keySerde) {
        return () -> new StatelessProcessors.Forwarding<KO, Change<VO>, K, FkResponse<VO>>() {
            private KeyValueStore<FkSubscriptionKey<KO, K>, byte[]> subscriptions;

            @Override
            public void init(ProcessorContext<K, FkResponse<VO>> context) {
                super.init(context);
                subscriptions = context.getStateStore(store);
            }

            @Override
            public void process(Record<KO, Change<VO>> r) {
                VO value = r.value().newValue();
                try (KeyValueIterator<FkSubscriptionKey<KO, K>, byte[]> it =
                        subscriptions.prefixScan(keySerde.prefix(store, r.key()))) {
                    while (it.hasNext()) {
                        KeyValue<FkSubscriptionKey<KO, K>, byte[]> s = it.next();
                        context.forward(r.with(s.key().leftKey(), new FkResponse<>(s.value(), value)));
                    }
                }
            }
        };
    }

    /**
     * The result, in {@code store}: computed from a response when its digest is that of the left
     * row's current value (else it answers an earlier version of the row, one that may have had
     * another foreign key, and is dropped), and at once from a left row's change that needs no
     * right row: a deleted row, or a row without a foreign key (a left join's
     * {@code joiner(value, null)}). A change that leaves the result absent is not forwarded; every
     * other is, with the value last forwarded, as the table-table join does.
     */
    public static <K, V, KO, VO, VR> ProcessorSupplier<K, Object, K, Change<VR>> join(
            Spec<K, V, KO> spec,
            TableLookup<K, V> left,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            TableProcessors.JoinKind kind,
            String store,
            TableChildren children) {
        return () -> new StatelessProcessors.Forwarding<K, Object, K, Change<VR>>() {
            private final ValueHash<V> hash = spec.hash();
            private TableLookup.Reader<K, V> leftReader;
            private KeyValueStore<K, VR> result;

            @Override
            public void init(ProcessorContext<K, Change<VR>> context) {
                super.init(context);
                leftReader = left.open(context);
                result = context.getStateStore(store);
            }

            @Override
            @SuppressWarnings("unchecked")
            public void process(Record<K, Object> r) {
                if (r.value() instanceof FkResponse<?> response) {
                    answer(r, (FkResponse<VO>) response);
                } else {
                    leftChanged(r, ((Change<V>) r.value()).newValue());
                }
            }

            private void leftChanged(Record<K, Object> r, V value) {
                if (value == null) {
                    update(r, null);
                } else if (spec.foreignKeyOf(r.key(), value) == null) {
                    update(r, kind.join(value, null, joiner));
                }
                // else the response to the row's subscription brings the right row
            }

            private void answer(Record<K, Object> r, FkResponse<VO> response) {
                V value = leftReader.get(r.key());
                if (value != null && Arrays.equals(hash.of(value), response.hash())) {
                    update(r, kind.join(value, response.rightValue(), joiner));
                }
            }

            private void update(Record<K, Object> r, VR joined) {
                VR previous = result.get(r.key());
                if (joined == null && previous == null) {
                    return;
                }
                result.put(r.key(), joined);
                children.forward(context, r.withValue(new Change<>(previous, joined)));
            }
        };
    }
}
