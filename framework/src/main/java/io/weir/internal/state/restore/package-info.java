/**
 * Restoring state: the restores of active tasks' stores from their changelogs, the ticket a stream
 * thread holds for one, the consumers that read changelogs, and the clean-up of task directories
 * no longer used here. Run by the state thread ({@code io.weir.internal.state.thread}); may use
 * the stores, the cluster's client configurations and the topology below it.
 */
package io.weir.internal.state.restore;
