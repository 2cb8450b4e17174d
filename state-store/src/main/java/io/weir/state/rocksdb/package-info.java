/**
 * The RocksDB bytes store and the memory budget every RocksDB store of an instance shares (block
 * cache and memtables). Part of the state store's engine, used by the framework; not for
 * applications. May use {@code io.weir.state} and {@code io.weir.state.internal}.
 */
package io.weir.state.rocksdb;
