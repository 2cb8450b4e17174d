/**
 * Talking to the cluster about the instance: client configurations, the diagnosis of a stall and
 * the removal of an instance's group members. Internal topics are in {@code .topics}, access
 * checks in {@code .access}. May use the rooms below (topology, state, assign) and the
 * configuration.
 */
package io.weir.internal.cluster;
