package io.weir.dsl;

/** Computes a key's new aggregate from a value and the current aggregate. */
@FunctionalInterface
public interface Aggregator<K, V, VA> {

    VA apply(K key, V value, VA aggregate);
}
