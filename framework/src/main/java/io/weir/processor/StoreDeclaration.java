package io.weir.processor;

import io.weir.serde.Serde;

/**
 * What every store builder holds: the store's name, serdes, where it lives and whether it has a
 * changelog. The builders add what their kind of store needs (a TTL, a window size, a retention).
 */
abstract sealed class StoreDeclaration<K, V> implements StoreBuilder<K, V>
        permits KeyValueStoreBuilder, WindowStoreBuilder, SessionStoreBuilder {

    private final String name;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;
    private final boolean persistent;
    private final boolean logged;

    StoreDeclaration(String name, Serde<K> keySerde, Serde<V> valueSerde, boolean persistent, boolean logged) {
        this.name = name;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.persistent = persistent;
        this.logged = logged;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Serde<K> keySerde() {
        return keySerde;
    }

    @Override
    public Serde<V> valueSerde() {
        return valueSerde;
    }

    @Override
    public boolean persistent() {
        return persistent;
    }

    @Override
    public boolean logged() {
        return logged;
    }
}
