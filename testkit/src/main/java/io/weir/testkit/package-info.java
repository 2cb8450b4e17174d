/**
 * Real Kafka brokers for tests and demos (KRaft, in-process or as child processes, or through
 * Testcontainers when Docker is present), a JUnit extension, a client for producing and reading
 * test data, child JVMs, and programs run to their end ({@link io.weir.testkit.Command}, {@link
 * io.weir.testkit.Podman}); the Kubernetes API server is in {@code io.weir.testkit.kubernetes}. Uses
 * {@code io.weir.common} only, never the framework.
 */
package io.weir.testkit;
