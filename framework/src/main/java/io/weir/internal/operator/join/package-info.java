/**
 * The join operators: stream-stream joins over a window with their buffers, stream-table joins as
 * of each record's time (with a grace period), and the processors of foreign-key table-table
 * joins with the subscriptions and responses they exchange. The DSL wires them
 * ({@code io.weir.internal.dsl}); may use the window and table operators, the task and the stores
 * below it.
 */
package io.weir.internal.operator.join;
