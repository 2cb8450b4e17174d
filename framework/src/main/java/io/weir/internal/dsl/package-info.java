/**
 * The DSL's graph building: the stream, table, grouped and windowed builders behind the public
 * {@code io.weir.dsl} interfaces, which add nodes, stores and repartition topics to the graph and
 * wire the operators of {@code io.weir.internal.operator} into it (foreign-key joins in
 * {@code ForeignKeyJoin}, versioned joins in {@code VersionedJoins}). Graph building only: no
 * processor runs here. May use the operators, the task's contracts, the topology and the stores.
 */
package io.weir.internal.dsl;
