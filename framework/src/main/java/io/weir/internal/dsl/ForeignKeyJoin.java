package io.weir.internal.dsl;

import io.weir.dsl.RecordTable;
import io.weir.dsl.ValueJoiner;
import io.weir.errors.TopologyException;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.operator.join.FkResponse;
import io.weir.internal.operator.join.FkSubscription;
import io.weir.internal.operator.join.FkSubscriptionKey;
import io.weir.internal.operator.join.ForeignKeyJoinProcessors;
import io.weir.internal.operator.table.TableChildren;
import io.weir.internal.operator.table.TableProcessors;
import io.weir.internal.topology.GraphBuilder;
import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * Adds a foreign-key table-table join (KIP-213's design in Kafka Streams): the left table's rows
 * subscribe to the right row of their foreign key through {@code <store>-fk-subscription-repartition}
 * (keyed by foreign key, so it lands in the right table's task of that key, whatever the two
 * tables' partition counts); the right side keeps the subscriptions in {@code <store>-fk-subscriptions}
 * and answers each, and each later change of a subscribed right row, through
 * {@code <store>-fk-response-repartition} (keyed by the left key, back in the left row's task),
 * where {@code <store>-fk-join} computes the result into {@code <store>}.
 *
 * <pre>
 *  left ──change──► fk-subscribe ──► [fk-subscription topic, by FK] ──► fk-respond ─┐ (subscriptions store,
 *    │                                                                             │  right row read)
 *    │                                    right ──change──► fk-right-changes ──────┤
 *    │                                                                             ▼
 *    └──change──► fk-join ◄──────────── [fk-response topic, by left key] ◄─────────┘
 *                 (result store)
 * </pre>
 *
 * The two repartition topics are sized by {@code TaskCounts} to the partition count of the side
 * that reads them, because that side's task has the state stores they meet. They carry no event
 * time: they go both ways between the two sides' sub-topologies, so if each side's watermark
 * waited for the other's announcements through them, neither would ever move; the result table
 * needs no watermark, and a window after it runs on the left side's input times.
 */
public final class ForeignKeyJoin {

    private ForeignKeyJoin() {}

    static <K, V, KO, VO, VR> RecordTable<K, VR> add(
            RecordTableImpl<K, V> left,
            RecordTable<KO, VO> other,
            BiFunction<? super K, ? super V, ? extends KO> foreignKey,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            Serde<VR> resultSerde,
            String storeName,
            TableProcessors.JoinKind kind) {
        Objects.requireNonNull(foreignKey, "foreignKey");
        RecordTableImpl<KO, VO> right = left.joinable(other, joiner, resultSerde, storeName);
        GraphBuilder graph = left.graph();
        requireSerde(left.valueSerde(), storeName, "this table's value serde, to digest its rows");
        requireSerde(right.keySerde(), storeName, "the other table's key serde, to send subscriptions to its rows");
        requireSerde(right.valueSerde(), storeName, "the other table's value serde, to send its rows back");

        String subscriptionTopic = InternalTopic.REPARTITION.relative(storeName + "-fk-subscription");
        String responseTopic = InternalTopic.REPARTITION.relative(storeName + "-fk-response");
        String subscriptions = storeName + "-fk-subscriptions";
        ForeignKeyJoinProcessors.Spec<K, V, KO> spec =
                new ForeignKeyJoinProcessors.Spec<>(foreignKey, right.keySerde(), left.valueSerde(), subscriptionTopic);
        var subscriptionKeys = new FkSubscriptionKey.FkSubscriptionKeySerde<KO, K>(right.keySerde(), left.keySerde());
        var subscriptionSerde = new FkSubscription.FkSubscriptionSerde<>(left.keySerde());
        var responseSerde = new FkResponse.FkResponseSerde<>(right.valueSerde());
        graph.addStore(new StoreSpec(subscriptions, subscriptionKeys, Serdes.bytes(), true, true, null));
        graph.addStore(new StoreSpec(storeName, left.keySerde(), resultSerde, true, true, null));

        // left side: subscriptions out
        String subscribe = storeName + "-fk-subscribe";
        graph.addProcessor(subscribe, ForeignKeyJoinProcessors.subscribe(spec), List.of(left.node()));
        left.children().addChangeChild(subscribe);
        graph.addRepartitionSink(
                subscriptionTopic + "-sink",
                subscriptionTopic,
                right.keySerde(),
                subscriptionSerde,
                List.of(subscribe));

        // right side: subscriptions in, responses out
        graph.addSourceWithoutEventTime(
                subscriptionTopic + "-source", subscriptionTopic, right.keySerde(), subscriptionSerde);
        String respond = storeName + "-fk-respond";
        List<String> respondStores = new ArrayList<>(List.of(subscriptions));
        respondStores.addAll(right.lookup().stores());
        graph.addProcessor(
                respond,
                ForeignKeyJoinProcessors.<K, KO, VO>respond(subscriptions, right.lookup()),
                List.of(subscriptionTopic + "-source"),
                respondStores);
        String rightChanges = storeName + "-fk-right-changes";
        graph.addProcessor(
                rightChanges,
                ForeignKeyJoinProcessors.<K, KO, VO>fanOut(subscriptions, subscriptionKeys),
                List.of(right.node()),
                List.of(subscriptions));
        right.children().addChangeChild(rightChanges);
        graph.addRepartitionSink(
                responseTopic + "-sink", responseTopic, left.keySerde(), responseSerde, List.of(respond, rightChanges));

        // left side: responses in, the result
        graph.addSourceWithoutEventTime(responseTopic + "-source", responseTopic, left.keySerde(), responseSerde);
        String join = storeName + "-fk-join";
        List<String> joinStores = new ArrayList<>(List.of(storeName));
        joinStores.addAll(left.lookup().stores());
        TableChildren resultChildren = new TableChildren();
        graph.addProcessor(
                join,
                ForeignKeyJoinProcessors.<K, V, KO, VO, VR>join(
                        spec, left.lookup(), joiner, kind, storeName, resultChildren),
                List.of(left.node(), responseTopic + "-source"),
                joinStores);
        left.children().addChangeChild(join);
        return RecordTableImpl.stored(graph, join, left.keySerde(), resultSerde, storeName, resultChildren);
    }

    private static void requireSerde(Serde<?> serde, String storeName, String what) {
        if (serde == null) {
            throw new TopologyException("the foreign-key join into store '" + storeName + "' needs " + what
                    + ", which a table made by mapValues has not: join the table it was mapped from and map the"
                    + " result, or map the values in the topology that writes the table's topic");
        }
    }
}
