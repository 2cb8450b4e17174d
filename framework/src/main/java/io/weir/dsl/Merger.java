package io.weir.dsl;

/** Combines the aggregates of two sessions of a key that a record merged into one. */
@FunctionalInterface
public interface Merger<K, VA> {

    VA merge(K key, VA first, VA second);
}
