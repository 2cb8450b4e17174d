/**
 * The state thread of an instance: restores of active tasks, standby and warm-up tasks that
 * follow changelogs, the requests that promote caught-up warm-ups, and the clean-up of unused
 * task directories; and the registry of which tasks are active here. May use the cluster, state
 * and assign rooms below it.
 */
package io.weir.internal.restore;
