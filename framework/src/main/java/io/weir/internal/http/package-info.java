/**
 * The instance's HTTP endpoints: the server (HTTP or HTTPS, on one port or with a second one for
 * {@code /admin/} and {@code /stores/}), routing, the access filter, health, info, topology (JSON
 * and Mermaid), metrics and {@code POST /admin/leave}, over a view the root provides. May use the
 * topology, {@code internal.json} and its own {@code security} package (TLS material, tokens, the
 * access policy, calls between instances).
 */
package io.weir.internal.http;
