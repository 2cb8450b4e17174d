package io.weir.dsl;

import io.weir.common.KeyValue;
import io.weir.processor.AsyncProcessor;
import io.weir.processor.AsyncProcessorSupplier;
import io.weir.processor.ProcessorSupplier;
import io.weir.serde.Serde;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * An unbounded stream of keyed records, the DSL's main type. Each operation adds a step to the
 * topology and returns the stream of its results; nothing runs until the topology is started.
 *
 * <p>Operations are stateless and keep each record's timestamp, headers and origin. They run
 * in the task that owns the input partition, in input order. An exception thrown by a function
 * fails that record (see {@link io.weir.processor.Processor}).
 *
 * <p>Serdes follow the stream: a source's serdes stay known through operations that keep the
 * key and value types ({@code filter}, {@code peek}, {@code merge}, {@code split}); after an
 * operation that changes a type, {@code to} needs serdes for it.
 */
public interface RecordStream<K, V> {

    RecordStream<K, V> filter(BiPredicate<? super K, ? super V> predicate);

    RecordStream<K, V> filterNot(BiPredicate<? super K, ? super V> predicate);

    <KR, VR> RecordStream<KR, VR> map(BiFunction<? super K, ? super V, KeyValue<KR, VR>> mapper);

    <VR> RecordStream<K, VR> mapValues(Function<? super V, ? extends VR> mapper);

    <VR> RecordStream<K, VR> mapValues(BiFunction<? super K, ? super V, ? extends VR> mapper);

    <KR, VR> RecordStream<KR, VR> flatMap(
            BiFunction<? super K, ? super V, ? extends Iterable<KeyValue<KR, VR>>> mapper);

    <VR> RecordStream<K, VR> flatMapValues(Function<? super V, ? extends Iterable<? extends VR>> mapper);

    <VR> RecordStream<K, VR> flatMapValues(BiFunction<? super K, ? super V, ? extends Iterable<? extends VR>> mapper);

    <KR> RecordStream<KR, V> selectKey(BiFunction<? super K, ? super V, ? extends KR> mapper);

    /**
     * As {@link #mapValues(Function)}, for a function that calls another service and returns its
     * future result: the stream thread goes on with other records while calls are in flight (see
     * {@link Async} for the guarantees). Default options ({@link Async#defaults()}): per-key
     * order, 1000 in flight per task, 30 s time-out, failures to the dead-letter topic. The
     * stream's serdes must be known (calls in flight at a commit are stored with them).
     */
    <VR> RecordStream<K, VR> mapValuesAsync(Function<? super V, ? extends CompletionStage<VR>> mapper);

    /** As {@link #mapValuesAsync(Function)}, with the key, the call's idempotency key, and options. */
    <VR> RecordStream<K, VR> mapValuesAsync(AsyncFunction<? super K, ? super V, VR> mapper, Async options);

    /**
     * As {@link #flatMapValues(BiFunction)}, asynchronously (see {@link #mapValuesAsync(AsyncFunction,
     * Async)}): each record gives the values of the iterable its call completes with, in order.
     */
    <VR> RecordStream<K, VR> flatMapValuesAsync(
            AsyncFunction<? super K, ? super V, ? extends Iterable<? extends VR>> mapper, Async options);

    /**
     * As {@link #filter}, asynchronously (see {@link #mapValuesAsync(AsyncFunction, Async)}): keeps
     * the records whose call completes with {@code true}; {@code null} counts as {@code false}.
     */
    RecordStream<K, V> filterAsync(AsyncFunction<? super K, ? super V, Boolean> predicate, Async options);

    /**
     * Enriches each record with a value another service has for it, without blocking the stream
     * thread (see {@link Async}): {@code lookupKey} says what to look up (the key, a field of the
     * value; {@code null}: nothing, the joiner gets {@code null}), {@code lookup} asks the service,
     * and the record goes on with {@code joiner(value, looked-up value)} as its value (the
     * looked-up value is {@code null} when the service has none). With {@link Async#withCache} a
     * task keeps looked-up values for a while and asks again only for keys it has not seen
     * recently. The stream's serdes must be known.
     */
    <LK, T, VR> RecordStream<K, VR> enrichAsync(
            BiFunction<? super K, ? super V, ? extends LK> lookupKey,
            AsyncLookup<? super LK, T> lookup,
            ValueJoiner<? super V, ? super T, ? extends VR> joiner,
            Async options);

    /**
     * Adds a hand-written asynchronous processor (see {@link AsyncProcessor} for its guarantees:
     * per-key order, read-your-writes on {@code stores}, exactly once towards Kafka). {@code
     * options} must be {@linkplain Async#named named} (the step's node and its store of calls in
     * flight take the name) and, when the processor uses stores, keep {@link Async.Order#KEY}. The
     * stream's serdes must be known.
     */
    <KR, VR, R> RecordStream<KR, VR> processAsync(
            AsyncProcessorSupplier<? super K, ? super V, KR, VR, R> supplier, Async options, String... stores);

