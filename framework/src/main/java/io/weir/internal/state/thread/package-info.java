/**
 * The state thread of an instance, which runs the restores of active tasks and the standbys in
 * turn so stream threads never block on either, and the registry of which tasks are active here
 * that the stream threads and the assignor consult. May use the restore and standby rooms below
 * it.
 */
package io.weir.internal.state.thread;
