/**
 * The assignor and its parts: subscriptions and assignments on the wire, the placement of
 * active, standby and warm-up tasks by state and balance, and the co-partitioning check. May use
 * the topology only.
 */
package io.weir.internal.assign;
