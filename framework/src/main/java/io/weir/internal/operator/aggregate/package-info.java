/**
 * The aggregate operator: {@code aggregate}, {@code count} and {@code reduce} of a grouped stream
 * or table into a store, emitting the table's changes. May use the table operators, the task and
 * the stores below it.
 */
package io.weir.internal.operator.aggregate;
