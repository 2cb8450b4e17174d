/**
 * Savepoints: requests and progress on the control topic, the cut at a commit boundary, a
 * thread's part in it, writing and reading the data and manifests, listing and deleting, the
 * compatibility check and restoring into a new application. May use the task, cluster, state and
 * topology rooms below it.
 */
package io.weir.internal.savepoint;
