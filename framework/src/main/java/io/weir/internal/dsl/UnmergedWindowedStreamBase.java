package io.weir.internal.dsl;

import io.weir.dsl.Aggregator;
import io.weir.dsl.Merger;
import io.weir.dsl.RecordStream;
import io.weir.serde.Serde;
import io.weir.state.Windowed;
import java.util.function.Supplier;

/**
 * What time and count windowed streams share beyond {@link WindowedStreamBase}: their windows never
 * merge, so {@code aggregate} takes no merger.
 */
abstract class UnmergedWindowedStreamBase<K, V> extends WindowedStreamBase<K, V> {

    /** The merger of windows that never merge. */
    private static final Merger<Object, Object> NOT_MERGED = (k, a, b) -> {
        throw new UnsupportedOperationException("time and count windows do not merge");
    };

    UnmergedWindowedStreamBase(GroupedStreamImpl<K, V> grouped) {
        super(grouped);
    }

    @SuppressWarnings("unchecked")
    public final <VA> RecordStream<Windowed<K>, VA> aggregate(
            Supplier<VA> initializer,
            Aggregator<? super K, ? super V, VA> aggregator,
            Serde<VA> aggregateSerde,
            String storeName) {
        return aggregateMerging(
                initializer, aggregator, (Merger<? super K, VA>) (Merger<?, ?>) NOT_MERGED, aggregateSerde, storeName);
    }
}
