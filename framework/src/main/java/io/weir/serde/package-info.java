/**
 * Serdes: how keys and values become bytes and back (strings, numbers, JSON, windowed keys). May
 * use {@code io.weir.state} (windowed keys) and {@code io.weir.errors}, never an internal room.
 */
package io.weir.serde;
