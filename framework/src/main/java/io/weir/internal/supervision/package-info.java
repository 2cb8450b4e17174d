/**
 * Watching an instance from outside its threads: the monitor that derives the instance's state
 * and readiness facts, stall warnings, failure detection through liveness heartbeats, and the
 * instance's meters. May use the thread room and those below.
 */
package io.weir.internal.supervision;
