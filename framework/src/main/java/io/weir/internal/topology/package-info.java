/**
 * The topology as the runtime sees it: the graph of nodes and stores, its sub-topologies, the
 * task counts of its internal topics, its JSON description, the diff between two versions, and
 * the topology record that checks compatibility at start. May use {@code config} and {@code
 * internal.config}, {@code internal.json} and the public leaves.
 */
package io.weir.internal.topology;
