/**
 * The DSL's implementation: stream and grouped-stream builders that add nodes to the graph, and
 * the processors of aggregations and windows (time, session, count) with their triggers, and of
 * tables and their joins (foreign-key joins in {@code ForeignKeyJoin}). May use
 * the task's contracts, the topology and the stores.
 */
package io.weir.internal.dsl;
