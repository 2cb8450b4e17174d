/**
 * Global tables: the thread that keeps every global table's store complete on every instance,
 * the stores themselves and their checkpoint. May use the task's outputs (dead letters), the
 * cluster's client configurations and the stores below it.
 */
package io.weir.internal.state.global;
