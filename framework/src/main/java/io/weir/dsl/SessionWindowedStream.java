package io.weir.dsl;

import io.weir.serde.Serde;
import io.weir.state.Windowed;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * A grouped stream cut into {@link SessionWindows}, ready to aggregate per key and session.
 * When a record merges sessions that were already emitted, their results are retracted with a
 * {@code null} value for their window before the merged session's result is emitted. A session
 * that has closed is never extended or overlapped: a record within its gap is late.
 *
 * <p>The aggregation keeps its sessions in the session store {@code storeName} and the last closed
 * session of each key in the key-value store {@code storeName + "-last-closed"}, both logged
 * (changelogs {@code <application.id>-<store>-changelog}).
 */
public interface SessionWindowedStream<K, V> {

    /** The trigger; default {@link Emit#atWatermark()}. */
    SessionWindowedStream<K, V> emit(Emit emit);

    RecordStream<Windowed<K>, Long> count(String storeName);

    RecordStream<Windowed<K>, V> reduce(BinaryOperator<V> reducer, String storeName);

    <VA> RecordStream<Windowed<K>, VA> aggregate(
            Supplier<VA> initializer,
            Aggregator<? super K, ? super V, VA> aggregator,
            Merger<? super K, VA> merger,
            Serde<VA> aggregateSerde,
            String storeName);
}
