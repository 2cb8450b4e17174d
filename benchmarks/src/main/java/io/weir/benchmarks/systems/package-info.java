/**
 * The systems under test: Weir ({@link io.weir.benchmarks.systems.WeirRunner}), Kafka Streams
 * ({@link io.weir.benchmarks.systems.KafkaStreamsRunner}) and the bare kafka-clients loop
 * ({@link io.weir.benchmarks.systems.BareLoop}, and its restore, {@code BareRestore}) in this JVM;
 * either framework running the count topology in a child JVM
 * ({@link io.weir.benchmarks.systems.ChildCountRunner}), alone or as a group of instances
 * ({@link io.weir.benchmarks.systems.InstanceGroup}); the client settings all of them share.
 */
package io.weir.benchmarks.systems;
