/**
 * Standby and warm-up tasks: copies of other instances' task state that follow their changelogs,
 * so failover starts from warm state, and the requests that promote a caught-up warm-up. Run by
 * the state thread ({@code io.weir.internal.state.thread}); may use the restore room and the
 * stores below it.
 */
package io.weir.internal.state.standby;
