package io.weir.dsl;

import java.util.Map;
import java.util.function.BiPredicate;

/**
 * The branches of {@link RecordStream#split()}. Each record goes to the first branch whose
 * predicate holds, or to the default branch, or nowhere if there is none; predicates are tried
 * in the order the branches were added.
 */
public interface Branches<K, V> {

    /** Adds a branch; its stream is in the result map under {@code name}. */
    Branches<K, V> branch(String name, BiPredicate<? super K, ? super V> predicate);

    /** Ends the split with a branch for records no predicate took. */
    Map<String, RecordStream<K, V>> otherwise(String name);

    /** Ends the split; records no predicate took are dropped (and counted as filtered). */
    Map<String, RecordStream<K, V>> noDefault();
}