    /** Calls {@code action} for each record and passes the record on unchanged. */
    RecordStream<K, V> peek(BiConsumer<? super K, ? super V> action);

    /** Routes records into named branches; see {@link Branches}. */
    Branches<K, V> split();

    /** The records of both streams, each stream's order kept. */
    RecordStream<K, V> merge(RecordStream<K, V> other);

    /**
     * Adds a hand-written processor; {@code name} is its stable node name, {@code stores} the
     * state stores (added with {@code TopologyBuilder.addStateStore}) it may use.
     */
    <KR, VR> RecordStream<KR, VR> process(
            ProcessorSupplier<? super K, ? super V, KR, VR> supplier, String name, String... stores);

    /**
     * Groups by the current key, to aggregate. If an earlier step changed the key, the records
     * are first repartitioned by the new key through an internal topic (the stream's serdes must
     * be known then).
     */
    GroupedStream<K, V> groupByKey();

    /**
     * Groups by a new key, to aggregate: records are repartitioned by it through the internal
     * topic {@code <application.id>-<store name>-repartition}.
     */
    <KR> GroupedStream<KR, V> groupBy(BiFunction<? super K, ? super V, ? extends KR> keySelector, Serde<KR> keySerde);

    /** As {@link #groupBy(BiFunction, Serde)}, declaring the value serde for the repartition topic. */
    <KR> GroupedStream<KR, V> groupBy(
            BiFunction<? super K, ? super V, ? extends KR> keySelector, Serde<KR> keySerde, Serde<V> valueSerde);

    /**
     * This stream as a table kept in the store {@code storeName}: each record replaces its key's
     * row, a {@code null} value deletes it. If an earlier step changed the key, the records are
     * first repartitioned by it through {@code <application.id>-<store name>-repartition}. A
     * record with a {@code null} key goes to the dead-letter topic.
     */
    RecordTable<K, V> toTable(String storeName);

    /**
     * As {@link #toTable(String)}, a versioned table: it also keeps each key's history for
     * {@code versioned}'s retention, in the store {@code <storeName>-versions} (with its changelog),
     * so that a stream-table join reads the value valid at each stream record's time. Its current
     * value (in {@code storeName}, for queries and {@code toStream()}) is the newest version: an
     * update older than it changes the history only and forwards nothing.
     */
    RecordTable<K, V> toTable(String storeName, Versioned versioned);

    /**
     * Joins each record with the table's current value of its key, when it has one; records
     * without one (and records with a {@code null} key or value) give no result. The table must be
     * co-partitioned with this stream (checked at start-up); if an earlier step changed this
     * stream's key, its records are first repartitioned through
     * {@code <application.id>-<table store>-join-repartition}, with as many partitions as the
     * table's topic. The result keeps the record's key, timestamp and headers.
     *
     * <p>Against a versioned table ({@link #toTable(String, Versioned)}), the table's value is the one
     * valid at the record's timestamp; none when that is older than the table's history retention
     * behind the newest timestamp the table has seen. Otherwise:
     * the table's value is the one it has when the record is processed: the task processes
     * its inputs in timestamp order across partitions, so a table update with an earlier timestamp
     * than the record is seen if it has been fetched.
     */
    <VT, VR> RecordStream<K, VR> join(
            RecordTable<K, VT> table, ValueJoiner<? super V, ? super VT, ? extends VR> joiner);

    /** As {@link #join(RecordTable, ValueJoiner)}, but every record gives a result, with {@code null} for no table value. */
    <VT, VR> RecordStream<K, VR> leftJoin(
            RecordTable<K, VT> table, ValueJoiner<? super V, ? super VT, ? extends VR> joiner);

    /**
     * As {@link #join(RecordTable, ValueJoiner)} against a versioned table ({@link Versioned}), each
     * record waiting {@link Joined#grace()} of event time first: it is joined, with the table's value
     * valid at its timestamp, once the watermark reaches its timestamp plus the grace, so that a table
     * update with an earlier timestamp arriving up to that much later is still seen; results come in
     * timestamp order. The records wait in the window store {@code <name>-buffer} (with a changelog,
     * exactly-once). Fails when the topology is built if the table is not versioned, or keeps less
     * history than the grace.
     */
    <VT, VR> RecordStream<K, VR> join(
            RecordTable<K, VT> table, ValueJoiner<? super V, ? super VT, ? extends VR> joiner, Joined joined);

