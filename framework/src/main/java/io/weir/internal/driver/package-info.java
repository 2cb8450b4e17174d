/**
 * The test driver's runtime: the same task manager and tasks as a stream thread, with Kafka's
 * mock clients over in-memory topics, a synchronous restorer and a driver-controlled clock. May
 * use the thread room and those below.
 */
package io.weir.internal.driver;
