/**
 * The test driver: {@link io.weir.testdriver.TestDriver} runs a topology without a broker, with the
 * same operators, stores and timers as production and several partitions per topic, for unit tests
 * (as Kafka Streams ships {@code kafka-streams-test-utils}). Public API; its machinery is in
 * {@code io.weir.testdriver.internal}.
 */
package io.weir.testdriver;
