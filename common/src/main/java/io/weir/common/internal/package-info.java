/**
 * The one way Weir's modules wait on Kafka and on time: {@code KafkaCalls} (a future with a
 * time-out, every failure one {@code ClusterException} naming the operation), {@code Deadline} and
 * {@code Poll} (waits with a deadline), {@code Worker} (a background loop with a stop and a join), and {@code TopicLeaders} (the wait until new topics' leaders
 * serve them). Used by the framework, the CLI, the testkit and the samples; not for applications.
 * Uses {@code io.weir.errors} and Kafka's clients only.
 */
package io.weir.common.internal;
