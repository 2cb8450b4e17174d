/**
 * The DSL: streams, grouped and windowed streams, tables, branches, windows and triggers ({@link
 * io.weir.dsl.Emit}). Interfaces and values only, implemented in {@code io.weir.internal.dsl};
 * may use the public packages {@code processor}, {@code serde}, {@code state}, {@code time} and
 * {@code common}, never an internal room.
 */
package io.weir.dsl;
