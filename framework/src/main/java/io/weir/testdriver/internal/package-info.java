/**
 * The test driver's runtime: the same task manager and tasks as a stream thread, with Kafka's
 * mock clients over in-memory topics, a synchronous restorer and a driver-controlled clock. Kept
 * under {@code io.weir.testdriver} so the driver is one unit apart from the runtime packages (as
 * Kafka Streams ships {@code kafka-streams-test-utils}), ready to become a module of its own. May
 * use the thread room and those below.
 */
package io.weir.testdriver.internal;
