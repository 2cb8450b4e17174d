package io.weir.processor;

import io.weir.serde.Serde;

/**
 * A state store declared for the processor API ({@link Stores}): what it is called, how its keys
 * and values are serialized, where it lives and whether it has a changelog. Add it to a topology
 * with {@code TopologyBuilder.addStateStore}; processors reach it by name through
 * {@link ProcessorContext#getStateStore}.
 *
 * <p>Immutable: every option of a builder returns a new builder.
 *
 * @param <K> the store's key type
 * @param <V> the store's value type
 */
public sealed interface StoreBuilder<K, V> permits StoreDeclaration {

    /** The store's stable name; it also names the changelog topic {@code <application.id>-<name>-changelog}. */
    String name();

    Serde<K> keySerde();

    Serde<V> valueSerde();

    /** True for RocksDB on local disk (the default), false for a store kept in memory. */
    boolean persistent();

    /** True (the default) when every change goes to the store's changelog topic, from which it is restored. */
    boolean logged();
}
