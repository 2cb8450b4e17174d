/**
 * Restoring stores from their changelog topics: one-shot restores and the restore sessions the
 * state thread runs for active tasks and standbys (read_committed, in large batches, waiting out
 * unresolved transactions). May use {@code io.weir.state.internal} and Kafka's consumer.
 */
package io.weir.state.changelog;
