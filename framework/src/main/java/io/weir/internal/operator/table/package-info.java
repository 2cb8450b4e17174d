/**
 * The table operators: a table's changes ({@code Change}, old and new value) and their serde, the
 * processors of table sources, derived tables and versioned tables, and the lookups through which
 * joins read a table's current or past value of a key. May use the stateless operators, the task
 * and the stores below it.
 */
package io.weir.internal.operator.table;
