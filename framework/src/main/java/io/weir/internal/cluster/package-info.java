/**
 * Talking to the cluster about the application: client configurations, the set-up and check of
 * internal topics and their leaders, the diagnosis of a stall, changelog end offsets, the purge
 * of repartition topics and the removal of an instance's group members. May use the rooms below
 * (topology, state, assign) and the configuration.
 */
package io.weir.internal.cluster;
