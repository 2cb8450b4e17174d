/**
 * Real Kafka brokers for tests and demos (KRaft, in-process or as child processes, or through
 * Testcontainers when Docker is present), a JUnit extension, a client for producing and reading
 * test data, and child JVMs. Uses {@code io.weir.common} only, never the framework.
 */
package io.weir.testkit;
