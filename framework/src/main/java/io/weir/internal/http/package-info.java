/**
 * The instance's HTTP endpoints: the server, routing, health, info, topology (JSON and Mermaid),
 * metrics and {@code POST /admin/leave}, over a view the root provides. May use the topology and
 * {@code internal.json}.
 */
package io.weir.internal.http;