    /** As {@link #join(RecordTable, ValueJoiner, Joined)}, but every record gives a result, with {@code null} for no table value. */
    <VT, VR> RecordStream<K, VR> leftJoin(
            RecordTable<K, VT> table, ValueJoiner<? super V, ? super VT, ? extends VR> joiner, Joined joined);

    /**
     * Joins each record with the row of a global table whose key {@code keySelector} computes from
     * the record (for example a field of the value), when the table has one; records without one,
     * or whose selected key is {@code null}, give no result. No repartition and no co-partitioning:
     * every instance holds the whole table. The result keeps the record's key, timestamp and headers.
     */
    <KG, VG, VR> RecordStream<K, VR> join(
            GlobalTable<KG, VG> table,
            BiFunction<? super K, ? super V, ? extends KG> keySelector,
            ValueJoiner<? super V, ? super VG, ? extends VR> joiner);

    /** As {@link #join(GlobalTable, BiFunction, ValueJoiner)}, but every record gives a result, with {@code null} for no row. */
    <KG, VG, VR> RecordStream<K, VR> leftJoin(
            GlobalTable<KG, VG> table,
            BiFunction<? super K, ? super V, ? extends KG> keySelector,
            ValueJoiner<? super V, ? super VG, ? extends VR> joiner);

    /**
     * Joins this stream with {@code other} within a time window: each pair of records of one key
     * whose timestamps are close enough ({@link JoinWindows}: the other's within
     * {@code [t - before, t + after]} of this one's {@code t}) gives one result,
     * {@code joiner(this value, other value)}, stamped with the later timestamp, as soon as the
     * second of the two is processed. Records later than the allowed lateness go to the late-records
     * topic. Both streams need their serdes (to buffer their records) and must be co-partitioned;
     * a stream whose key an earlier step changed is first repartitioned through
     * {@code <application.id>-<name>-left-repartition} (or {@code -right-}).
     *
     * <p>Each side's records are buffered in the window store {@code <name>-left} /
     * {@code <name>-right} (with changelogs) only as long as a record of the other side that is not
     * late can still join them, so the stores stay bounded by the window and the lateness.
     *
     * @param name names the join's stores and topics; keep it stable across versions
     */
    <VO, VR> RecordStream<K, VR> join(
            RecordStream<K, VO> other,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            JoinWindows windows,
            String name);

    /**
     * As {@link #join(RecordStream, ValueJoiner, JoinWindows, String)}, and each record of this
     * stream that no record of the other joined gives {@code joiner(value, null)}, once the
     * watermark shows that none can any more (its timestamp plus {@code after} plus the allowed
     * lateness), never before: no unmatched result is followed by a match.
     */
    <VO, VR> RecordStream<K, VR> leftJoin(
            RecordStream<K, VO> other,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            JoinWindows windows,
            String name);

    /** As {@link #leftJoin(RecordStream, ValueJoiner, JoinWindows, String)}, for the unmatched records of both streams. */
    <VO, VR> RecordStream<K, VR> outerJoin(
            RecordStream<K, VO> other,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            JoinWindows windows,
            String name);

    /**
     * Writes this stream through the internal topic {@code <application.id>-<name>-repartition} and
     * reads it back: the steps after it run in tasks of their own, one per partition of that topic,
     * each record in the partition of its key (murmur2 of the serialized key). As Kafka Streams'
     * {@code repartition()}. Needs the stream's serdes; the name and the partition count are
     * derived (see {@link Repartitioned}).
     */
    RecordStream<K, V> repartition();

    /**
     * As {@link #repartition()}, with a name for the topic, a fixed partition count, a partitioner
     * and serdes ({@link Repartitioned}). A fixed count is checked against what the records meet
     * downstream: a join with a topic of another count fails at start-up, naming both.
     */
    RecordStream<K, V> repartition(Repartitioned<K, V> options);

    /** Declares the serdes of this stream's keys and values, for a later {@code to}. */
    RecordStream<K, V> withSerdes(Serde<K> keySerde, Serde<V> valueSerde);

    /** Writes to {@code topic} with the stream's serdes. */
    void to(String topic);

    void to(String topic, Serde<K> keySerde, Serde<V> valueSerde);

    /** Writes each record to the topic the extractor names, with the stream's serdes. */
    void to(TopicNameExtractor<K, V> extractor);

    void to(TopicNameExtractor<K, V> extractor, Serde<K> keySerde, Serde<V> valueSerde);

    /**
     * Writes to {@code topic} with {@code produced}'s serdes (or the stream's), each record to the
     * partition its partitioner chooses ({@link StreamPartitioner}; Kafka's default without one).
     */
    void to(String topic, Produced<K, V> produced);

    /** As {@link #to(String, Produced)}, each record to the topic the extractor names. */
    void to(TopicNameExtractor<K, V> extractor, Produced<K, V> produced);
}
