/**
 * The loop: a stream thread with its consumer and rebalance callbacks, its task manager (the
 * lifecycle of tasks and the one step the test driver runs too), the thread's tasks processed in
 * turn and committed together, and the thread's health and meters. May use every room below it.
 */
package io.weir.internal.thread;
