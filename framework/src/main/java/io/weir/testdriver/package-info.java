/**
 * The test driver: {@link io.weir.testdriver.TestDriver} runs a topology without a broker, with the
 * same operators, stores and timers as production and several partitions per topic, for unit tests
 * (as Kafka Streams ships {@code kafka-streams-test-utils}). Public API; its machinery is in
 * {@code io.weir.testdriver.internal}.
 *
 * <p><b>Compared with Kafka Streams' {@code TopologyTestDriver}.</b> Both run on the calling
 * thread without a broker, pipe typed records in, read typed records out and expose stores. That
 * driver runs the whole topology as a single task with one partition per topic and without
 * transactions: it cannot show how records spread over partitions and tasks, how a repartition
 * topic routes them, or what an abort takes back (a processor that throws half-way leaves what it
 * forwarded before). This one runs every task, routes records as the producer partitions them,
 * and goes through the exactly-once commit, so a failing record is dead-lettered with no partial
 * output, as in production; tasks can be revoked and reassigned, restoring their state.
 *
 * <p><b>Not modelled.</b> The group protocol itself (assignments, several instances, standby
 * tasks), lost partitions and crashes, fenced producers and other guarantees than exactly-once
 * (use the {@code testkit} broker for those); topics created
 * while running (declare topics that pattern sources or topic extractors use with
 * {@link TestDriver.Builder#partitions}; writing to an undeclared topic fails as on a cluster without it); a
 * custom {@code partitioner.class}. Records without a key go to the partitions in turn (Kafka's
 * producer spreads them in batches). A topic's {@code max.message.bytes} is the broker default
 * (1048588), the dead-letter topic's {@code dead.letter.max.message.bytes}.
 */
package io.weir.testdriver;
